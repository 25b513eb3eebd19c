// The teaching FTL skeleton (ftl/example_ftl.cpp, docs/assignment.md): it is
// correct while the device has free pages, and fails clearly, never silently,
// once it has none. `ctest -R Example` runs these.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>

#include "cleaning_support.h"
#include "common/error.h"
#include "ftl/ftl.h"
#include "ftl/verifier.h"
#include "test_support.h"

namespace {

namespace support = ssdlab::testing;
using ::testing::HasSubstr;
using namespace ssdlab;

std::unique_ptr<ftl::Ftl> MakeExample(const sim::DeviceConfig& config) {
  ftl::FtlConfig ftl_config = config.ftl;
  ftl_config.type = "example";
  return ftl::make_ftl({config.geometry, ftl_config, 0});
}

TEST(ExampleFtl, IsRegisteredByName) {
  const auto names = ftl::ftl_names();
  EXPECT_NE(std::find(names.begin(), names.end(), "example"), names.end());
  EXPECT_EQ(MakeExample(support::load_preset("tiny"))->name(), "example");
}

TEST(ExampleFtl, PassesVerificationOnWritesThatFit) {
  const auto config = support::load_preset("tiny");
  auto example = MakeExample(config);
  ftl::Verifier verifier(config.geometry, example->logical_pages(), config.ftl.copy_back);
  // About 300 writes of 1-4 pages, some partial: well under tiny's 4096 pages.
  const auto counts = support::run_random_mix(*example, verifier, 500, 7);
  EXPECT_GT(counts.writes, 250u);
  EXPECT_GT(verifier.pages_checked(), 50u);
  EXPECT_LT(example->stats().flash_pages_written, config.geometry.pages());
  EXPECT_NO_THROW(example->check_invariants());
  EXPECT_EQ(example->stats().erases, 0u);  // it never cleans
}

TEST(ExampleFtl, FailsClearlyWhenTheDeviceIsFull) {
  const auto config = support::load_preset("tiny");
  auto example = MakeExample(config);
  ftl::Verifier verifier(config.geometry, example->logical_pages(), config.ftl.copy_back);
  ftl::CommandList out;
  std::uint64_t written = 0;
  try {
    for (;;) {  // overwrite one page until the flash runs out
      out.clear();
      example->write({0, 1, false, false}, out);
      verifier.host_write({0, 1, false, false}, out);
      ++written;
      ASSERT_LE(written, config.geometry.pages()) << "wrote more pages than the flash has";
    }
  } catch (const Error& error) {
    EXPECT_THAT(error.what(), HasSubstr("example FTL: out of free pages — implement cleaning, "
                                        "see docs/assignment.md"));
  }
  EXPECT_EQ(written, config.geometry.pages());   // every page used once, none lost
  EXPECT_NO_THROW(example->check_invariants());  // the failed write changed nothing
  out.clear();
  example->read({0, 1, false, false}, out);
  EXPECT_NO_THROW(verifier.host_read({0, 1, false, false}, out));
}

TEST(ExampleFtl, SimVerifyStopsWithTheMessageWhenFull) {
  const std::string base = "sim -c '" + support::preset("tiny") +
                           "' --set ftl.type=example --verify -o '" +
                           support::temp_dir("example-cli").string() + "'";
  const auto fits = support::run_ssdlab(base + " -w 'RW:count=1000'");
  EXPECT_EQ(fits.exit_code, 0) << fits.output;
  const auto full = support::run_ssdlab(base + " -w 'RW:count=5000'");
  EXPECT_EQ(full.exit_code, 1);
  EXPECT_THAT(full.output, HasSubstr("ssdlab: example FTL: out of free pages — implement "
                                     "cleaning, see docs/assignment.md"));
}

// The assignment's goal (docs/assignment.md): with greedy cleaning, the
// example FTL survives overwriting its device several times. Remove
// DISABLED_ once you have implemented cleaning.
TEST(ExampleFtlAssignment, DISABLED_SurvivesOverwritingTheDeviceThreeTimes) {
  const auto config = support::load_preset("tiny");
  auto example = MakeExample(config);
  ftl::Verifier verifier(config.geometry, example->logical_pages(), config.ftl.copy_back);
  // 60% of the operations are writes: about three device capacities.
  support::run_random_mix(*example, verifier, 5 * example->logical_pages(), 11, 1);
  EXPECT_NO_THROW(example->check_invariants());
  EXPECT_GT(example->stats().erases, 0u);
  EXPECT_GT(example->stats().blocks_cleaned, 0u);
}

}  // namespace
