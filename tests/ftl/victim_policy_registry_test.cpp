// Victim policies registered by code of one's own (ftl/register.h), through
// the out-of-tree example docs/examples/out-of-tree-ftl/windowed_greedy.cpp,
// which this test binary compiles in: chosen by name, run by page-mapped and
// DFTL under verification beside an SLC cache and FDP, checkpointed, and
// checked where their choice would corrupt the FTL.
#include <gtest/gtest.h>

#include <cstdio>
#include <memory>
#include <stdexcept>
#include <string>

#include "cleaning_support.h"
#include "common/error.h"
#include "common/state_io.h"
#include "ftl/page_mapped/page_mapped_keys.h"
#include "ftl/register.h"
#include "ftl/verifier.h"
#include "ftl/victim_buckets.h"
#include "ftl/victim_policy.h"
#include "policy_support.h"

namespace ssdlab::testing {
namespace {

using ftl::VictimBuckets;
using ftl::VictimPolicy;
using ftl::VictimPolicyContext;

// The example's policy, with its choices counted: proof that the FTL asks it.
std::uint64_t counted_choices = 0;

class Counting final : public VictimPolicy {
 public:
  explicit Counting(const VictimPolicyContext& context)
      : inner_(ftl::find_registered_victim_policy("windowed-greedy")(context)) {}
  void sealed(flash::BlockId block, std::uint32_t pool, std::uint32_t valid,
              std::uint64_t now) override {
    inner_->sealed(block, pool, valid, now);
  }
  void removed(flash::BlockId block) override { inner_->removed(block); }
  void restored(flash::BlockId block, std::uint32_t pool, std::uint32_t valid) override {
    inner_->restored(block, pool, valid);
  }
  flash::BlockId choose(std::uint32_t pool, const VictimBuckets& buckets,
                        std::uint64_t now) override {
    ++counted_choices;
    return inner_->choose(pool, buckets, now);
  }
  void clear() override { inner_->clear(); }
  void save_state(StateWriter& out) const override { inner_->save_state(out); }
  void load_state(StateReader& in) override { inner_->load_state(in); }

 private:
  std::unique_ptr<VictimPolicy> inner_;
};

std::unique_ptr<VictimPolicy> make_counting(const VictimPolicyContext& context) {
  return std::make_unique<Counting>(context);
}

// A policy that answers the block it was told last left the sealed set
// (the victim being cleaned, then erased or written again): not a sealed
// block, which the FTL must refuse rather than clean.
class Stale final : public VictimPolicy {
 public:
  void sealed(flash::BlockId, std::uint32_t, std::uint32_t, std::uint64_t) override {}
  void removed(flash::BlockId block) override { left_ = block; }
  void restored(flash::BlockId, std::uint32_t, std::uint32_t) override {}
  flash::BlockId choose(std::uint32_t pool, const VictimBuckets& buckets, std::uint64_t) override {
    return left_ == VictimBuckets::kNone ? buckets.fewest_valid(pool) : left_;
  }
  void clear() override {}
  void save_state(StateWriter&) const override {}
  void load_state(StateReader&) override {}

 private:
  flash::BlockId left_ = VictimBuckets::kNone;
};

std::unique_ptr<VictimPolicy> make_stale(const VictimPolicyContext&) {
  return std::make_unique<Stale>();
}

SSDLAB_REGISTER_VICTIM_POLICY("test-counting-windowed", make_counting);
SSDLAB_REGISTER_VICTIM_POLICY("test-stale", make_stale);

std::string policy_key(const std::string& name) {
  return "ftl.victim_policy=\"" + name + "\"";
}

TEST(RegisteredVictimPolicy, IsChosenByNameAndListedWithTheBuiltIns) {
  const auto config = tiny_with({policy_key("windowed-greedy"), "ftl.victim_choices=4"});
  const ftl::VictimPolicyConfig& victim = config.ftl.keys.get<ftl::PageMappedKeys>().victim;
  EXPECT_EQ(victim.kind, ftl::VictimPolicyKind::kRegistered);
  EXPECT_EQ(std::string(ftl::victim_policy_name(victim)), "windowed-greedy");
  EXPECT_EQ(victim.choices, 4u);
  // (After the built-ins, in registration order.)
  const std::string names = ftl::victim_policy_names();
  EXPECT_EQ(names.find("greedy, cost-benefit, random, fifo, d-choices, "), 0u) << names;
  EXPECT_NE(names.find(", windowed-greedy"), std::string::npos) << names;
  // An unknown name's error lists the registered ones too.
  try {
    tiny_with({policy_key("windowed-greed")});
    FAIL() << "no error";
  } catch (const Error& error) {
    EXPECT_NE(std::string(error.what()).find("windowed-greedy"), std::string::npos) << error.what();
  }
}

TEST(RegisteredVictimPolicy, ANameTakenIsRefused) {
  EXPECT_THROW(ftl::register_victim_policy("greedy", make_stale), Error);
  EXPECT_THROW(ftl::register_victim_policy("windowed-greedy", make_stale), Error);
  EXPECT_THROW(ftl::register_victim_policy("", make_stale), Error);
}

TEST(RegisteredVictimPolicy, PassesVerificationInPageMappedAndDftl) {
  for (const char* type : {"page-mapped", "dftl"}) {
    counted_choices = 0;
    const auto config =
        tiny_with({std::string("ftl.type=\"") + type + "\"", policy_key("test-counting-windowed"),
                   "ftl.wear_leveling=\"migration\"", "ftl.wear_cold_age=0.01"});
    auto ftl = make_ftl_from(config);
    ftl::Verifier verifier(config.geometry, ftl->logical_pages(), config.ftl.copy_back);
    run_random_mix(*ftl, verifier, 20000, 5);
    EXPECT_GT(ftl->stats().blocks_cleaned, 0u) << type;
    EXPECT_GE(counted_choices, ftl->stats().blocks_cleaned) << type;
    EXPECT_NO_THROW(ftl->check_invariants()) << type;
  }
}

// The reason to register a policy rather than write an FTL: the SLC cache
// and FDP placement come with it, their counters too.
TEST(RegisteredVictimPolicy, RunsBesideAnSlcCacheAndFdp) {
  const auto config = sim::load_config(
      preset("tiny-tlc"),
      {policy_key("test-counting-windowed"), "ftl.placement=\"fdp\"", "ftl.fdp_handles=2",
       "slc_cache.mode=\"dynamic\"", "slc_cache.size_gib=0.004", "slc_cache.when_full=\"fold\""});
  counted_choices = 0;
  auto ftl = make_ftl_from(config);
  ftl::Verifier verifier(config.geometry, ftl->logical_pages(), config.ftl.copy_back);
  run_random_mix(*ftl, verifier, 30000, 3);
  EXPECT_GT(ftl->stats().blocks_cleaned, 0u);
  EXPECT_GE(counted_choices, ftl->stats().blocks_cleaned);
  const ftl::Ftl::PartRecords parts = ftl->part_records();
  ASSERT_TRUE(parts.slc_cache && parts.fdp);
  EXPECT_GT(parts.slc_cache->host_pages_absorbed, 0u);
  EXPECT_GT(parts.slc_cache->pages_folded, 0u);
  EXPECT_NO_THROW(ftl->check_invariants());
}

// Hu et al. (SYSTOR 2009, §4): windowed greedy's write amplification lies
// between FIFO's (a window of one) and greedy's (a window of the whole pool).
TEST(RegisteredVictimPolicy, WindowedGreedyLiesBetweenGreedyAndFifo) {
  auto write_amplification = [](const std::string& policy, std::uint32_t window) {
    auto overrides = one_pool_device(policy);
    overrides.push_back("ftl.victim_choices=" + std::to_string(window));
    auto ftl = make_ftl_from(tiny_with(overrides), 3);
    const auto pages = static_cast<ftl::Lpn>(ftl->logical_pages());
    auto uniform = [pages](Rng& rng) { return static_cast<ftl::Lpn>(rng.uniform(pages)); };
    return steady_write_amplification(*ftl, uniform, 4 * pages, 4 * pages);
  };
  const double greedy = write_amplification("greedy", 8);
  const double fifo = write_amplification("fifo", 8);
  const double window8 = write_amplification("windowed-greedy", 8);
  const double whole = write_amplification("windowed-greedy", 1024);
  // (The figures of guide-ftl-research.md's "A victim policy of your own".)
  std::printf("write amplification: greedy %.3f, windowed greedy (8) %.3f, fifo %.3f, "
              "windowed greedy (1024) %.3f\n",
              greedy, window8, fifo, whole);
  EXPECT_LT(greedy + 0.05, fifo);
  EXPECT_GT(window8, greedy);
  EXPECT_LT(window8, fifo);
  EXPECT_NEAR(whole, greedy, 0.02 * greedy);
}

// Its checkpoint section carries its order: a run resumes with the same victims.
TEST(RegisteredVictimPolicy, CheckpointResumesWithTheSameCommands) {
  const auto config = tiny_with({policy_key("windowed-greedy")});
  expect_checkpoint_resumes_with_the_same_commands(config);
}

TEST(RegisteredVictimPolicy, AChoiceThatIsNotASealedBlockStopsTheRunNamingThePolicy) {
  const auto config = tiny_with({policy_key("test-stale")});
  auto ftl = make_ftl_from(config);
  ftl::Verifier verifier(config.geometry, ftl->logical_pages(), config.ftl.copy_back);
  try {
    run_random_mix(*ftl, verifier, 20000, 5);
    FAIL() << "the stale choice was cleaned";
  } catch (const std::logic_error& error) {
    EXPECT_NE(std::string(error.what()).find("victim policy 'test-stale' chose block"),
              std::string::npos)
        << error.what();
  }
}

}  // namespace
}  // namespace ssdlab::testing
