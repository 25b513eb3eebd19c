// Long verification (CTest label "long"): millions of mixed reads, writes and
// trims with cleaning, on several geometries, with the invariants checked as
// it goes. Every read must return the latest write.
#include <gtest/gtest.h>

#include <algorithm>

#include "../cleaning_support.h"
#include "../test_support.h"
#include "ftl/dftl_map_cache.h"
#include "ftl/ftl.h"
#include "ftl/page_mapped/page_mapped_keys.h"
#include "ftl/verifier.h"

namespace ssdlab {
namespace {

void verify_mix(sim::DeviceConfig config, std::uint64_t operations, std::uint32_t max_pages) {
  auto ftl = ftl::make_ftl({config.geometry, config.ftl, 0});
  ftl::Verifier verifier(config.geometry, ftl->logical_pages(), config.ftl.copy_back);
  for (std::uint64_t done = 0; done < operations; done += 500000) {
    testing::run_random_mix(*ftl, verifier, 500000, done + 1, max_pages);
    ASSERT_NO_THROW(ftl->check_invariants());
  }
  EXPECT_GT(ftl->stats().blocks_cleaned, operations / 100);
  EXPECT_GT(verifier.pages_checked(), operations);
}

TEST(LongVerification, TinyDeviceFourMillionOperations) {
  verify_mix(testing::load_preset("tiny"), 4000000, 4);
}

TEST(LongVerification, NoCopyBackPlanePoolsAndLargeLogicalPages) {
  auto config = testing::load_preset("tiny");
  config.ftl.copy_back = false;
  config.ftl.pool = ftl::PoolScope::kPlane;
  verify_mix(config, 2000000, 8);
  config = testing::load_preset("tiny");
  config.ftl.logical_page_size = 2 * config.geometry.page_size;
  config.ftl.stripe_size = config.ftl.logical_page_size;
  config.ftl.pool = ftl::PoolScope::kSsd;
  config.ftl.overprovisioning = 0.07;
  verify_mix(config, 2000000, 3);
}

// Every victim policy, on page-mapped and on DFTL with a small map cache
// (translation pages written, cleaned and recovered from all along).
TEST(LongVerification, EveryVictimPolicyAndDftl) {
  for (const char* type : {"page-mapped", "dftl"})
    for (const auto kind : {ftl::VictimPolicyKind::kGreedy, ftl::VictimPolicyKind::kCostBenefit,
                            ftl::VictimPolicyKind::kRandom, ftl::VictimPolicyKind::kFifo,
                            ftl::VictimPolicyKind::kDChoices}) {
      SCOPED_TRACE(std::string(type) + " " + ftl::victim_policy_name(kind));
      auto config = testing::load_preset("tiny");
      config.ftl.type = type;
      config.ftl.keys.edit<ftl::PageMappedKeys>().victim.kind = kind;
      config.ftl.keys.emplace(ftl::DftlKeys{.map_cache_entries = 64});  // (dftl only)
      verify_mix(config, 1000000, 4);
    }
}

}  // namespace
}  // namespace ssdlab

namespace ssdlab {
namespace {

// The whole baseline device: random preconditioning (every page written, the
// device cleaning in steady state), then millions of mixed operations.
TEST(LongVerification, BaselineAfterRandomPreconditioning) {
  auto config = testing::load_preset("agrawal-baseline");
  auto ftl = ftl::make_ftl({config.geometry, config.ftl, 0});
  ftl::Verifier verifier(config.geometry, ftl->logical_pages(), config.ftl.copy_back);
  ftl::CommandList out;
  for (ftl::Lpn lpn = 0; lpn < ftl->logical_pages(); lpn += 64) {
    const ftl::PageRange range{
        lpn, static_cast<std::uint32_t>(std::min<std::uint64_t>(64, ftl->logical_pages() - lpn)),
        false, false};
    out.clear();
    ftl->write(range, out);
    verifier.host_write(range, out);
  }
  testing::run_random_mix(*ftl, verifier, 3000000, 5, 8);
  EXPECT_GT(ftl->stats().blocks_cleaned, 10000u);
  EXPECT_NO_THROW(ftl->check_invariants());
}

}  // namespace
}  // namespace ssdlab
