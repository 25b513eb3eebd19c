// FIFO and cost-benefit victim policies (victim_policy.h): sealed blocks in
// min-heaps by seal sequence, one per pool (FIFO) or per pool and valid
// count (cost-benefit). The seal sequence is a counter of seals, so it
// orders blocks by seal time and breaks ties between blocks sealed at the
// same logical time in the order they were sealed.
//
// FIFO's heap holds only the blocks that cleaning can free something from
// (fewer valid pages than the block has): a block sealed full joins it, with
// its seal sequence, when its first page is superseded. So FIFO takes the
// oldest block that frees something and passes over a full one, which stays
// where it is in the order. (Falling back to greedy's choice when the oldest
// block was full made FIFO greedy for as long as that block stayed full,
// hundreds of writes with 16-page blocks: WA 4.22 where LRW gives about 5;
// docs/dftl-and-cleaning-policies.md, "FIFO on small blocks".)
//
// The heaps are lazy: a block that leaves one (cleaned, or a page of it
// superseded, which moves it to the next valid count) leaves its entry
// behind, and an entry whose block no longer belongs there is dropped when
// it reaches the top. A heap is rebuilt from its live entries once stale
// ones outnumber them, so memory stays within a constant of the blocks. A
// superseded page then costs one push on a contiguous array (O(log n)),
// about a third of an ordered set's erase and insert.
#include <algorithm>
#include <functional>
#include <stdexcept>
#include <utility>
#include <vector>

#include "common/error.h"
#include "ftl/victim_policy.h"

namespace ssdlab::ftl {
namespace {

class OrderedPolicy final : public VictimPolicy {
 public:
  OrderedPolicy(bool cost_benefit, std::uint32_t blocks, std::uint32_t pools,
                std::uint32_t pages_per_block)
      : cost_benefit_(cost_benefit),
        pages_per_block_(pages_per_block),
        sets_per_pool_(cost_benefit ? pages_per_block + 1 : 1),
        heaps_(std::size_t{pools} * sets_per_pool_),
        blocks_(blocks) {}

  void sealed(flash::BlockId block, std::uint32_t pool, std::uint32_t valid,
              std::uint64_t now) override {
    Record& record = blocks_[block];
    record.sealed_at = now;
    record.sequence = next_sequence_++;
    restored(block, pool, valid);
  }

  void removed(flash::BlockId block) override {
    Record& record = blocks_[block];
    if (!record.member) throw std::logic_error("victim policy: removing an absent block");
    if (in_heap(record)) --heaps_[set_of(record)].live;  // its entry goes stale
    record.member = false;
  }

  void restored(flash::BlockId block, std::uint32_t pool, std::uint32_t valid) override {
    Record& record = blocks_[block];
    if (record.member) throw std::logic_error("victim policy: block inserted twice");
    record.pool = pool;
    record.valid = valid;
    record.member = true;
    if (in_heap(record)) push(set_of(record), block);
  }

  // Cost-benefit moves a block between heaps at each superseded page; FIFO
  // puts a block sealed full into its heap at the first, and hears of no
  // other (its records tell full blocks from the others, not their counts).
  Tracking tracking() const override {
    return cost_benefit_ ? Tracking::kEvery : Tracking::kFirstOfFull;
  }

  void superseded(flash::BlockId block, std::uint32_t valid_before) override {
    Record& record = blocks_[block];
    if (!record.member || record.valid != valid_before || valid_before == 0)
      throw std::logic_error("victim policy: valid count out of step with the buckets");
    if (!cost_benefit_) {  // FIFO: a full block's first superseded page
      if (valid_before != pages_per_block_)
        throw std::logic_error("victim policy: fifo told of a page of a block not full");
      --record.valid;
      push(set_of(record), block);
      return;
    }
    --heaps_[set_of(record)].live;
    --record.valid;
    push(set_of(record), block);
  }

  flash::BlockId choose(std::uint32_t pool, const VictimBuckets& buckets,
                        std::uint64_t now) override {
    if (!cost_benefit_) {
      // The oldest block that frees something. None: every sealed block is
      // full (or there is none); greedy's answer says which, and cleaning
      // refuses a full block.
      const flash::BlockId oldest = oldest_in(pool);
      return oldest != VictimBuckets::kNone ? oldest : buckets.fewest_valid(pool);
    }
    // Cost-benefit: for each valid count only the oldest block can win.
    flash::BlockId best = VictimBuckets::kNone;
    double best_score = 0.0;
    for (std::uint32_t valid = 0; valid < pages_per_block_; ++valid) {
      const flash::BlockId oldest = oldest_in(std::size_t{pool} * sets_per_pool_ + valid);
      if (oldest == VictimBuckets::kNone) continue;
      if (valid == 0) return oldest;  // nothing to move: infinite benefit
      const double u = static_cast<double>(valid) / pages_per_block_;
      const double age = static_cast<double>(now - blocks_[oldest].sealed_at);
      const double score = age * (1.0 - u) / (2.0 * u);
      if (best == VictimBuckets::kNone || score > best_score) best = oldest, best_score = score;
    }
    // All ages 0 (everything sealed just now): greedy decides.
    return best != VictimBuckets::kNone && best_score > 0.0 ? best : buckets.fewest_valid(pool);
  }

  void clear() override {
    for (Heap& heap : heaps_) heap = Heap{};
    for (Record& record : blocks_) record = Record{};
    next_sequence_ = 0;
  }

  void save_state(StateWriter& out) const override {
    // Version 2: FIFO's records tell a full block from the others (version
    // 1 kept the count at the seal, and full blocks sat in the heap).
    out.section("VPOL", kVersion);
    out.u64(next_sequence_);
    std::vector<std::uint64_t> sealed_at(blocks_.size()), sequence(blocks_.size());
    std::vector<std::uint32_t> pool(blocks_.size()), valid(blocks_.size());
    std::vector<std::uint8_t> member(blocks_.size());
    for (std::size_t b = 0; b < blocks_.size(); ++b) {
      sealed_at[b] = blocks_[b].sealed_at;
      sequence[b] = blocks_[b].sequence;
      pool[b] = blocks_[b].pool;
      valid[b] = blocks_[b].valid;
      member[b] = blocks_[b].member ? 1 : 0;
    }
    out.vector(sealed_at);
    out.vector(sequence);
    out.vector(pool);
    out.vector(valid);
    out.vector(member);
  }

  void load_state(StateReader& in) override {
    in.section("VPOL", kVersion);
    clear();
    next_sequence_ = in.u64();
    const std::size_t n = blocks_.size();
    std::vector<std::uint64_t> sealed_at, sequence;
    std::vector<std::uint32_t> pool, valid;
    std::vector<std::uint8_t> member;
    in.vector(sealed_at, n, "the seal times");
    in.vector(sequence, n, "the seal sequence");
    in.vector(pool, n, "the victim policy pools");
    in.vector(valid, n, "the victim policy valid counts");
    in.vector(member, n, "the victim policy members");
    const std::size_t pools = heaps_.size() / sets_per_pool_;
    for (std::size_t b = 0; b < n; ++b) {
      blocks_[b].sealed_at = sealed_at[b];
      blocks_[b].sequence = sequence[b];
      if (!member[b]) continue;
      if (pool[b] >= pools || valid[b] > pages_per_block_)
        throw make_error("corrupt: victim policy entry of block {} is out of range", b);
      restored(static_cast<flash::BlockId>(b), pool[b], valid[b]);
    }
  }

 private:
  struct Record {
    std::uint64_t sealed_at = 0;
    std::uint64_t sequence = 0;
    std::uint32_t pool = 0;
    std::uint32_t valid = 0;
    bool member = false;
  };
  std::size_t set_of(const Record& record) const {
    return std::size_t{record.pool} * sets_per_pool_ + (cost_benefit_ ? record.valid : 0);
  }

  static constexpr std::uint32_t kVersion = 2;

  using Entry = std::pair<std::uint64_t, flash::BlockId>;  // (seal sequence, block)
  struct Heap {
    std::vector<Entry> entries;  // a min-heap (std::greater), stale entries included
    std::uint64_t live = 0;
  };
  // Cost-benefit keeps every sealed block in a heap; FIFO only those that
  // are not full of valid data.
  bool in_heap(const Record& record) const {
    return cost_benefit_ || record.valid < pages_per_block_;
  }
  bool is_live(const Entry& entry, std::size_t heap) const {
    const Record& record = blocks_[entry.second];
    return record.member && record.sequence == entry.first && set_of(record) == heap &&
           in_heap(record);
  }
  void push(std::size_t heap, flash::BlockId block) {
    Heap& h = heaps_[heap];
    h.entries.emplace_back(blocks_[block].sequence, block);
    std::push_heap(h.entries.begin(), h.entries.end(), std::greater<>{});
    ++h.live;
    if (h.entries.size() > 2 * h.live + 64) {
      // Rebuild from the live entries (a block restored after rate-limiting
      // may have two: keep one).
      std::erase_if(h.entries, [&](const Entry& e) { return !is_live(e, heap); });
      std::sort(h.entries.begin(), h.entries.end(), std::greater<>{});
      h.entries.erase(std::unique(h.entries.begin(), h.entries.end()), h.entries.end());
      std::make_heap(h.entries.begin(), h.entries.end(), std::greater<>{});
    }
  }
  // The live block with the smallest seal sequence, or kNone.
  flash::BlockId oldest_in(std::size_t heap) {
    Heap& h = heaps_[heap];
    while (!h.entries.empty() && !is_live(h.entries.front(), heap)) {
      std::pop_heap(h.entries.begin(), h.entries.end(), std::greater<>{});
      h.entries.pop_back();
    }
    return h.entries.empty() ? VictimBuckets::kNone : h.entries.front().second;
  }

  bool cost_benefit_;
  std::uint32_t pages_per_block_;
  std::uint32_t sets_per_pool_;
  std::vector<Heap> heaps_;
  std::vector<Record> blocks_;
  std::uint64_t next_sequence_ = 0;
};

}  // namespace

std::unique_ptr<VictimPolicy> make_ordered_policy(bool cost_benefit, std::uint32_t blocks,
                                                  std::uint32_t pools,
                                                  std::uint32_t pages_per_block) {
  return std::make_unique<OrderedPolicy>(cost_benefit, blocks, pools, pages_per_block);
}

}  // namespace ssdlab::ftl
