// The [ftl] keys of the block-mapped and hybrid FTLs (block-mapped, bast,
// fast; block_keys.cpp): the virtual block they map and erase, and their log
// blocks. Their registry lines list the hooks below (ftl/ftl_keys.h).
#pragma once

#include <nlohmann/json.hpp>

#include "common/toml_keys.h"
#include "flash/geometry.h"
#include "ftl/ftl.h"

namespace ssdlab::ftl {

extern const FtlKeyHooks block_mapped_ftl_keys;
extern const FtlKeyHooks bast_ftl_keys;
extern const FtlKeyHooks fast_ftl_keys;

// ftl.virtual_block_size (0: one flash block) and ftl.log_blocks, with the
// checks of their form (a whole number of flash blocks dividing the
// planes). The page-level FTLs take and echo them too: every config echo
// written before the FTLs read their own keys carries them (checkpoints,
// summary.json), for whatever FTL.
void read_virtual_blocks(KeyReader& r, const flash::Geometry& g, FtlConfig& f);
void echo_virtual_blocks(const FtlConfig& f, nlohmann::json& ftl_table);

}  // namespace ssdlab::ftl
