// Cleaning in the page-mapped FTL (Agrawal et al. §3.2, §4.3): greedy victims,
// copy-back vs inter-plane moves, over-provisioning, background cleaning,
// preconditioning, and verification through many device overwrites.
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <optional>

#include "cleaning_support.h"
#include "common/error.h"
#include "ftl/ftl.h"
#include "ftl/pools.h"
#include "ftl/verifier.h"
#include "ftl/victim_buckets.h"
#include "ftl/victim_explanation.h"
#include "sim/state/precondition.h"
#include "sim/engine/simulator.h"
#include "sim/controller/ssd.h"
#include "test_support.h"
#include "workloads/plan.h"

namespace ssdlab {
namespace {

using flash::Op;

TEST(VictimBuckets, PicksTheBlockWithFewestValidPagesOldestFirst) {
  ftl::VictimBuckets buckets(10, 2, 4);
  buckets.insert(3, 0, 2);
  buckets.insert(5, 0, 1);
  buckets.insert(7, 0, 1);
  buckets.insert(8, 1, 0);
  EXPECT_EQ(buckets.fewest_valid(0), 5u);  // 5 and 7 tie; 5 came first
  buckets.decrement(3);
  buckets.decrement(3);
  EXPECT_EQ(buckets.fewest_valid(0), 3u);
  buckets.remove(3);
  EXPECT_EQ(buckets.fewest_valid(0), 5u);
  EXPECT_EQ(buckets.fewest_valid(1), 8u);
  EXPECT_EQ(buckets.sealed_blocks(0), 2u);
  buckets.remove(5);
  buckets.remove(7);
  EXPECT_EQ(buckets.fewest_valid(0), ftl::VictimBuckets::kNone);
}

TEST(VictimBuckets, FewestListsBlocksInTheOrderTheyWouldBeTaken) {
  ftl::VictimBuckets buckets(10, 2, 4);
  buckets.insert(3, 0, 2);
  buckets.insert(5, 0, 1);
  buckets.insert(7, 0, 1);
  buckets.insert(9, 0, 4);
  buckets.insert(8, 1, 0);
  EXPECT_EQ(buckets.fewest(0, 3), (std::vector<flash::BlockId>{5, 7, 3}));
  EXPECT_EQ(buckets.fewest(0, 10), (std::vector<flash::BlockId>{5, 7, 3, 9}));
  EXPECT_EQ(buckets.fewest(1, 10), (std::vector<flash::BlockId>{8}));
  EXPECT_TRUE(buckets.fewest(0, 0).empty());
}

class CleaningTest : public ::testing::Test {
 protected:
  void build(const std::function<void(sim::DeviceConfig&)>& tweak = {}) {
    config_ = testing::load_preset("tiny");
    if (tweak) tweak(config_);
    ftl_ = ftl::make_ftl({config_.geometry, config_.ftl, 0});
    verifier_.emplace(config_.geometry, ftl_->logical_pages(), config_.ftl.copy_back);
  }
  ftl::CommandList write(ftl::Lpn lpn) {
    ftl::CommandList out;
    ftl_->write({lpn, 1, false, false}, out);
    verifier_->host_write({lpn, 1, false, false}, out);
    return out;
  }
  // Overwrites random logical pages `times` x the capacity.
  void overwrite_randomly(double times, std::uint64_t seed = 1) {
    Rng rng(seed);
    const auto count = static_cast<std::uint64_t>(times * ftl_->logical_pages());
    for (std::uint64_t i = 0; i < count; ++i)
      write(static_cast<ftl::Lpn>(rng.uniform(ftl_->logical_pages())));
  }
  void fill() {
    for (ftl::Lpn lpn = 0; lpn < ftl_->logical_pages(); ++lpn) write(lpn);
  }

  sim::DeviceConfig config_;
  std::unique_ptr<ftl::Ftl> ftl_;
  std::optional<ftl::Verifier> verifier_;
};

TEST_F(CleaningTest, SurvivesManyOverwritesOfTheWholeDevice) {
  build();
  fill();
  overwrite_randomly(10);
  const auto& stats = ftl_->stats();
  EXPECT_GT(stats.blocks_cleaned, 100u);
  EXPECT_GT(stats.write_amplification(), 1.5);
  EXPECT_EQ(stats.erases, stats.blocks_cleaned);
  EXPECT_EQ(stats.flash_pages_written,
            stats.host_pages_written + stats.copy_backs + stats.inter_plane_moves);
  EXPECT_NO_THROW(ftl_->check_invariants());
  // Every page still reads back its latest version.
  ftl::CommandList out;
  ftl_->read({0, static_cast<std::uint32_t>(ftl_->logical_pages()), false, false}, out);
  verifier_->host_read({0, static_cast<std::uint32_t>(ftl_->logical_pages()), false, false}, out);
}

TEST_F(CleaningTest, GreedyCleansTheSealedBlockWithFewestValidPages) {
  build();
  fill();
  Rng rng(3);
  const ftl::PoolLayout layout(config_.geometry, config_.ftl.pool);
  const auto& nand = ftl_->nand();
  int cleanings = 0;
  for (int i = 0; i < 20000 && cleanings < 50; ++i) {
    const auto lpn = static_cast<ftl::Lpn>(rng.uniform(ftl_->logical_pages()));
    const std::uint32_t pool = lpn % layout.pools();  // 4 KB stripe over packages
    // The fewest valid pages among the pool's full blocks, before the write.
    std::uint32_t fewest = config_.geometry.pages_per_block;
    for (flash::BlockId block = 0; block < config_.geometry.blocks(); ++block)
      if (nand.is_full(block) &&
          layout.pool_of_plane(config_.geometry.plane_of_block(block)) == pool)
        fewest = std::min(fewest, nand.valid_pages(block));
    const ftl::CommandList out = write(lpn);
    const auto erase =
        std::find_if(out.begin(), out.end(), [](const auto& c) { return c.op == Op::kErase; });
    if (erase == out.end()) continue;
    const auto moves = std::count_if(out.begin(), erase, [](const auto& c) {
      return c.op == Op::kCopyBack || c.op == Op::kMove;
    });
    EXPECT_EQ(moves, fewest);
    ++cleanings;
  }
  EXPECT_EQ(cleanings, 50);
}

// --trace-ftl's candidates (ftl/victim_explanation.h): each victim with the
// sealed blocks of its group it was chosen from; greedy's is the first.
TEST_F(CleaningTest, ExplainsEachVictimWithTheCandidatesItWasChosenFrom) {
  for (const char* type : {"page-mapped", "dftl"}) {
    build([&](sim::DeviceConfig& c) { c.ftl.type = type; });
    fill();
    ftl::VictimExplanations explanations;
    ftl_->explain_victims(&explanations);
    Rng rng(5);
    int victims = 0;
    for (int i = 0; i < 4000 && victims < 20; ++i) {
      const ftl::CommandList out =
          write(static_cast<ftl::Lpn>(rng.uniform(ftl_->logical_pages())));
      for (const ftl::VictimExplanation& e : explanations.chosen) {
        ++victims;
        ASSERT_FALSE(e.fewest.empty()) << type;
        EXPECT_EQ(e.fewest.front().block, e.victim.block) << type;
        EXPECT_LE(e.fewest.size(), ftl::VictimExplanation::kShown);
        EXPECT_GE(e.sealed, e.fewest.size());
        EXPECT_STREQ(e.policy, "greedy");
        EXPECT_TRUE(std::is_sorted(e.fewest.begin(), e.fewest.end(),
                                   [](auto& a, auto& b) { return a.valid < b.valid; }))
            << type;
        // The victim is cleaned: its erase is in this write's commands.
        EXPECT_TRUE(std::any_of(out.begin(), out.end(), [&](const flash::Command& c) {
          return c.op == Op::kErase && config_.geometry.block_of(c.ppn) == e.victim.block;
        })) << type;
      }
      explanations.chosen.clear();
    }
    EXPECT_GE(victims, 20) << type;
    explanations.wanted = false;  // the trace is done: nothing more is kept
    overwrite_randomly(0.2);
    EXPECT_TRUE(explanations.chosen.empty()) << type;
    ftl_->explain_victims(nullptr);
  }
}

TEST_F(CleaningTest, ValidPagesMoveByCopyBackInsideTheirPlane) {
  build();
  fill();
  overwrite_randomly(3);
  const auto& stats = ftl_->stats();
  EXPECT_GT(stats.copy_backs, 0u);
  // Nearly all moves stay in the victim's plane; a plane out of room sends a few elsewhere.
  EXPECT_LT(stats.inter_plane_moves, stats.copy_backs / 10);
}

TEST_F(CleaningTest, WithCopyBackOffEveryMoveCrossesTheBus) {
  build([](sim::DeviceConfig& c) { c.ftl.copy_back = false; });
  fill();
  overwrite_randomly(3);
  EXPECT_EQ(ftl_->stats().copy_backs, 0u);
  EXPECT_GT(ftl_->stats().inter_plane_moves, 0u);
}

TEST_F(CleaningTest, MoreOverProvisioningMeansLessWriteAmplification) {
  double previous = 1e9;
  for (double op : {0.07, 0.15, 0.28}) {
    build([op](sim::DeviceConfig& c) { c.ftl.overprovisioning = op; });
    fill();
    overwrite_randomly(8);
    const double wa = ftl_->stats().write_amplification();
    EXPECT_LT(wa, previous) << op;
    previous = wa;
  }
}

TEST_F(CleaningTest, NoOverProvisioningStillCleansWithinTheReserve) {
  build([](sim::DeviceConfig& c) { c.ftl.overprovisioning = 0.0; });
  EXPECT_LT(ftl_->logical_pages(), config_.geometry.pages());
  fill();
  overwrite_randomly(2);
  EXPECT_NO_THROW(ftl_->check_invariants());
}

TEST_F(CleaningTest, TrimmedPagesAreNotMoved) {
  build();
  fill();
  overwrite_randomly(2);
  const double wa_before = ftl_->stats().write_amplification();
  // Forget half of the device: cleaning should find far more superseded pages.
  ftl::CommandList out;
  const auto half = static_cast<std::uint32_t>(ftl_->logical_pages() / 2);
  ftl_->trim({0, half, false, false}, out);
  verifier_->host_trim({0, half, false, false}, out);
  const auto moved_before = ftl_->stats().copy_backs + ftl_->stats().inter_plane_moves;
  const auto host_before = ftl_->stats().host_pages_written;
  Rng rng(9);
  for (int i = 0; i < 3000; ++i)
    write(half + static_cast<ftl::Lpn>(rng.uniform(ftl_->logical_pages() - half)));
  const double wa_after = static_cast<double>(ftl_->stats().copy_backs +
                                              ftl_->stats().inter_plane_moves - moved_before) /
                              static_cast<double>(ftl_->stats().host_pages_written - host_before) +
                          1.0;
  EXPECT_LT(wa_after, wa_before);
  ftl_->check_invariants();
}

TEST_F(CleaningTest, BackgroundCleaningKeepsMoreBlocksFreeAndLosesNothing) {
  auto config = testing::load_preset("tiny");
  config.ftl.clean_high_water = 0.25;
  sim::Ssd ssd(config, {.verify = true, .invariants_every = 500});
  sim::Simulator simulator(ssd, nullptr);
  simulator.run(workloads::parse_inline("RW:count=20000,queue_depth=1").experiments.front(), 0, 1);
  EXPECT_GT(ssd.ftl().stats().background_blocks_cleaned, 0u);
  EXPECT_NO_THROW(ssd.ftl().check_invariants());
}

TEST(CleaningTiming, WritesWaitForForegroundCleaningOnlyWhenConfiguredTo) {
  auto measure = [](bool blocking) {
    auto config = testing::load_preset("tiny");
    config.ftl.cleaning_blocks_writes = blocking;
    sim::Ssd ssd(config);
    sim::precondition(ssd, workloads::parse_precondition("random:2"), 1);
    sim::Simulator simulator(ssd, nullptr);
    return simulator.run(workloads::parse_inline("RW:count=5000").experiments.front(), 0, 1);
  };
  const auto blocking = measure(true), parallel = measure(false);
  EXPECT_GT(blocking.stats.mean_ns, parallel.stats.mean_ns);
  EXPECT_GT(blocking.device.cleaning_ns, 0);
  // The unloaded write is the floor either way.
  auto config = testing::load_preset("tiny");
  EXPECT_GE(parallel.stats.min_ns, config.timing.page_program_latency(config.geometry));
}

TEST(Precondition, ParsesItsForms) {
  EXPECT_EQ(workloads::parse_precondition("seq").overwrites, 0.0);
  EXPECT_EQ(workloads::parse_precondition("seq:2").overwrites, 2.0);
  EXPECT_EQ(workloads::parse_precondition("random").overwrites, 1.0);
  EXPECT_EQ(workloads::parse_precondition("uflip:0.5").overwrites, 0.5);
  for (const char* bad : {"", "rand", "random:", "random:x", "uflip:-1", "seq:2000"}) {
    try {
      workloads::parse_precondition(bad);
      ADD_FAILURE() << bad;
    } catch (const Error& error) {
      EXPECT_NE(std::string(error.what()).find("--precondition"), std::string::npos);
    }
  }
}

TEST(Precondition, FillsEveryPageAndReachesAUsedState) {
  for (const char* mode : {"seq", "random:2", "uflip:1"}) {
    auto config = testing::load_preset("tiny");
    sim::Ssd ssd(config, {.verify = true, .invariants_every = 1000});
    const auto report = sim::precondition(ssd, workloads::parse_precondition(mode), 4);
    for (ftl::Lpn lpn = 0; lpn < ssd.ftl().logical_pages(); ++lpn)
      ASSERT_TRUE(ssd.ftl().is_mapped(lpn)) << mode;
    if (std::string(mode) != "seq") {
      EXPECT_GT(report->write_amplification.value_or(0), 1.0) << mode;
      EXPECT_GT(ssd.ftl().stats().blocks_cleaned, 0u) << mode;
    }
    EXPECT_NO_THROW(ssd.ftl().check_invariants());
  }
}

TEST(Verification, MixedWorkloadWithCleaningLosesNothing) {
  for (bool copy_back : {true, false}) {
    auto config = testing::load_preset("tiny");
    config.ftl.copy_back = copy_back;
    auto ftl = ftl::make_ftl({config.geometry, config.ftl, 0});
    ftl::Verifier verifier(config.geometry, ftl->logical_pages(), copy_back);
    const auto counts = testing::run_random_mix(*ftl, verifier, 100000, 11);
    EXPECT_GT(ftl->stats().blocks_cleaned, 500u);
    EXPECT_GT(counts.reads, 20000u);
    EXPECT_NO_THROW(ftl->check_invariants());
  }
}

}  // namespace
}  // namespace ssdlab
