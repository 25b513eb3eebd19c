// FIFO and cost-benefit victim policies (victim_policy.h): sealed blocks in
// ordered sets by seal sequence, one set per pool (FIFO) or per pool and
// valid count (cost-benefit). The seal sequence is a counter of seals, so it
// orders blocks by seal time and breaks ties between blocks sealed at the
// same logical time in the order they were sealed.
#include <set>
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
        sets_(std::size_t{pools} * sets_per_pool_),
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
    sets_[set_of(record)].erase({record.sequence, block});
    record.member = false;
  }

  void restored(flash::BlockId block, std::uint32_t pool, std::uint32_t valid) override {
    Record& record = blocks_[block];
    if (record.member) throw std::logic_error("victim policy: block inserted twice");
    record.pool = pool;
    record.valid = valid;
    record.member = true;
    sets_[set_of(record)].insert({record.sequence, block});
  }

  bool tracks_valid_counts() const override { return cost_benefit_; }

  void superseded(flash::BlockId block, std::uint32_t valid_before) override {
    Record& record = blocks_[block];
    if (!record.member || record.valid != valid_before || valid_before == 0)
      throw std::logic_error("victim policy: valid count out of step with the buckets");
    sets_[set_of(record)].erase({record.sequence, block});
    --record.valid;
    sets_[set_of(record)].insert({record.sequence, block});
  }

  flash::BlockId choose(std::uint32_t pool, const VictimBuckets& buckets,
                        std::uint64_t now) override {
    if (!cost_benefit_) {
      const auto& set = sets_[pool];
      if (set.empty()) return VictimBuckets::kNone;
      const flash::BlockId oldest = set.begin()->second;
      // A block full of valid data frees nothing: greedy's choice instead.
      return buckets.valid(oldest) < pages_per_block_ ? oldest : buckets.fewest_valid(pool);
    }
    // Cost-benefit: for each valid count only the oldest block can win.
    flash::BlockId best = VictimBuckets::kNone;
    double best_score = 0.0;
    for (std::uint32_t valid = 0; valid < pages_per_block_; ++valid) {
      const auto& set = sets_[std::size_t{pool} * sets_per_pool_ + valid];
      if (set.empty()) continue;
      const flash::BlockId oldest = set.begin()->second;
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
    for (auto& set : sets_) set.clear();
    for (Record& record : blocks_) record = Record{};
    next_sequence_ = 0;
  }

  void save_state(StateWriter& out) const override {
    out.section("VPOL", 1);
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
    in.section("VPOL", 1);
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
    const std::size_t pools = sets_.size() / sets_per_pool_;
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

  bool cost_benefit_;
  std::uint32_t pages_per_block_;
  std::uint32_t sets_per_pool_;
  std::vector<std::set<std::pair<std::uint64_t, flash::BlockId>>> sets_;
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
