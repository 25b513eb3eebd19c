#include "ftl/block_store.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "common/error.h"
#include "ftl/pools.h"

namespace ssdlab::ftl {

using flash::Command;
using flash::kNoPage;
using flash::Op;
using flash::Ppn;

BlockStore::BlockStore(const FtlContext& context, std::uint32_t reserve, std::string_view ftl_name)
    : geometry_(context.geometry),
      config_(context.config),
      nand_(context.geometry),
      name_(ftl_name),
      reserve_(reserve),
      wear_(context.config.wear, context.geometry.pe_cycles, WearBlocks{&nand_, 1, {}, {}, 1},
            context.seed) {
  const std::uint32_t flash_block_bytes = geometry_.pages_per_block * geometry_.page_size;
  BlockKeys keys = config_.keys.get<BlockKeys>();
  if (keys.virtual_block_size == 0) keys.virtual_block_size = flash_block_bytes;
  config_.keys.emplace(keys);  // (the value that runs: config()'s echo)
  width_ = keys.virtual_block_size / flash_block_bytes;
  if (width_ == 0 || keys.virtual_block_size % flash_block_bytes != 0 ||
      geometry_.planes() % width_ != 0)
    throw make_error(
        "{}: virtual_block_size {} must be a whole number of {}-byte flash blocks dividing the {} "
        "planes",
        ftl_name, keys.virtual_block_size, flash_block_bytes, geometry_.planes());
  if (config_.logical_page_size != geometry_.page_size)
    throw make_error("{}: logical_page_size must be the flash page size {} (got {})", ftl_name,
                     geometry_.page_size, config_.logical_page_size);
  groups_ = geometry_.planes() / width_;
  block_pages_ = width_ * geometry_.pages_per_block;

  // Plane groups take planes in allocation order (channel fastest), so the
  // pages of a virtual block stripe over channels first.
  group_planes_ = PoolLayout(geometry_, PoolScope::kSsd).planes(0);
  plane_slot_.assign(geometry_.planes(), 0);
  for (std::uint32_t slot = 0; slot < group_planes_.size(); ++slot)
    plane_slot_[group_planes_[slot]] = slot;

  const std::uint32_t total = virtual_blocks();
  const auto usable =
      static_cast<std::uint32_t>(std::floor(total * (1.0 - config_.overprovisioning)));
  logical_blocks_ = std::min(usable, total > reserve ? total - reserve : 0);
  if (logical_blocks_ == 0)
    throw make_error(
        "{}: the device is too small: {} virtual blocks, {} held back for log blocks and merges, "
        "none left for data",
        ftl_name, total, reserve);
  if (logical_pages() >= flash::kNoLpn)
    throw make_error("{}: the device has too many logical pages", ftl_name);

  copied_out_.assign(total, 0);
  free_.resize(groups_);
  for (std::uint32_t group = 0; group < groups_; ++group)
    for (std::uint32_t b = 0; b < geometry_.blocks_per_plane; ++b)
      free_[group].push_back(group * geometry_.blocks_per_plane + b);
  free_count_ = total;
  data_.assign(logical_blocks_, kNone);
  log_index_.reset(logical_pages());
  stats_.blocks_cleaned_per_pool.assign(groups_, 0);
  stats_.wear_migrations_per_pool.assign(groups_, 0);
  // The plane groups are known only now (the initializer built a placeholder):
  // virtual block b is block b % blocks_per_plane of its group's planes, its
  // domain the group. Migration is not modelled here (block_store.h): the
  // leveler keeps no migration state.
  WearConfig wear = config_.wear;
  if (wear.migration()) wear.mode = WearMode::kRateLimit;
  std::vector<std::uint32_t> domains(groups_);
  for (std::uint32_t group = 0; group < groups_; ++group) domains[group] = group;
  wear_ = WearLeveler(wear, geometry_.pe_cycles,
                      WearBlocks{&nand_, width_, group_planes_, std::move(domains), groups_},
                      context.seed);
}

Ppn BlockStore::ppn(VBlock block, std::uint32_t page) const {
  return geometry_.first_page(flash_block(block, page % width_)) + page / width_;
}

BlockStore::VBlock BlockStore::vblock_of(Ppn ppn) const {
  const flash::BlockId block = geometry_.block_of(ppn);
  const std::uint32_t group = plane_slot_[geometry_.plane_of_block(block)] / width_;
  return group * geometry_.blocks_per_plane + block % geometry_.blocks_per_plane;
}

Ppn BlockStore::location(Lpn lpn) const {
  if (const Ppn logged = log_index_.get(lpn); logged != kNoPage) return logged;
  const VBlock block = data_[lbn_of(lpn)];
  if (block == kNone) return kNoPage;
  // Virtual pages go in order, so page `offset` is written if its flash
  // block's write pointer is past it: one look, not the sum written().
  const std::uint32_t offset = offset_of(lpn);
  const flash::BlockId flash = flash_block(block, offset % width_);
  if (offset / width_ >= nand_.write_pointer(flash)) return kNoPage;
  const Ppn page = geometry_.first_page(flash) + offset / width_;
  return nand_.is_valid(page) ? page : kNoPage;
}

std::uint32_t BlockStore::valid_pages(std::uint32_t lbn) const {
  std::uint32_t valid = 0;
  for (std::uint32_t offset = 0; offset < block_pages_; ++offset)
    valid += location(lpn_of(lbn, offset)) != kNoPage;
  return valid;
}

BlockStore::VBlock BlockStore::allocate(std::uint32_t group) {
  if (group == kNone || free_[group].empty()) {
    if (free_count_ == 0)
      throw std::logic_error(fmt::format("{}: no free virtual block left", name_));
    group = 0;
    for (std::uint32_t g = 1; g < groups_; ++g)
      if (free_[g].size() > free_[group].size()) group = g;
  }
  auto& free = free_[group];
  if (wear_.config().rate_limit()) {
    // §5 rate-limiting: a worn block at the head waits at the back, at most
    // one pass over the list (then the head is taken after all).
    for (std::size_t tried = 1; tried < free.size() && !wear_.may_reuse(free.front()); ++tried) {
      free.push_back(free.front());
      free.pop_front();
      ++stats_.wear_deferrals;
    }
  }
  const VBlock block = free.front();
  free.pop_front();
  --free_count_;
  return block;
}

BlockStore::Work BlockStore::merge_work() {
  const Work work{next_merge_stage_, true};
  // Saturates: a request with over a hundred merges shares its last stages.
  if (next_merge_stage_ < 254) next_merge_stage_ += 2;
  return work;
}

Ppn BlockStore::program_page(VBlock block, Lpn lpn, bool log) {
  const std::uint32_t page = written(block);
  if (!log && page != offset_of(lpn))
    throw std::logic_error(
        fmt::format("{}: logical page {} programmed as data at page {}", name_, lpn, page));
  const Ppn target = ppn(block, page);
  nand_.program(target, lpn);
  if (log) log_index_.set(lpn, target);
  ++stats_.flash_pages_written;
  return target;
}

void BlockStore::program(VBlock block, Lpn lpn, bool log, Work work, CommandList& out) {
  supersede(lpn);
  Command command =
      flash::page_command(Op::kProgram, program_page(block, lpn, log), lpn, work.stage);
  command.cleaning = work.cleaning;
  out.push_back(command);
}

void BlockStore::copy(Lpn lpn, VBlock block, bool log, Work work, CommandList& out) {
  const Ppn source = location(lpn);
  if (source == kNoPage)
    throw std::logic_error(
        fmt::format("{}: copy of logical page {} which holds no data", name_, lpn));
  nand_.invalidate(source);
  log_index_.erase(lpn);
  ++copied_out_[vblock_of(source)];
  const Ppn target = program_page(block, lpn, log);
  const bool copy_back =
      config_.copy_back && geometry_.plane_of(source) == geometry_.plane_of(target);
  Command command =
      flash::page_command(copy_back ? Op::kCopyBack : Op::kMove, target, lpn, work.stage, source);
  command.cleaning = work.cleaning;
  out.push_back(command);
  ++(copy_back ? stats_.copy_backs : stats_.inter_plane_moves);
}

void BlockStore::pad(VBlock block, std::uint32_t end, Work work, CommandList& out) {
  for (std::uint32_t page = written(block); page < end; ++page) {
    const Ppn target = ppn(block, page);
    nand_.pad(target);
    Command command = flash::page_command(Op::kProgram, target, flash::kNoLpn, work.stage);
    command.cleaning = work.cleaning;
    out.push_back(command);
    ++stats_.flash_pages_written;
    ++stats_.padding_pages;
  }
}

std::uint32_t BlockStore::fill(VBlock block, std::uint32_t lbn, std::uint32_t end, bool log,
                               Work work, CommandList& out) {
  const std::uint32_t from = written(block);
  std::uint32_t last = end;  // the last offset below `end` with data, if any
  for (std::uint32_t offset = end; offset > from; --offset)
    if (location(lpn_of(lbn, offset - 1)) != kNoPage) {
      last = offset - 1;
      break;
    }
  if (last == end) return 0;
  std::uint32_t copied = 0;
  for (std::uint32_t offset = from; offset <= last; ++offset) {
    const Lpn lpn = lpn_of(lbn, offset);
    if (location(lpn) == kNoPage) {
      pad(block, offset + 1, work, out);
      continue;
    }
    copy(lpn, block, log, work, out);
    ++copied;
  }
  return copied;
}

void BlockStore::supersede(Lpn lpn) {
  const Ppn old = location(lpn);
  if (old == kNoPage) return;
  nand_.invalidate(old);
  log_index_.erase(lpn);
}

BlockStore::VBlock BlockStore::make_data(std::uint32_t lbn, VBlock block) {
  const std::uint32_t pages = block == kNone ? 0 : written(block);
  for (std::uint32_t offset = 0; offset < pages; ++offset) {
    const Ppn page = ppn(block, offset);
    if (!nand_.is_valid(page)) continue;
    const Lpn lpn = nand_.lpn_at(page);
    if (lpn != lpn_of(lbn, offset))
      throw std::logic_error(fmt::format(
          "{}: block {} cannot become the data block of logical block {}: page {} holds "
          "logical page {}",
          name_, block, lbn, offset, lpn));
    if (log_index_.get(lpn) == page) log_index_.erase(lpn);
  }
  const VBlock previous = data_[lbn];
  data_[lbn] = block;
  return previous;
}

void BlockStore::release(VBlock block, Work work, CommandList& out) {
  const std::uint32_t group = group_of(block);
  stats_.pages_reclaimed += written(block) - copied_out_[block];
  copied_out_[block] = 0;
  bool erased = false;
  for (std::uint32_t k = 0; k < width_; ++k) {
    const flash::BlockId id = flash_block(block, k);
    if (nand_.is_erased(id)) continue;
    nand_.erase(id);  // throws if a valid page is left: a merge forgot one
    Command erase = flash::page_command(Op::kErase, geometry_.first_page(id), flash::kNoLpn,
                                        static_cast<std::uint8_t>(work.stage + 1));
    erase.cleaning = true;
    out.push_back(erase);
    erased = true;
    ++stats_.erases;
    ++stats_.blocks_cleaned;
    ++stats_.blocks_cleaned_per_pool[group];
  }
  if (!erased || !wear_.erased(block)) {
    free_[group].push_back(block);
    ++free_count_;
    return;
  }
  ++retired_;
  stats_.blocks_retired += width_;  // flash blocks
  if (virtual_blocks() - retired_ < logical_blocks_ + reserve_)
    throw EndOfLife(fmt::format(
        "end of life: {} can no longer keep its logical capacity: {} of its {} virtual blocks are "
        "worn out (rated {} P/E cycles); it needs {} for data and {} for log blocks and merges",
        name_, retired_, virtual_blocks(), geometry_.pe_cycles, logical_blocks_, reserve_));
}

void BlockStore::read(const PageRange& range, CommandList& out) {
  const std::size_t start = out.size();
  for (Lpn lpn = range.first; lpn < range.first + range.count; ++lpn) {
    const Ppn page = location(lpn);
    if (page == kNoPage) {
      ++stats_.unmapped_pages_read;
      continue;
    }
    out.push_back(flash::page_command(Op::kRead, page, lpn, 0));
    ++stats_.flash_pages_read;
  }
  stats_.host_pages_read += range.count;
  finish(out, start);
}

std::uint8_t BlockStore::read_if_partial(const PageRange& range, Lpn lpn, CommandList& out) {
  const bool partial = (lpn == range.first && range.partial_first) ||
                       (lpn == range.first + range.count - 1 && range.partial_last);
  const Ppn page = partial ? location(lpn) : kNoPage;
  if (page == kNoPage) return 0;
  out.push_back(flash::page_command(Op::kRead, page, lpn, 0));
  ++stats_.flash_pages_read;
  ++stats_.rmw_pages_read;
  return 1;
}

std::vector<std::uint32_t> BlockStore::trim_pages(const PageRange& range) {
  std::vector<std::uint32_t> touched;
  if (range.count == 0) return touched;
  // Only whole pages can be forgotten; a partly trimmed one keeps its data.
  const Lpn first = range.first + (range.partial_first ? 1 : 0);
  const Lpn end = range.first + range.count - (range.partial_last ? 1 : 0);
  nand_.record_trim(first, end);
  for (Lpn lpn = first; lpn < end; ++lpn) {
    if (location(lpn) == kNoPage) continue;
    supersede(lpn);
    ++stats_.trimmed_pages;
    if (touched.empty() || touched.back() != lbn_of(lpn)) touched.push_back(lbn_of(lpn));
  }
  return touched;
}

void BlockStore::finish(CommandList& out, std::size_t start) const {
  if (config_.two_plane) merge_two_plane(geometry_, out, start);
}

void BlockStore::check_invariants(const std::vector<VBlock>& logs) const {
  auto fail = [this](const std::string& what) {
    throw std::logic_error(fmt::format("{}: {}", name_, what));
  };
  nand_.check_invariants();
  enum Role : std::uint8_t { kUnknown, kFree, kData, kLog };
  std::vector<std::uint8_t> role(virtual_blocks(), kUnknown);
  std::vector<std::uint32_t> owner(virtual_blocks(), 0);
  std::uint32_t free_seen = 0;
  for (std::uint32_t group = 0; group < groups_; ++group)
    for (const VBlock block : free_[group]) {
      if (group_of(block) != group || role[block] != kUnknown || written(block) != 0)
        fail(fmt::format("free block {} is in the wrong group, listed twice or written", block));
      for (std::uint32_t k = 0; k < width_; ++k)
        if (!nand_.is_erased(flash_block(block, k)))
          fail(fmt::format("free block {} is not erased", block));
      role[block] = kFree;
      ++free_seen;
    }
  if (free_seen != free_count_) fail("the free count disagrees with the free lists");
  for (std::uint32_t lbn = 0; lbn < logical_blocks_; ++lbn) {
    if (data_[lbn] == kNone) continue;
    if (role[data_[lbn]] != kUnknown)
      fail(fmt::format("data block {} of logical block {} is free or shared", data_[lbn], lbn));
    role[data_[lbn]] = kData;
    owner[data_[lbn]] = lbn;
  }
  for (const VBlock block : logs) {
    if (role[block] != kUnknown)
      fail(fmt::format("log block {} is free, data or listed twice", block));
    role[block] = kLog;
  }
  std::uint64_t valid = 0;
  for (VBlock block = 0; block < virtual_blocks(); ++block) {
    if (role[block] == kUnknown && wear_.is_retired(block) && written(block) == 0) continue;
    if (role[block] == kUnknown)
      fail(fmt::format("virtual block {} is neither free, data nor log (leaked)", block));
    for (std::uint32_t k = 0; k < width_; ++k)
      if (nand_.write_pointer(flash_block(block, k)) != (written(block) + width_ - 1 - k) / width_)
        fail(fmt::format("virtual block {}: flash block {} is not at its write pointer", block, k));
    for (std::uint32_t page = 0; page < written(block); ++page) {
      const Ppn p = ppn(block, page);
      if (!nand_.is_valid(p)) continue;
      ++valid;
      const Lpn lpn = nand_.lpn_at(p);
      if (lpn >= logical_pages() || location(lpn) != p)
        fail(fmt::format("page {} of block {} holds logical page {} but is not its latest version",
                         page, block, lpn));
      if (role[block] == kData && (lbn_of(lpn) != owner[block] || offset_of(lpn) != page))
        fail(fmt::format("data block {} of logical block {} holds logical page {} at page {}",
                         block, owner[block], lpn, page));
    }
  }
  std::uint64_t mapped = 0;
  for (Lpn lpn = 0; lpn < logical_pages(); ++lpn) {
    const Ppn p = location(lpn);
    if (p == kNoPage) continue;
    ++mapped;
    if (log_index_.contains(lpn) && role[vblock_of(p)] != kLog)
      fail(fmt::format("logical page {} is indexed as a log page outside the log blocks", lpn));
  }
  if (mapped != valid) fail(fmt::format("{} valid pages but {} mapped", valid, mapped));
}

void BlockStoreFtl::trim(const PageRange& range, CommandList& out) {
  store_.begin_request();
  for (const std::uint32_t lbn : store_.trim_pages(range)) {
    if (store_.valid_pages(lbn) != 0) continue;
    const BlockStore::Work work = store_.merge_work();
    release_logs(lbn, work, out);
    const VBlock data = store_.make_data(lbn, BlockStore::kNone);
    if (data != BlockStore::kNone) store_.release(data, work, out);
  }
}

}  // namespace ssdlab::ftl
