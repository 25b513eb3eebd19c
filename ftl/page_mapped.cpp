// Page-mapped FTL (Agrawal et al. §3.1): a full map from logical page to
// physical location, static striping of logical pages over allocation pools,
// and inside each pool an active block per plane, with planes handed out in
// round-robin order so that consecutive writes interleave over dies and planes.
//
// A logical page may span several physical pages (logical_page_size a multiple
// of the page size); they are then consecutive pages of one block. Writing part
// of a logical page is a read-modify-write.
//
// Memory: one 4-byte map entry per logical page, on top of the NAND array's
// ~4.3 bytes per physical page.
#include <fmt/format.h>

#include <stdexcept>

#include "common/error.h"
#include "ftl/ftl.h"
#include "ftl/pools.h"

namespace ssdlab::ftl {
namespace {

using flash::BlockId;
using flash::Command;
using flash::kNoPage;
using flash::Op;
using flash::Ppn;

constexpr BlockId kNoBlock = ~BlockId{0};

class PageMappedFtl final : public Ftl {
 public:
  explicit PageMappedFtl(const FtlContext& context);

  std::string_view name() const override { return "page-mapped"; }
  std::uint64_t logical_pages() const override { return logical_pages_; }
  void write(const PageRange& range, CommandList& out) override;
  void read(const PageRange& range, CommandList& out) override;
  void trim(const PageRange& range, CommandList& out) override;
  bool is_mapped(Lpn lpn) const override { return map_[lpn] != kNoPage; }
  void check_invariants() const override;
  const FtlStats& stats() const override { return stats_; }
  const FtlConfig& config() const override { return config_; }
  const flash::NandArray& nand() const override { return nand_; }

 private:
  struct PlaneState {
    BlockId active = kNoBlock;
    std::vector<BlockId> free_blocks;  // erased blocks of this plane
  };

  std::uint32_t pool_of(Lpn lpn) const { return (lpn / stripe_lpns_) % layout_.pools(); }
  // First of pages_per_lpn_ free consecutive pages in one block of `pool`.
  Ppn allocate(std::uint32_t pool);
  bool has_room(std::uint32_t plane) const;
  void append_reads(Lpn lpn, std::uint8_t stage, CommandList& out);
  void unmap(Lpn lpn);

  flash::Geometry geometry_;
  FtlConfig config_;
  flash::NandArray nand_;
  PoolLayout layout_;
  std::uint32_t pages_per_lpn_;
  std::uint32_t stripe_lpns_;
  std::uint64_t logical_pages_;
  std::vector<Ppn> map_;  // lpn -> first physical page, or kNoPage
  std::vector<PlaneState> planes_;
  std::vector<std::uint32_t> cursors_;  // per pool: next position in its plane order
  FtlStats stats_;
};

PageMappedFtl::PageMappedFtl(const FtlContext& context)
    : geometry_(context.geometry),
      config_(context.config),
      nand_(context.geometry),
      layout_(context.geometry, context.config.pool),
      pages_per_lpn_(config_.logical_page_size / geometry_.page_size),
      stripe_lpns_(config_.stripe_size / config_.logical_page_size),
      planes_(geometry_.planes()),
      cursors_(layout_.pools(), 0) {
  // Exported capacity: the physical pages less over-provisioning, in whole
  // stripes across all pools so that every pool gets the same share.
  const std::uint64_t stripe_round = std::uint64_t{stripe_lpns_} * layout_.pools();
  const auto usable = static_cast<std::uint64_t>(
      static_cast<double>(geometry_.pages()) * (1.0 - config_.overprovisioning));
  logical_pages_ = usable / pages_per_lpn_ / stripe_round * stripe_round;
  if (logical_pages_ == 0) throw make_error("the device is too small for one stripe over all pools");
  if (logical_pages_ >= flash::kNoLpn) throw make_error("the device has too many logical pages");
  map_.assign(logical_pages_, kNoPage);

  for (std::uint32_t plane = 0; plane < geometry_.planes(); ++plane) {
    auto& free_blocks = planes_[plane].free_blocks;
    free_blocks.reserve(geometry_.blocks_per_plane);
    // Stored so that back() is the plane's lowest block: blocks fill in order.
    for (std::uint32_t i = geometry_.blocks_per_plane; i-- > 0;)
      free_blocks.push_back(plane * geometry_.blocks_per_plane + i);
  }
}

bool PageMappedFtl::has_room(std::uint32_t plane) const {
  const PlaneState& state = planes_[plane];
  return (state.active != kNoBlock && !nand_.is_full(state.active)) || !state.free_blocks.empty();
}

Ppn PageMappedFtl::allocate(std::uint32_t pool) {
  const auto& order = layout_.planes(pool);
  std::uint32_t& cursor = cursors_[pool];
  // Round-robin over the pool's planes, skipping planes that are full.
  for (std::size_t tried = 0; tried < order.size(); ++tried) {
    const std::uint32_t plane = order[cursor];
    cursor = (cursor + 1) % order.size();
    if (!has_room(plane)) continue;
    PlaneState& state = planes_[plane];
    if (state.active == kNoBlock || nand_.is_full(state.active)) {
      state.active = state.free_blocks.back();
      state.free_blocks.pop_back();
    }
    return geometry_.first_page(state.active) + nand_.write_pointer(state.active);
  }
  throw make_error(
      "allocation pool {} has no free page left: the host wrote more than the device holds "
      "without cleaning, which this page-mapped FTL does not do yet",
      pool);
}

void PageMappedFtl::append_reads(Lpn lpn, std::uint8_t stage, CommandList& out) {
  const Ppn first = map_[lpn];
  for (std::uint32_t i = 0; i < pages_per_lpn_; ++i) {
    Command command;
    command.op = Op::kRead;
    command.stage = stage;
    command.ppn = first + i;
    command.lpn = lpn;
    out.push_back(command);
  }
  stats_.flash_pages_read += pages_per_lpn_;
}

void PageMappedFtl::unmap(Lpn lpn) {
  const Ppn old = map_[lpn];
  if (old == kNoPage) return;
  for (std::uint32_t i = 0; i < pages_per_lpn_; ++i) nand_.invalidate(old + i);
  map_[lpn] = kNoPage;
}

void PageMappedFtl::write(const PageRange& range, CommandList& out) {
  if (range.count == 0) return;
  const std::size_t start = out.size();
  // Read-modify-write: the old contents of partly written logical pages are
  // read first (stage 0); every program waits for them (stage 1).
  std::uint8_t program_stage = 0;
  const Lpn last = range.first + range.count - 1;
  for (const Lpn lpn : {range.first, last}) {
    const bool partial = (lpn == range.first && range.partial_first) ||
                         (lpn == last && range.partial_last);
    if (!partial || map_[lpn] == kNoPage) continue;
    if (lpn == last && last == range.first && program_stage == 1) break;  // one page, read once
    append_reads(lpn, 0, out);
    stats_.rmw_pages_read += pages_per_lpn_;
    program_stage = 1;
  }
  for (Lpn lpn = range.first; lpn <= last; ++lpn) {
    const Ppn first = allocate(pool_of(lpn));
    unmap(lpn);
    for (std::uint32_t i = 0; i < pages_per_lpn_; ++i) {
      nand_.program(first + i, lpn);
      Command command;
      command.op = Op::kProgram;
      command.stage = program_stage;
      command.ppn = first + i;
      command.lpn = lpn;
      out.push_back(command);
    }
    map_[lpn] = first;
  }
  const std::uint64_t pages = std::uint64_t{range.count} * pages_per_lpn_;
  stats_.host_pages_written += pages;
  stats_.flash_pages_written += pages;
  if (config_.two_plane) merge_two_plane(geometry_, out, start);
}

void PageMappedFtl::read(const PageRange& range, CommandList& out) {
  const std::size_t start = out.size();
  for (Lpn lpn = range.first; lpn < range.first + range.count; ++lpn) {
    if (map_[lpn] == kNoPage) {
      stats_.unmapped_pages_read += pages_per_lpn_;
      continue;
    }
    append_reads(lpn, 0, out);
  }
  stats_.host_pages_read += std::uint64_t{range.count} * pages_per_lpn_;
  if (config_.two_plane) merge_two_plane(geometry_, out, start);
}

void PageMappedFtl::trim(const PageRange& range, CommandList& /*out*/) {
  // Only whole logical pages can be forgotten; a partly trimmed one keeps data.
  const Lpn first = range.first + (range.partial_first ? 1 : 0);
  const Lpn end = range.first + range.count - (range.partial_last && range.count > 0 ? 1 : 0);
  for (Lpn lpn = first; lpn < end; ++lpn) {
    if (map_[lpn] == kNoPage) continue;
    unmap(lpn);
    stats_.trimmed_pages += pages_per_lpn_;
  }
}

void PageMappedFtl::check_invariants() const {
  nand_.check_invariants();
  std::uint64_t mapped_pages = 0;
  for (Lpn lpn = 0; lpn < logical_pages_; ++lpn) {
    const Ppn first = map_[lpn];
    if (first == kNoPage) continue;
    for (std::uint32_t i = 0; i < pages_per_lpn_; ++i) {
      if (!nand_.is_valid(first + i) || nand_.lpn_at(first + i) != lpn)
        throw std::logic_error(fmt::format("map: logical page {} -> page {} which holds {} ({})",
                                           lpn, first + i, nand_.lpn_at(first + i),
                                           nand_.is_valid(first + i) ? "valid" : "not valid"));
    }
    mapped_pages += pages_per_lpn_;
  }
  std::uint64_t valid_pages = 0;
  for (BlockId block = 0; block < geometry_.blocks(); ++block) valid_pages += nand_.valid_pages(block);
  if (valid_pages != mapped_pages)
    throw std::logic_error(fmt::format("{} valid pages but {} mapped", valid_pages, mapped_pages));
  for (std::uint32_t plane = 0; plane < planes_.size(); ++plane) {
    for (const BlockId block : planes_[plane].free_blocks) {
      if (!nand_.is_erased(block) || geometry_.plane_of_block(block) != plane)
        throw std::logic_error(fmt::format("free list of plane {}: block {} is not an erased "
                                           "block of that plane", plane, block));
    }
  }
}

}  // namespace

std::unique_ptr<Ftl> make_page_mapped_ftl(const FtlContext& context) {
  return std::make_unique<PageMappedFtl>(context);
}

}  // namespace ssdlab::ftl
