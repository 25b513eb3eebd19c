// The built-in uFLIP plans (§3.2, Table 1), their overrides, and the
// benchmark plan of §4.2 (sequential writes on distinct target spaces).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>

#include "common/error.h"
#include "test_support.h"
#include "workloads/uflip.h"

namespace ssdlab::workloads {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

constexpr DeviceInfo kTiny{16ull << 20, 512, 16 * 4096};
constexpr DeviceInfo kLarge{32ull << 30, 512, 64 * 4096};

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "no error";
}

const ExperimentSpec* find(const Plan& plan, const std::string& name) {
  for (const auto& spec : plan.experiments)
    if (spec.name == name) return &spec;
  return nullptr;
}

TEST(UflipPlan, GranularityCoversTheTableOneRangeForEachBaseline) {
  const Plan plan = uflip_plan("uflip:granularity", kLarge);
  EXPECT_EQ(plan.state, "uflip");
  // 2^0..2^9 x 512 B plus 7 non-powers of two, for SR, RR, SW, RW.
  EXPECT_EQ(plan.experiments.size(), 17u * 4);
  const ExperimentSpec* rw = find(plan, "granularity-RW/io_size=32768");
  ASSERT_NE(rw, nullptr);
  EXPECT_EQ(rw->pattern, Pattern::kRW);
  EXPECT_EQ(rw->count, 5120u);
  EXPECT_TRUE(rw->io_ignore_auto);
  EXPECT_EQ(rw->runs, 3u);
  EXPECT_EQ(rw->run_pause_ns, 1'000'000'000);
  EXPECT_EQ(rw->benchmark, "granularity");
  EXPECT_EQ(rw->column, "RW");
  EXPECT_EQ(rw->value, "32768");
  for (const char* name : {"granularity-SR/io_size=512", "granularity-SW/io_size=262144",
                           "granularity-RR/io_size=12288"})
    EXPECT_NE(find(plan, name), nullptr) << name;
}

TEST(UflipPlan, EachMicroBenchmarkVariesItsParameter) {
  const std::map<std::string, std::string> first = {
      {"alignment", "alignment-SR/io_shift=0"},
      {"locality", "locality-SR/target_size=32768"},
      {"partitioning", "partitioning-SR/partitions=1"},
      {"order", "order-SR/increment=-1"},
      {"parallelism", "parallelism-SR/processes=1"},
      {"mix", "mix-SR+RR/mix_ratio=1"},
      {"pause", "pause-SR/pause_us=100.000"},
      {"bursts", "bursts-SR/burst=10"}};
  for (const auto& [benchmark, name] : first) {
    const Plan plan = uflip_plan("uflip:" + benchmark, kLarge);
    EXPECT_EQ(plan.experiments.front().name, name);
  }
  const Plan locality = uflip_plan("uflip:locality", kLarge);
  // Rnd: [2^0..2^16] x IOSize, Seq: [2^0..2^8] x IOSize.
  EXPECT_NE(find(locality, "locality-RW/target_size=2147483648"), nullptr);
  EXPECT_EQ(find(locality, "locality-SR/target_size=16777216"), nullptr);
  EXPECT_NE(find(locality, "locality-SR/target_size=8388608"), nullptr);
  const Plan bursts = uflip_plan("uflip:bursts", kLarge);
  EXPECT_EQ(bursts.experiments.front().pause_ns, 100'000'000);  // Pause = 100 ms
  const Plan mix = uflip_plan("uflip:mix", kLarge);
  EXPECT_EQ(mix.experiments.size(), 6u * 7);
  const ExperimentSpec* sr_rw = find(mix, "mix-SR+RW/mix_ratio=64");
  ASSERT_NE(sr_rw, nullptr);
  EXPECT_EQ(sr_rw->mix_pattern, Pattern::kRW);
  EXPECT_EQ(sr_rw->count, 65u * 5120);
  const Plan order = uflip_plan("uflip:order", kLarge);
  EXPECT_EQ(order.experiments.size(), 2u * 11);  // SR and SW only
}

TEST(UflipPlan, AllRunsTheNineMicroBenchmarks) {
  const Plan plan = uflip_plan("uflip:all", kLarge);
  std::vector<std::string> seen;
  for (const auto& spec : plan.experiments)
    if (std::find(seen.begin(), seen.end(), spec.benchmark) == seen.end())
      seen.push_back(spec.benchmark);
  std::sort(seen.begin(), seen.end());
  auto names = uflip_benchmark_names();
  std::sort(names.begin(), names.end());
  EXPECT_EQ(seen, names);
  EXPECT_EQ(names.size(), 9u);
}

TEST(UflipPlan, SequentialWritesComeLastOnDistinctTargets) {
  const Plan plan = uflip_plan("uflip:granularity", kLarge);
  const auto first_sw = std::find_if(plan.experiments.begin(), plan.experiments.end(),
                                     [](const auto& s) { return writes_sequentially(s); });
  ASSERT_NE(first_sw, plan.experiments.end());
  EXPECT_TRUE(std::all_of(first_sw, plan.experiments.end(),
                          [](const auto& s) { return writes_sequentially(s); }));
  // Each SW experiment covers exactly its I/Os, and no two overlap.
  std::uint64_t end = 0;
  for (auto it = first_sw; it != plan.experiments.end(); ++it) {
    EXPECT_EQ(it->target_size, it->count * it->io_size) << it->name;
    EXPECT_GE(it->target_offset, end) << it->name;
    EXPECT_EQ(it->target_offset % kLarge.block_bytes, 0u);
    EXPECT_FALSE(it->reset_state_before) << it->name;  // 32 GiB holds them all
    end = it->target_offset + it->target_size;
  }
  EXPECT_LE(end, kLarge.logical_bytes);
}

TEST(UflipPlan, StateIsEnforcedAgainWhenTargetSpacesRunOut) {
  const Plan plan = uflip_plan("uflip:granularity", kTiny);
  std::size_t resets = 0;
  std::uint64_t used = 0;
  for (const auto& spec : plan.experiments) {
    if (!writes_sequentially(spec)) continue;
    if (spec.reset_state_before) ++resets, used = 0;
    const std::uint64_t span = spec.target_size ? spec.target_size : kTiny.logical_bytes;
    EXPECT_LE(spec.target_offset + span, kTiny.logical_bytes) << spec.name;
    used += span;
    EXPECT_LE(used, kTiny.logical_bytes + kTiny.block_bytes * 17) << spec.name;
  }
  EXPECT_GT(resets, 3u);
}

TEST(UflipPlan, DefaultValuesThatDoNotFitTheDeviceAreLeftOut) {
  // Locality's random range reaches 2^16 x 32 KiB = 2 GiB: past 16 MiB.
  const Plan plan = uflip_plan("uflip:locality", kTiny);
  EXPECT_NE(find(plan, "locality-RW/target_size=16777216"), nullptr);
  EXPECT_EQ(find(plan, "locality-RW/target_size=33554432"), nullptr);
}

TEST(UflipPlan, InlineOverridesApplyToEveryExperiment) {
  const Plan plan = uflip_plan("uflip:parallelism:count=64,runs=1,io_size=8KiB", kLarge);
  ASSERT_FALSE(plan.experiments.empty());
  for (const auto& spec : plan.experiments) {
    EXPECT_EQ(spec.count, 64u);
    EXPECT_EQ(spec.runs, 1u);
    EXPECT_EQ(spec.io_size, 8192u);
  }
}

TEST(UflipPlan, ErrorsNameTheWorkloadAndTheKey) {
  EXPECT_EQ(error_of([] { uflip_plan("uflip:speed", kTiny); }),
            "-w 'uflip:speed': unknown uFLIP micro-benchmark 'speed' (known: granularity, "
            "alignment, locality, partitioning, order, parallelism, mix, pause, bursts, all)");
  EXPECT_EQ(error_of([] { uflip_plan("uflip:granularity:io_size=4096", kTiny); }),
            "-w 'uflip:granularity:io_size=4096': io_size: granularity sets it per experiment; "
            "give values = [...] instead");
  EXPECT_EQ(error_of([] { uflip_plan("uflip:mix:count=0", kTiny); }),
            "-w 'uflip:mix:count=0': count: must be between 1 and 1099511627776 (got 0)");
  EXPECT_THAT(error_of([] { uflip_plan("uflip:pause:bogus=1", kTiny); }),
              ::testing::StartsWith("-w 'uflip:pause:bogus=1': bogus: unknown key"));
}

class UflipPlanFile : public ::testing::Test {
 protected:
  std::string write(const std::string& text) {
    return testing::write_file(testing::temp_dir_for_this_test("uflip-plan") / "plan.toml", text)
        .string();
  }
};

TEST_F(UflipPlanFile, BenchmarkTablesChoosePatternsValuesAndKeys) {
  const std::string path = write(
      "[[benchmark]]\n"
      "name = \"granularity\"\n"
      "patterns = [\"sr\", \"RW\"]\n"
      "values = [\"4KiB\", 65536]\n"
      "count = 100\n"
      "runs = 2\n"
      "\n"
      "[[benchmark]]\n"
      "name = \"mix\"\n"
      "patterns = \"RR+SW\"\n"
      "values = [2]\n"
      "count = 30\n");
  const Plan plan = load_plan(path, kLarge);
  EXPECT_EQ(plan.state, "uflip");
  std::vector<std::string> names;
  for (const auto& spec : plan.experiments) names.push_back(spec.name);
  EXPECT_THAT(names, ElementsAre("granularity-SR/io_size=4096", "granularity-SR/io_size=65536",
                                 "granularity-RW/io_size=4096", "granularity-RW/io_size=65536",
                                 "mix-RR+SW/mix_ratio=2"));
  EXPECT_EQ(plan.experiments[0].count, 100u);
  EXPECT_EQ(plan.experiments[0].runs, 2u);
  EXPECT_EQ(plan.experiments[4].mix_pattern, Pattern::kSW);
  EXPECT_EQ(plan.experiments[4].count, 30u);
}

TEST_F(UflipPlanFile, StateAndMixTableAreRead) {
  const std::string path = write(
      "state = \"none\"\n"
      "[[experiment]]\n"
      "pattern = \"SR\"\n"
      "mix = { pattern = \"RW\", ratio = 8 }\n");
  const Plan plan = load_plan(path, kTiny);
  EXPECT_EQ(plan.state, "none");
  EXPECT_EQ(plan.experiments[0].mix_pattern, Pattern::kRW);
  EXPECT_EQ(plan.experiments[0].mix_ratio, 8u);
}

TEST_F(UflipPlanFile, ImpossibleValuesAreErrorsNamingFileAndLine) {
  const std::string beyond =
      write("[[benchmark]]\nname = \"locality\"\npatterns = [\"RW\"]\nvalues = [\"1GiB\"]\n");
  EXPECT_THAT(
      error_of([&] { load_plan(beyond, kTiny); }),
      HasSubstr(beyond + ":1: target_size: target 0 + 1073741824 bytes ends beyond the device"));
  const std::string column = write("[[benchmark]]\nname = \"order\"\npatterns = [\"RW\"]\n");
  EXPECT_EQ(error_of([&] { load_plan(column, kTiny); }),
            column + ":1: patterns: order has no column 'RW' (it has SR, SW)");
  const std::string zero = write("[[benchmark]]\nname = \"pause\"\ncount = 0\n");
  EXPECT_EQ(error_of([&] { load_plan(zero, kTiny); }),
            zero + ":3: count: must be between 1 and 1099511627776 (got 0)");
  const std::string unnamed = write("[[benchmark]]\ncount = 5\n");
  EXPECT_THAT(error_of([&] { load_plan(unnamed, kTiny); }),
              HasSubstr(unnamed + ":1: benchmark has no name"));
  const std::string mix =
      write("[[experiment]]\npattern = \"SR\"\nmix = { pattern = \"RW\", share = 2 }\n");
  EXPECT_EQ(error_of([&] { load_plan(mix, kTiny); }),
            mix + ":3: mix: unknown key 'share' (known: pattern, ratio)");
}

}  // namespace
}  // namespace ssdlab::workloads

namespace ssdlab::workloads {
namespace {

TEST(ExamplePlans, EveryShippedPlanLoadsForTheBaseline) {
  const auto dir = std::filesystem::path(SSDLAB_SOURCE_DIR) / "workloads" / "plans";
  std::size_t plans = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() != ".toml") continue;
    SCOPED_TRACE(entry.path().string());
    const Plan plan = load_plan(entry.path().string(), kLarge);
    EXPECT_FALSE(plan.experiments.empty());
    for (const auto& spec : plan.experiments)
      EXPECT_NO_THROW(validate_against_device(spec, kLarge.logical_bytes, kLarge.sector_size));
    ++plans;
  }
  EXPECT_GE(plans, 1u);
}

}  // namespace
}  // namespace ssdlab::workloads
