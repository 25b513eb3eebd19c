// A teaching FTL (ftl.type = "example"): the simplest page-mapped FTL that
// works. Start here for the assignment in docs/assignment.md.
//
// What it does:
//  - keeps a map from each logical page to the physical page holding it;
//  - writes every new version of a logical page to the next free page of an
//    "active" block, one active block per plane, planes taken in turn so that
//    consecutive writes spread over channels, dies and planes;
//  - marks the page that held the old version invalid.
// What it does not do: cleaning. Invalid pages are never reclaimed, so once
// every block has been written, the next write fails with a clear error.
// Your task is to add greedy cleaning (docs/assignment.md).
//
// It maps whole flash pages only (logical_page_size = the flash page size);
// a write of part of a page reads the old page first (read-modify-write).
//
// Its own config keys, in [ftl] (docs/reference/config.md):
//  - reserved_blocks (0): blocks of each plane it never writes: room for the
//    cleaning you add, which needs a free block to move a victim's pages to;
//  - check_every_write (false): check_invariants() after every write, to
//    catch a bug at the write that makes it.
// An FTL declares its keys next to its code, as here: a struct of them, and
// three hooks (ftl/ftl_keys.h) that read and check them, echo them into the
// config echo (summary.json, checkpoints), and print them for `ssdlab
// config`; the factory gets the struct back from the config.
//
// REQUIRED and OPTIONAL parts. Every FTL needs what is marked "required"
// below: the constructor, name/logical_pages, write/read/trim, is_mapped,
// check_invariants, stats/config/nand, and a factory registered by name
// (one line in ftl/registry.cpp, naming the factory and the key hooks). The parts marked "OPTIONAL" are plumbing
// for two simulator features and can be left out of a new FTL (delete the
// declarations and the functions): without them --power-cut-at and
// --save-state/--load-state refuse this FTL with a clear error, and
// everything else works.
//  - OPTIONAL power cuts: flash_for_power_cut, locate, recover.
//  - OPTIONAL checkpoints: save_state, load_state.
#include <fmt/format.h>

#include <iterator>
#include <stdexcept>
#include <vector>

#include "common/error.h"
#include "common/toml_keys.h"
#include "ftl/ftl.h"
#include "ftl/oob_scan.h"

namespace ssdlab::ftl {
namespace {

using flash::BlockId;
using flash::kNoPage;
using flash::Op;
using flash::Ppn;

constexpr BlockId kNoBlock = ~BlockId{0};

// Keys: the example FTL's own [ftl] keys, as read (defaults as documented).
struct ExampleKeys {
  std::uint32_t reserved_blocks = 0;
  bool check_every_write = false;
};

// Keys: what the reference says of them (docs/reference/config.md, under
// [ftl]; KeyDoc, common/toml_keys.h), passed in its hooks below.
constexpr KeyDoc kExampleKeys[] = {
    {"reserved_blocks",
     "blocks of each plane it never writes: room for the cleaning the assignment adds; 0 to "
     "`blocks_per_plane` - 1, default 0"},
    {"check_every_write",
     "true: `check_invariants()` after every write, to catch a bug at the write that makes "
     "it; default false"},
};

// Keys: reads and checks them (KeyReader, common/toml_keys.h: each call
// takes one key, checks its range, and reports "file:line: ftl.key: what").
void read_example_keys(KeyReader& r, const flash::Geometry& g, FtlConfig& config) {
  ExampleKeys& keys = config.keys.emplace<ExampleKeys>();
  r.integer("ftl", "reserved_blocks", keys.reserved_blocks, 0, g.blocks_per_plane - 1);
  r.boolean("ftl", "check_every_write", keys.check_every_write);
}

// Keys: into the config echo; read_example_keys() must take it back.
void echo_example_keys(const FtlConfig& config, nlohmann::json& ftl_table) {
  const ExampleKeys& keys = config.keys.get<ExampleKeys>();
  ftl_table["reserved_blocks"] = keys.reserved_blocks;
  ftl_table["check_every_write"] = keys.check_every_write;
}

// Keys: its lines of `ssdlab config` (describe_pools: the generic ones).
void describe_example(const FtlDescription& device, std::string& out) {
  describe_pools(device, out);
  const ExampleKeys& keys = device.config.keys.get<ExampleKeys>();
  fmt::format_to(std::back_inserter(out),
                 "  example     {} reserved block{} per plane; invariants checked {}\n",
                 keys.reserved_blocks, keys.reserved_blocks == 1 ? "" : "s",
                 keys.check_every_write ? "after every write" : "by the tests");
}

class ExampleFtl final : public Ftl {
 public:
  // --- Required ---
  explicit ExampleFtl(const FtlContext& context);

  std::string_view name() const override { return "example"; }
  std::uint64_t logical_pages() const override { return logical_pages_; }
  void write(const PageRange& range, CommandList& out) override;
  void read(const PageRange& range, CommandList& out) override;
  void trim(const PageRange& range, CommandList& out) override;
  bool is_mapped(Lpn lpn) const override { return map_[lpn] != kNoPage; }
  void check_invariants() const override;
  const FtlStats& stats() const override { return stats_; }
  const FtlConfig& config() const override { return config_; }
  const flash::NandArray& nand() const override { return nand_; }
  // --- OPTIONAL: power cuts (--power-cut-at); leave out if not needed ---
  flash::NandArray* flash_for_power_cut() override { return &nand_; }
  Ppn locate(Lpn lpn) const override { return map_[lpn]; }
  void recover(RecoveryPolicy policy, CommandList& out, RecoveryReport& report) override;
  // --- OPTIONAL: checkpoints (--save-state/--load-state); leave out if not
  // needed. They save everything below that changes as the FTL runs.
  void save_state(StateWriter& out) const override;
  void load_state(StateReader& in) override;

 private:
  // The next free physical page, taking a fresh block when the plane's
  // active block is full. Throws when no free page is left anywhere.
  Ppn allocate();
  // Pages still free: in the active blocks and in the never-used blocks
  // below the reserved ones.
  std::uint64_t free_pages() const;
  // One past the last block of `plane` it writes (the reserved ones follow).
  BlockId end_of_plane(std::uint32_t plane) const {
    return (plane + 1) * geometry_.blocks_per_plane - keys_.reserved_blocks;
  }

  flash::Geometry geometry_;
  FtlConfig config_;
  ExampleKeys keys_;
  flash::NandArray nand_;
  std::uint64_t logical_pages_;
  std::vector<Ppn> map_;              // logical page -> physical page, or kNoPage
  std::vector<BlockId> active_;       // per plane: the block being filled, or kNoBlock
  std::vector<BlockId> next_unused_;  // per plane: the next never-used block
  std::uint32_t next_plane_ = 0;      // round-robin over planes
  FtlStats stats_;
};

ExampleFtl::ExampleFtl(const FtlContext& context)
    : geometry_(context.geometry),
      config_(context.config),
      keys_(context.config.keys.get<ExampleKeys>()),
      nand_(context.geometry),
      active_(geometry_.planes(), kNoBlock),
      next_unused_(geometry_.planes(), 0) {
  if (config_.logical_page_size != geometry_.page_size)
    throw make_error("example FTL: logical_page_size must equal the flash page size ({} B)",
                     geometry_.page_size);
  logical_pages_ = static_cast<std::uint64_t>(static_cast<double>(geometry_.pages()) *
                                              (1.0 - config_.overprovisioning));
  if (logical_pages_ == 0) throw make_error("example FTL: the device has no logical pages");
  if (logical_pages_ >= flash::kNoLpn) throw make_error("the device has too many logical pages");
  map_.assign(logical_pages_, kNoPage);
  stats_.blocks_cleaned_per_pool.assign(1, 0);
  for (std::uint32_t plane = 0; plane < geometry_.planes(); ++plane)
    next_unused_[plane] = plane * geometry_.blocks_per_plane;
}

std::uint64_t ExampleFtl::free_pages() const {
  std::uint64_t pages = 0;
  for (std::uint32_t plane = 0; plane < geometry_.planes(); ++plane) {
    if (active_[plane] != kNoBlock)
      pages += geometry_.pages_per_block - nand_.write_pointer(active_[plane]);
    pages += std::uint64_t{end_of_plane(plane) - next_unused_[plane]} * geometry_.pages_per_block;
  }
  return pages;
}

Ppn ExampleFtl::allocate() {
  for (std::uint32_t tried = 0; tried < geometry_.planes(); ++tried) {
    const std::uint32_t plane = next_plane_;
    next_plane_ = (next_plane_ + 1) % geometry_.planes();
    BlockId& active = active_[plane];
    if (active == kNoBlock || nand_.is_full(active)) {
      if (next_unused_[plane] == end_of_plane(plane)) continue;
      active = next_unused_[plane]++;  // a fresh block of this plane
    }
    return geometry_.first_page(active) + nand_.write_pointer(active);
  }
  // write() checks first, so this is a bug, not a full device.
  throw std::logic_error("example FTL: allocate() found no free page");
}

void ExampleFtl::write(const PageRange& range, CommandList& out) {
  if (range.count == 0) return;
  // Without cleaning, a full device cannot take another write. Check before
  // changing anything, so that the failure leaves the FTL consistent.
  if (free_pages() < range.count)
    throw make_error(
        "example FTL: out of free pages — implement cleaning, see docs/assignment.md "
        "({} pages written, {} free, this write needs {})",
        stats_.flash_pages_written, free_pages(), range.count);
  // Read-modify-write: the old contents of partly written pages are read
  // first (stage 0); the programs wait for them (stage 1).
  std::uint8_t program_stage = 0;
  const Lpn last = range.first + range.count - 1;
  auto read_old = [&](Lpn lpn) {
    if (map_[lpn] == kNoPage) return;  // never written: nothing to keep
    out.push_back(flash::page_command(Op::kRead, map_[lpn], lpn, 0));
    ++stats_.flash_pages_read;
    ++stats_.rmw_pages_read;
    program_stage = 1;
  };
  if (range.partial_first) read_old(range.first);
  if (range.partial_last && (last != range.first || !range.partial_first)) read_old(last);
  for (Lpn lpn = range.first; lpn <= last; ++lpn) {
    const Ppn ppn = allocate();
    if (map_[lpn] != kNoPage) nand_.invalidate(map_[lpn]);  // the old version
    nand_.program(ppn, lpn);
    map_[lpn] = ppn;
    out.push_back(flash::page_command(Op::kProgram, ppn, lpn, program_stage));
  }
  stats_.host_pages_written += range.count;
  stats_.flash_pages_written += range.count;
  if (keys_.check_every_write) check_invariants();
}

void ExampleFtl::read(const PageRange& range, CommandList& out) {
  for (Lpn lpn = range.first; lpn < range.first + range.count; ++lpn) {
    if (map_[lpn] == kNoPage) {
      ++stats_.unmapped_pages_read;  // never written: nothing to read
      continue;
    }
    out.push_back(flash::page_command(Op::kRead, map_[lpn], lpn, 0));
    ++stats_.flash_pages_read;
  }
  stats_.host_pages_read += range.count;
}

void ExampleFtl::trim(const PageRange& range, CommandList& /*out*/) {
  // Only whole pages can be forgotten.
  const Lpn first = range.first + (range.partial_first ? 1 : 0);
  const Lpn end = range.first + range.count - (range.partial_last ? 1 : 0);
  nand_.record_trim(first, end);
  for (Lpn lpn = first; lpn < end; ++lpn) {
    if (map_[lpn] == kNoPage) continue;
    nand_.invalidate(map_[lpn]);
    map_[lpn] = kNoPage;
    ++stats_.trimmed_pages;
  }
}

// ---- OPTIONAL: power cuts. Not needed for the assignment. ----
// After a power cut (oob_scan.h): the latest instance of every page by its
// OOB sequence number; blocks of a plane were taken in order, so the last
// written one is the active block and the next one the first never used.
void ExampleFtl::recover(RecoveryPolicy policy, CommandList& /*out*/, RecoveryReport& report) {
  const OobScan scan = scan_oob(nand_, logical_pages_, 1, policy);
  report.pages_read = scan.pages_read;
  nand_.forget_valid_pages();
  map_.assign(scan.latest.begin(), scan.latest.end());
  for (const Ppn ppn : map_)
    if (ppn != kNoPage) nand_.revalidate(ppn);
  for (std::uint32_t plane = 0; plane < geometry_.planes(); ++plane) {
    const BlockId first = plane * geometry_.blocks_per_plane;
    BlockId next = first;
    for (BlockId block = first; block < first + geometry_.blocks_per_plane; ++block)
      if (!nand_.is_erased(block)) next = block + 1;
    next_unused_[plane] = next;
    active_[plane] = next > first && !nand_.is_full(next - 1) ? next - 1 : kNoBlock;
  }
  next_plane_ = 0;
}

// ---- OPTIONAL: checkpoints. Not needed for the assignment. ----
void ExampleFtl::save_state(StateWriter& out) const {
  out.section("EXFT", 1);
  out.vector(map_);
  out.vector(active_);
  out.vector(next_unused_);
  out.u32(next_plane_);
  nand_.save_state(out);
  save_stats(out, stats_);
}

void ExampleFtl::load_state(StateReader& in) {
  in.section("EXFT", 1);
  in.vector(map_, logical_pages_, "the page map");
  in.vector(active_, geometry_.planes(), "the active blocks");
  in.vector(next_unused_, geometry_.planes(), "the next unused blocks");
  next_plane_ = in.u32();
  for (std::uint32_t plane = 0; plane < geometry_.planes(); ++plane) {
    const BlockId first = plane * geometry_.blocks_per_plane;
    const BlockId end = first + geometry_.blocks_per_plane;
    if ((active_[plane] != kNoBlock && (active_[plane] < first || active_[plane] >= end)) ||
        next_unused_[plane] < first || next_unused_[plane] > end)
      throw make_error("corrupt: the example FTL's blocks of plane {} are outside it", plane);
  }
  for (const Ppn ppn : map_)
    if (ppn != kNoPage && ppn >= geometry_.pages())
      throw make_error("corrupt: the page map points at page {}", ppn);
  if (next_plane_ >= geometry_.planes())
    throw make_error("corrupt: the example FTL's next plane is {}", next_plane_);
  nand_.load_state(in);
  load_stats(in, stats_);
}

// ---- Required again from here on. ----
void ExampleFtl::check_invariants() const {
  nand_.check_invariants();
  std::uint64_t mapped = 0;
  for (Lpn lpn = 0; lpn < logical_pages_; ++lpn) {
    const Ppn ppn = map_[lpn];
    if (ppn == kNoPage) continue;
    if (!nand_.is_valid(ppn) || nand_.lpn_at(ppn) != lpn)
      throw std::logic_error(fmt::format(
          "example FTL: logical page {} maps to page {}, which does not hold it", lpn, ppn));
    ++mapped;
  }
  // Blocks are taken in order per plane: the never-used ones are erased.
  for (std::uint32_t plane = 0; plane < geometry_.planes(); ++plane) {
    for (BlockId block = next_unused_[plane]; block < (plane + 1) * geometry_.blocks_per_plane;
         ++block)
      if (!nand_.is_erased(block))
        throw std::logic_error(
            fmt::format("example FTL: block {} is not erased but was never handed out", block));
    if (active_[plane] != kNoBlock && active_[plane] >= next_unused_[plane])
      throw std::logic_error(
          fmt::format("example FTL: active block {} of plane {} is unused", active_[plane], plane));
  }
  std::uint64_t valid = 0;
  for (BlockId block = 0; block < geometry_.blocks(); ++block) valid += nand_.valid_pages(block);
  if (valid != mapped)
    throw std::logic_error(
        fmt::format("example FTL: {} valid pages but {} mapped logical pages", valid, mapped));
}

}  // namespace

// Required: the factory that ftl/registry.cpp lists by name ("example").
std::unique_ptr<Ftl> make_example_ftl(const FtlContext& context) {
  return std::make_unique<ExampleFtl>(context);
}

// Keys: the hooks that ftl/registry.cpp lists beside the factory (an FTL
// with no keys of its own lists `no_ftl_keys`).
extern const FtlKeyHooks example_ftl_keys{&read_example_keys, &echo_example_keys, &describe_example,
                                          /*parts=*/{}, kExampleKeys};

}  // namespace ssdlab::ftl
