// The [ftl] keys of the block-mapped and hybrid FTLs, read, checked, echoed
// and described here, beside the code they share (block_store.h).
#include "ftl/block_keys.h"

#include <fmt/format.h>

#include <iterator>

#include "common/toml_keys.h"
#include "common/units.h"
#include "ftl/page_mapped/page_mapped_keys.h"

namespace ssdlab::ftl {
namespace {

enum class BlockFtl { kBlockMapped, kBast, kFast };

// The reference's rows (ftl_keys.h) of the keys read_virtual_blocks takes,
// shared by block-mapped, bast and fast (and taken, unused, by page-mapped
// and dftl); their clean_granularity is page_mapped_keys.cpp's row.
constexpr KeyDoc kBlockKeys[] = {
    {"virtual_block_size",
     "block-based FTLs: the unit mapped and erased, whole flash blocks (one on each plane of "
     "a plane group) whose number divides the planes, 0 to 2^31 bytes; 0, the default: one "
     "flash block; block-mapped needs at least 3 virtual blocks. Page-mapped and dftl take "
     "it and `log_blocks` unused, and do not echo them: config echoes written before the FTLs "
     "read their own keys carry them"},
    {"log_blocks",
     "BAST: most log blocks at once; FAST: random-write log blocks (plus one sequential log "
     "block); 1–2^20; default 8; at most the virtual blocks less 3, leaving room for data"},
};

void read_block_keys(BlockFtl kind, KeyReader& r, const flash::Geometry& g, FtlConfig& f) {
  const BlockKeys& keys = f.keys.emplace(read_virtual_blocks(r, g));
  // They merge one logical block (or reclaim one log block) per write that
  // needs a block: one victim per trigger, their only mode.
  CleanGranularity parsed = CleanGranularity::kOneVictim;
  std::string granularity = clean_granularity_name(parsed);
  r.string("ftl", "clean_granularity", granularity);
  if (const auto [node, dotted] = r.find("ftl", "clean_granularity"); node) {
    if (!parse_clean_granularity(granularity, parsed))
      r.fail(dotted, node,
             fmt::format("'{}' is not a cleaning granularity (allowed: until-mark, one-victim, "
                         "incremental)",
                         granularity));
    if (parsed != CleanGranularity::kOneVictim)
      r.fail(dotted, node,
             fmt::format("'{}' merges one logical block per write that needs a block: it takes "
                         "only \"one-victim\"",
                         f.type));
  }
  r.why_not("ftl", "clean_scope", "merges one logical block at a time and has no per-plane "
                                  "cleaning");
  r.why_not("ftl", "summary_page",
            "maps whole blocks and has no summary page; its mount scans every page's OOB");
  if (f.logical_page_size != g.page_size) {
    const auto [node, dotted] = r.find("ftl", "logical_page_size");
    r.fail(dotted, node,
           fmt::format("{} FTL maps whole flash pages: logical_page_size must be {} (got {})",
                       f.type, g.page_size, f.logical_page_size));
  }
  // They pick no cleaning victims: there is no worn victim to refill with
  // cold data (Agrawal §5's migration), only the free list's order, which
  // rate-limiting covers. Refused, rather than run as rate-limit under the
  // name "migration".
  if (f.wear.migration()) {
    const auto [node, dotted] = r.find("ftl", "wear_leveling");
    r.fail(dotted, node,
           fmt::format("'migration' is not supported by the {} FTL (only page-mapped and dftl "
                       "migrate cold data); use 'rate-limit' or 'none'",
                       f.type));
  }
  // Log blocks and the blocks merges need must leave room for data.
  // (The same reserves as the FTLs hold back: block-mapped 2, BAST the logs
  // plus 1, FAST the logs plus 2.)
  const std::uint32_t width = keys.virtual_block_size / (g.pages_per_block * g.page_size);
  const std::uint64_t virtual_blocks = std::uint64_t{g.planes() / width} * g.blocks_per_plane;
  if (kind == BlockFtl::kBlockMapped && virtual_blocks <= 2) {
    const auto [node, dotted] = r.find("ftl", "virtual_block_size");
    r.fail(dotted, node,
           fmt::format("{} bytes leaves {} virtual blocks: block-mapped needs at least 3 (one "
                       "for data, one open, one spare)",
                       keys.virtual_block_size, virtual_blocks));
  }
  if (kind != BlockFtl::kBlockMapped && keys.log_blocks + 2 >= virtual_blocks) {
    const auto [node, dotted] = r.find("ftl", "log_blocks");
    r.fail(dotted, node,
           fmt::format("{} log blocks leave no room for data: the device has {} virtual blocks "
                       "of {} bytes",
                       keys.log_blocks, virtual_blocks, keys.virtual_block_size));
  }
}

void echo_block_keys(const FtlConfig& f, nlohmann::json& ftl_table) {
  const BlockKeys& keys = f.keys.get<BlockKeys>();
  ftl_table["virtual_block_size"] = keys.virtual_block_size;
  ftl_table["log_blocks"] = keys.log_blocks;
  ftl_table["clean_granularity"] = clean_granularity_name(CleanGranularity::kOneVictim);
}

void describe_block_ftl(BlockFtl kind, const FtlDescription& d, std::string& out) {
  const auto& g = d.geometry;
  const FtlConfig& f = d.config;
  const BlockKeys& keys = f.keys.get<BlockKeys>();
  auto it = std::back_inserter(out);
  const std::uint32_t width = keys.virtual_block_size / (g.pages_per_block * g.page_size);
  fmt::format_to(it,
                 "  ftl         {}, virtual block {} ({} flash block{} striped over {} plane{}, "
                 "{} plane group{})\n",
                 f.type, format_size(keys.virtual_block_size), width, width > 1 ? "s" : "", width,
                 width > 1 ? "s" : "", g.planes() / width, g.planes() / width > 1 ? "s" : "");
  if (kind == BlockFtl::kBlockMapped)
    fmt::format_to(it,
                   "  merges      one open block (read-modify-write of a whole virtual block)\n");
  else
    fmt::format_to(it, "  merges      {} {}log blocks{}; switch, partial and full merges\n",
                   keys.log_blocks, kind == BlockFtl::kFast ? "random-write " : "",
                   kind == BlockFtl::kFast ? " plus one sequential log block" : "");
  describe_two_plane(d, out);
}

template <BlockFtl kKind>
constexpr FtlKeyHooks block_hooks() {
  return {
      [](KeyReader& r, const flash::Geometry& g, FtlConfig& f) { read_block_keys(kKind, r, g, f); },
      &echo_block_keys,
      [](const FtlDescription& d, std::string& out) { describe_block_ftl(kKind, d, out); },
      /*parts=*/{}, kBlockKeys};
}

}  // namespace

BlockKeys read_virtual_blocks(KeyReader& r, const flash::Geometry& g) {
  BlockKeys keys;
  const std::uint32_t flash_block = g.pages_per_block * g.page_size;
  r.size("ftl", "virtual_block_size", keys.virtual_block_size, 0, 1u << 31);
  if (keys.virtual_block_size == 0) keys.virtual_block_size = flash_block;
  const std::uint32_t width = keys.virtual_block_size / flash_block;
  if (keys.virtual_block_size % flash_block != 0 || width == 0 || g.planes() % width != 0) {
    const auto [node, dotted] = r.find("ftl", "virtual_block_size");
    r.fail(dotted, node,
           fmt::format("{} must be a whole number of {}-byte flash blocks, and that number must "
                       "divide the {} planes",
                       keys.virtual_block_size, flash_block, g.planes()));
  }
  r.integer("ftl", "log_blocks", keys.log_blocks, 1, 1 << 20);
  return keys;
}

const FtlKeyHooks block_mapped_ftl_keys = block_hooks<BlockFtl::kBlockMapped>();
const FtlKeyHooks bast_ftl_keys = block_hooks<BlockFtl::kBast>();
const FtlKeyHooks fast_ftl_keys = block_hooks<BlockFtl::kFast>();

}  // namespace ssdlab::ftl
