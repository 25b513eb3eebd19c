// BAST, block-associative sector translation (Kim et al. 2002; the "Hybrid
// Log Block" FTL of Desnoyers §4): block-mapped data blocks plus at most
// ftl.log_blocks log blocks, each belonging to one logical block.
//
// Every write goes to its logical block's log block, at the log's next page,
// whatever its offset; a page-level index of the few log blocks finds the
// latest version. A logical block without a log gets a fresh one; if all are
// in use, the least recently written log is merged first. A full log is
// merged before the next write to it. Merges (counted in FtlStats):
//  - switch: the log holds exactly pages 0..N-1 in order: it becomes the data
//    block, the old data block (now all stale) is erased. No copy.
//  - partial: the log holds a sequential prefix 0..k-1: pages k.. are copied
//    from the data block into it, then as above.
//  - full: anything else: the latest version of every page (log or data
//    block) is copied into a fresh block, which becomes the data block; the
//    log and the old data block are erased.
// Desnoyers §4 ("Random write speed"): if the written area fits in the log
// blocks, a random write costs about twice a sequential one, no worse; beyond
// that every write ends in a full merge.
#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <unordered_map>

#include "ftl/block_store.h"
#include "ftl/ftl.h"

namespace ssdlab::ftl {
namespace {

using VBlock = BlockStore::VBlock;
constexpr VBlock kNone = BlockStore::kNone;
constexpr std::uint32_t kNoLog = ~std::uint32_t{0};

class BastFtl final : public BlockStoreFtl {
 public:
  // Held back: the log blocks, and the fresh block of a full merge.
  explicit BastFtl(const FtlContext& context)
      : BlockStoreFtl(context, context.config.keys.get<BlockKeys>().log_blocks + 1, "bast") {}

  void write(const PageRange& range, CommandList& out) override;
  void check_invariants() const override;

 private:
  void release_logs(std::uint32_t lbn, const BlockStore::Work& work, CommandList& out) override;
  void forget_logs() override {
    logs_.clear();
    log_of_.clear();
  }
  void save_logs(StateWriter& out) const override;
  void load_logs(StateReader& in) override;
  struct Log {
    std::uint32_t lbn;
    VBlock block;
    bool sequential;          // page i of the log holds offset i, for every page so far
    std::uint64_t last_used;  // for least-recently-written eviction
  };

  // The log of `lbn`, opening one (after evicting another) if it has none;
  // `first_offset` is the offset about to be written.
  Log& log_for(std::uint32_t lbn, std::uint32_t first_offset, CommandList& out);
  // Merges logs_[index] into its logical block's data block and drops it.
  void merge(std::uint32_t index, CommandList& out);
  void drop(std::uint32_t index);
  // Index into logs_ of `lbn`'s log, or kNoLog.
  std::uint32_t log_of(std::uint32_t lbn) const {
    const auto it = log_of_.find(lbn);
    return it == log_of_.end() ? kNoLog : it->second;
  }

  std::vector<Log> logs_;
  // The logical blocks with a log: index into logs_ (bounded by the log
  // blocks, not a word per logical block).
  std::unordered_map<std::uint32_t, std::uint32_t> log_of_;
  std::uint64_t clock_ = 0;
};

void BastFtl::write(const PageRange& range, CommandList& out) {
  if (range.count == 0) return;
  store_.begin_request();
  const std::size_t start = out.size();
  for (Lpn lpn = range.first; lpn < range.first + range.count; ++lpn) {
    Log& log = log_for(store_.lbn_of(lpn), store_.offset_of(lpn), out);
    if (store_.offset_of(lpn) != store_.written(log.block)) log.sequential = false;
    log.last_used = ++clock_;
    const std::uint8_t stage = store_.read_if_partial(range, lpn, out);
    store_.program(log.block, lpn, true, {stage, false}, out);
  }
  store_.stats().host_pages_written += range.count;
  store_.finish(out, start);
}

BastFtl::Log& BastFtl::log_for(std::uint32_t lbn, std::uint32_t first_offset, CommandList& out) {
  if (const std::uint32_t index = log_of(lbn); index != kNoLog) {
    if (!store_.is_full(logs_[index].block)) return logs_[index];
    merge(index, out);
  }
  if (logs_.size() == store_.keys().log_blocks) {
    std::uint32_t victim = 0;
    for (std::uint32_t i = 1; i < logs_.size(); ++i)
      if (logs_[i].last_used < logs_[victim].last_used) victim = i;
    merge(victim, out);
  }
  // A log started at offset 0 is likely sequential and completed from the data
  // block (partial merge): its plane group keeps those copies copy-backs.
  // Others come from the group with the most free blocks, which keeps the
  // groups balanced for the full merges' fresh blocks.
  const VBlock data = store_.data(lbn);
  const bool likely_sequential = data != kNone && first_offset == 0;
  const VBlock block = store_.allocate(likely_sequential ? store_.group_of(data) : kNone);
  log_of_[lbn] = static_cast<std::uint32_t>(logs_.size());
  logs_.push_back({lbn, block, true, clock_});
  return logs_.back();
}

void BastFtl::merge(std::uint32_t index, CommandList& out) {
  const Log log = logs_[index];
  drop(index);
  const BlockStore::Work work = store_.merge_work();
  FtlStats& stats = store_.stats();
  if (log.sequential) {
    // The log is the logical block's first pages in order: complete it from
    // the data block (partial merge) unless it is whole (switch merge).
    const std::uint32_t copied =
        store_.fill(log.block, log.lbn, store_.block_pages(), false, work, out);
    ++(copied == 0 ? stats.switch_merges : stats.partial_merges);
    const VBlock old = store_.make_data(log.lbn, log.block);
    if (old != kNone) store_.release(old, work, out);
    return;
  }
  // Most copies come from the data block: its plane group keeps them copy-backs.
  const VBlock data = store_.data(log.lbn);
  const VBlock fresh = store_.allocate(store_.group_of(data == kNone ? log.block : data));
  store_.fill(fresh, log.lbn, store_.block_pages(), false, work, out);
  ++stats.full_merges;
  const VBlock old = store_.make_data(log.lbn, fresh);
  store_.release(log.block, work, out);
  if (old != kNone) store_.release(old, work, out);
}

void BastFtl::drop(std::uint32_t index) {
  log_of_.erase(logs_[index].lbn);
  if (index + 1 != logs_.size()) {
    logs_[index] = logs_.back();
    log_of_[logs_[index].lbn] = index;
  }
  logs_.pop_back();
}

void BastFtl::release_logs(std::uint32_t lbn, const BlockStore::Work& work, CommandList& out) {
  const std::uint32_t index = log_of(lbn);
  if (index == kNoLog) return;
  const VBlock block = logs_[index].block;
  drop(index);
  store_.release(block, work, out);
}

void BastFtl::save_logs(StateWriter& out) const {
  // Version 2: no log map (it follows from the logs).
  out.section("BAST", 2);
  out.u64(logs_.size());
  for (const Log& log : logs_) {
    out.u32(log.lbn);
    out.u32(log.block);
    out.boolean(log.sequential);
    out.u64(log.last_used);
  }
  out.u64(clock_);
}

void BastFtl::load_logs(StateReader& in) {
  in.section("BAST", 2);
  const std::uint64_t count = in.count(store_.keys().log_blocks, "the BAST log blocks");
  logs_.clear();
  log_of_.clear();
  for (std::uint64_t i = 0; i < count; ++i) {
    Log log{};
    log.lbn = in.u32();
    log.block = in.u32();
    log.sequential = in.boolean();
    log.last_used = in.u64();
    if (log.lbn >= store_.logical_blocks() || log.block == kNone)
      throw make_error("corrupt: BAST log of logical block {}", log.lbn);
    store_.check_block(log.block);
    if (!log_of_.emplace(log.lbn, static_cast<std::uint32_t>(i)).second)
      throw make_error("corrupt: two BAST logs of logical block {}", log.lbn);
    logs_.push_back(log);
  }
  clock_ = in.u64();
}

void BastFtl::check_invariants() const {
  if (logs_.size() > store_.keys().log_blocks)
    throw std::logic_error(fmt::format("bast: {} log blocks in use, at most {} allowed",
                                       logs_.size(), store_.keys().log_blocks));
  std::vector<VBlock> blocks;
  for (std::uint32_t i = 0; i < logs_.size(); ++i) {
    const Log& log = logs_[i];
    if (log_of(log.lbn) != i) throw std::logic_error("bast: the log index disagrees with the logs");
    blocks.push_back(log.block);
    // A log holds pages of its own logical block only; a sequential one holds
    // them at their own offsets.
    for (std::uint32_t page = 0; page < store_.written(log.block); ++page) {
      const flash::Ppn ppn = store_.ppn(log.block, page);
      const Lpn lpn = store_.nand().lpn_at(ppn);
      if (store_.nand().is_valid(ppn) &&
          (store_.lbn_of(lpn) != log.lbn || (log.sequential && store_.offset_of(lpn) != page)))
        throw std::logic_error(
            fmt::format("bast: log of logical block {} holds logical page {} "
                        "at page {}",
                        log.lbn, lpn, page));
    }
  }
  store_.check_invariants(blocks);
}

}  // namespace

std::unique_ptr<Ftl> make_bast_ftl(const FtlContext& context) {
  return std::make_unique<BastFtl>(context);
}

}  // namespace ssdlab::ftl
