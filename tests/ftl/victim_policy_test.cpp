// Victim policies (ftl/victim_policy.h): the key and its errors, every policy
// verified under a random mix with wear leveling, determinism by seed, and
// the write amplification figures: FIFO under uniform random writes matches
// Desnoyers' LRW closed form (with 64-page blocks and with 16-page ones,
// where a full block at the head of the order is common), greedy does
// better, and under a hot/cold split cost-benefit beats greedy.
#include "ftl/victim_policy.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include "cleaning_support.h"
#include "common/state_io.h"
#include "ftl/page_mapped/page_mapped_keys.h"
#include "ftl/verifier.h"
#include "ftl/victim_buckets.h"
#include "policy_support.h"
#include "workloads/skew.h"

namespace ssdlab::testing {
namespace {

const char* const kPolicies[] = {"greedy", "cost-benefit", "random", "fifo", "d-choices"};

TEST(VictimPolicyConfig, UnknownPolicyNamesTheKeyAndTheAllowedValues) {
  try {
    tiny_with({"ftl.victim_policy=\"lru\""});
    FAIL() << "no error";
  } catch (const Error& error) {
    const std::string what = error.what();
    EXPECT_NE(what.find("ftl.victim_policy"), std::string::npos) << what;
    EXPECT_NE(what.find("'lru'"), std::string::npos) << what;
    EXPECT_NE(what.find(ftl::victim_policy_names()), std::string::npos) << what;
  }
}

TEST(VictimPolicyConfig, BlockBasedFtlsRefuseTheKey) {
  EXPECT_THROW(tiny_with({"ftl.type=\"bast\"", "ftl.victim_policy=\"fifo\""}), Error);
}

TEST(VictimPolicyConfig, ChoicesOutOfRangeAreRefused) {
  EXPECT_THROW(tiny_with({"ftl.victim_policy=\"d-choices\"", "ftl.victim_choices=0"}), Error);
  EXPECT_EQ(tiny_with({"ftl.victim_policy=\"d-choices\"", "ftl.victim_choices=3"})
                .ftl.keys.get<ftl::PageMappedKeys>()
                .victim.choices,
            3u);
}

class EveryPolicy : public ::testing::TestWithParam<const char*> {};

// Every policy keeps the FTL correct under writes, partial writes, reads and
// trims, with rate-limiting and migration acting on its victims.
TEST_P(EveryPolicy, PassesVerificationWithWearLeveling) {
  for (const char* wear : {"none", "migration"}) {
    const auto config =
        tiny_with({std::string("ftl.victim_policy=\"") + GetParam() + "\"",
                   std::string("ftl.wear_leveling=\"") + wear + "\"", "ftl.wear_cold_age=0.01"});
    auto ftl = make_ftl_from(config);
    ftl::Verifier verifier(config.geometry, ftl->logical_pages(), config.ftl.copy_back);
    run_random_mix(*ftl, verifier, 20000, 5);
    EXPECT_GT(ftl->stats().blocks_cleaned, 0u) << wear;
    EXPECT_NO_THROW(ftl->check_invariants()) << wear;
  }
}

// The same seed gives the same cleaning.
TEST_P(EveryPolicy, IsDeterministicBySeed) {
  const auto config = tiny_with({std::string("ftl.victim_policy=\"") + GetParam() + "\""});
  auto uniform = [](ftl::Lpn pages) {
    return [pages](Rng& rng) { return static_cast<ftl::Lpn>(rng.uniform(pages)); };
  };
  auto a = make_ftl_from(config, 3), b = make_ftl_from(config, 3);
  const auto pages = static_cast<ftl::Lpn>(a->logical_pages());
  steady_write_amplification(*a, uniform(pages), 0, 20000);
  steady_write_amplification(*b, uniform(pages), 0, 20000);
  EXPECT_EQ(a->stats().flash_pages_written, b->stats().flash_pages_written);
  EXPECT_EQ(a->stats().blocks_cleaned_per_pool, b->stats().blocks_cleaned_per_pool);
}

// A checkpoint mid-run (the policy's section with its order, seal times and
// generator) resumes with the same victims: the same commands from then on.
TEST_P(EveryPolicy, CheckpointResumesWithTheSameCommands) {
  const auto config = tiny_with({std::string("ftl.victim_policy=\"") + GetParam() + "\""});
  expect_checkpoint_resumes_with_the_same_commands(config);
}

INSTANTIATE_TEST_SUITE_P(VictimPolicy, EveryPolicy, ::testing::ValuesIn(kPolicies));

// FIFO passes over a block full of valid data and takes the next oldest,
// not greedy's choice; the full block keeps its place and is taken once a
// page of it is superseded.
TEST(VictimPolicyFifo, PassesOverAFullBlockInOrder) {
  constexpr std::uint32_t kPages = 16;
  ftl::VictimBuckets buckets(4, 1, kPages);
  auto fifo = ftl::make_victim_policy({ftl::VictimPolicyKind::kFifo, 8, {}}, 4, 1, kPages, 1);
  auto seal = [&](flash::BlockId block, std::uint32_t valid) {
    buckets.insert(block, 0, valid);
    fifo->sealed(block, 0, valid, 0);
  };
  auto supersede = [&](flash::BlockId block) {
    fifo->superseded(block, buckets.valid(block));
    buckets.decrement(block);
  };
  seal(0, kPages);  // the oldest, full
  seal(1, 12);
  seal(2, 3);  // greedy's choice
  EXPECT_EQ(fifo->choose(0, buckets, 0), 1u);
  supersede(0);
  EXPECT_EQ(fifo->choose(0, buckets, 0), 0u);
  fifo->removed(0);
  buckets.remove(0);
  EXPECT_EQ(fifo->choose(0, buckets, 0), 1u);
}

double uniform_wa(const std::string& policy) {
  const auto config = tiny_with(one_pool_device(policy));
  auto ftl = make_ftl_from(config);
  const auto pages = static_cast<ftl::Lpn>(ftl->logical_pages());
  return steady_write_amplification(
      *ftl, [pages](Rng& rng) { return static_cast<ftl::Lpn>(rng.uniform(pages)); }, 4 * pages,
      8 * pages);
}

// As `--precondition random:4` and an RW run: every logical page written
// once in order, 4 capacities of uniform random pages, then 8 measured.
// (Without the fill, the e^-4 = 1.8% of pages never drawn would be spare.)
double filled_uniform_wa(const sim::DeviceConfig& config) {
  auto ftl = make_ftl_from(config);
  const auto pages = static_cast<ftl::Lpn>(ftl->logical_pages());
  ftl::Lpn next = 0;
  return steady_write_amplification(
      *ftl,
      [pages, &next](Rng& rng) {
        return next < pages ? next++ : static_cast<ftl::Lpn>(rng.uniform(pages));
      },
      5 * pages, 8 * pages);
}

// Desnoyers' alpha for the one-pool device: the physical pages that hold
// data in steady state over the logical pages. That is all blocks but the
// free ones cleaning keeps (the low-water mark, at least 2) and, on average,
// half of each plane's two active blocks (host and cleaning). (The same
// count on the Agrawal baseline gives 4.95, as measured with fifo there.)
double one_pool_alpha(const ftl::Ftl& ftl, const sim::DeviceConfig& config) {
  const auto& g = config.geometry;
  const auto low_water = std::max<std::uint32_t>(
      2, static_cast<std::uint32_t>(std::ceil(config.ftl.clean_low_water * g.blocks())));
  const double holding =
      static_cast<double>(g.blocks() - low_water - g.planes()) * g.pages_per_block;
  return holding / static_cast<double>(ftl.logical_pages());
}

TEST(VictimPolicyWriteAmplification, FifoMatchesTheLrwClosedFormUnderUniformWrites) {
  const auto config = tiny_with(one_pool_device("fifo"));
  auto ftl = make_ftl_from(config);
  const double expected = lrw_write_amplification(one_pool_alpha(*ftl, config));
  const double fifo = uniform_wa("fifo");
  EXPECT_NEAR(fifo, expected, 0.02 * expected) << "alpha " << one_pool_alpha(*ftl, config);
}

// 16-page blocks (tiny.toml's): at FIFO's steady state a block reaching the
// head of the order still holds all its pages with probability about 0.8^16
// (3%; with 64 pages 1e-6), and stays there until one is superseded (about
// 435 host writes here), so the oldest block is full during most cleanings. FIFO still follows
// the LRW closed form, within 3% (it passes over those blocks; falling back
// to greedy's choice instead gave 4.22 against 5.05, -16%; docs:
// dftl-and-cleaning-policies.md, "FIFO on small blocks"), and greedy stays
// below it.
TEST(VictimPolicyWriteAmplification, FifoMatchesTheLrwClosedFormOnSmallBlocks) {
  auto small_blocks = [](const std::string& policy) {
    auto device = one_pool_device(policy);
    device.erase(std::remove_if(device.begin(), device.end(),
                                [](const std::string& key) {
                                  return key.starts_with("geometry.blocks_per_plane") ||
                                         key.starts_with("geometry.pages_per_block") ||
                                         key.starts_with("ftl.clean_low_water");
                                }),
                 device.end());
    device.push_back("geometry.blocks_per_plane=512");  // tiny.toml's 16 pages, 5% mark
    return device;
  };
  const auto config = tiny_with(small_blocks("fifo"));
  ASSERT_EQ(config.geometry.pages_per_block, 16u);
  auto ftl = make_ftl_from(config);
  const double lrw = lrw_write_amplification(one_pool_alpha(*ftl, config));
  const double fifo = filled_uniform_wa(config);
  EXPECT_NEAR(fifo, lrw, 0.03 * lrw) << "alpha " << one_pool_alpha(*ftl, config);
  EXPECT_LT(filled_uniform_wa(tiny_with(small_blocks("greedy"))), 0.9 * fifo);
}

TEST(VictimPolicyWriteAmplification, GreedyBeatsLrwUnderUniformWrites) {
  const auto config = tiny_with(one_pool_device("greedy"));
  auto ftl = make_ftl_from(config);
  const double lrw = lrw_write_amplification(one_pool_alpha(*ftl, config));
  EXPECT_LT(uniform_wa("greedy"), lrw);
  // d-choices sits between random sampling and greedy.
  EXPECT_LT(uniform_wa("d-choices"), uniform_wa("random"));
}

TEST(VictimPolicyWriteAmplification, CostBenefitBeatsGreedyUnderHotColdWrites) {
  auto hot_cold_wa = [](const std::string& policy) {
    const auto config = tiny_with(one_pool_device(policy));
    auto ftl = make_ftl_from(config);
    const std::uint64_t pages = ftl->logical_pages();
    const workloads::SkewedSlots slots(workloads::Skew{0.1, 0.9, 0.0}, pages);
    return steady_write_amplification(
        *ftl, [&slots](Rng& rng) { return static_cast<ftl::Lpn>(slots.slot(rng)); }, 4 * pages,
        8 * pages);
  };
  const double greedy = hot_cold_wa("greedy");
  const double cost_benefit = hot_cold_wa("cost-benefit");
  EXPECT_LT(cost_benefit, greedy);
}

}  // namespace
}  // namespace ssdlab::testing
