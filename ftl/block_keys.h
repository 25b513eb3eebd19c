// The [ftl] keys of the block-mapped and hybrid FTLs (block-mapped, bast,
// fast; block_keys.cpp): the virtual block they map and erase, and their log
// blocks. Their registry lines list the hooks below (ftl/ftl_keys.h).
#pragma once

#include <nlohmann/json.hpp>

#include "common/toml_keys.h"
#include "flash/geometry.h"
#include "ftl/ftl.h"

namespace ssdlab::ftl {

// The block-mapped and hybrid FTLs' own keys (FtlConfig::keys.get<BlockKeys>()).
struct BlockKeys {
  // Bytes of one virtual block, the unit they map and erase: a whole number
  // of flash blocks, one per plane of a plane group, striped page by page
  // (Desnoyers §3, §4: the effective erase block). 0 means one flash block
  // (the read hook and BlockStore resolve it).
  std::uint32_t virtual_block_size = 0;
  // BAST: most log blocks at once (one per logical block). FAST: random-write
  // log blocks shared by all logical blocks (plus one sequential log block).
  std::uint32_t log_blocks = 8;
};

extern const FtlKeyHooks block_mapped_ftl_keys;
extern const FtlKeyHooks bast_ftl_keys;
extern const FtlKeyHooks fast_ftl_keys;

// ftl.virtual_block_size (0: one flash block, as returned) and
// ftl.log_blocks, with the checks of their form (a whole number of flash
// blocks dividing the planes). The page-level FTLs take them too, unused:
// config echoes written before each FTL read its own keys carry them
// (checkpoints, summary.json), for whatever FTL.
BlockKeys read_virtual_blocks(KeyReader& r, const flash::Geometry& g);

}  // namespace ssdlab::ftl
