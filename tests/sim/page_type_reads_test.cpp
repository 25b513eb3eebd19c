// Reads by page type (summary.json's read_latency_by_page_type): on cells of
// several bits each served read is counted under the page type it waited for
// in the array, blocks in SLC mode apart; SLC cells have no such block.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "run_support.h"

namespace ssdlab::sim {
namespace {

namespace support = ssdlab::testing;

class PageTypeReadsRun : public ::testing::Test {
 protected:
  void SetUp() override { dir_ = support::temp_dir_for_this_test("page-type-reads-"); }
  // Run 0 of the first experiment of `preset` with `options`.
  nlohmann::json Run(const std::string& preset, const std::string& name, SimOptions options,
                     const std::string& trace = "") {
    options.state_cache = false;
    options.quiet = true;
    std::ostringstream out;
    std::vector<std::string> workloads{trace.empty() ? options.workload : "trace:" + trace};
    support::sim_preset(preset, dir_ / name, options, workloads, TraceOptions{}, out);
    return nlohmann::json::parse(
        support::read_file(dir_ / name / "summary.json"))["experiments"][0]["runs"][0];
  }
  std::filesystem::path dir_;
};

TEST_F(PageTypeReadsRun, TlcReadsAreCountedByTheirPageTypeAtTheirArrayTimes) {
  SimOptions options;
  options.precondition = "random";
  options.workload = "RR:count=3000,queue_depth=1";
  const nlohmann::json run = Run("tiny-tlc", "tlc", options);
  const nlohmann::json& types = run["read_latency_by_page_type"];
  ASSERT_EQ(types.size(), 3u) << run.dump();
  EXPECT_EQ(types[0]["page_type"], "lower");
  EXPECT_EQ(types[1]["page_type"], "middle");
  EXPECT_EQ(types[2]["page_type"], "upper");
  std::uint64_t reads = 0;
  for (const auto& type : types) {
    reads += type["reads"].get<std::uint64_t>();
    // Alone at queue depth 1, every read of a type takes the same time.
    EXPECT_DOUBLE_EQ(type["mean_us"].get<double>(), type["max_us"].get<double>());
  }
  EXPECT_EQ(reads, run["count"].get<std::uint64_t>());
  // tiny-tlc's array reads: lower < middle < upper (configs/tiny-tlc.toml).
  EXPECT_LT(types[0]["mean_us"].get<double>(), types[1]["mean_us"].get<double>());
  EXPECT_LT(types[1]["mean_us"].get<double>(), types[2]["mean_us"].get<double>());
}

TEST_F(PageTypeReadsRun, ReadsOfBlocksInSlcModeAreAClassOfTheirOwn) {
  // 256 pages written into a static SLC cache too small for them all, then
  // read back: some reads find their page still in an SLC-mode block.
  std::string trace = "experiment,run,process,io,submit_us,rt_us,mode,offset,size\n";
  for (int i = 0; i < 256; ++i)
    trace += fmt::format("wr,0,0,{},{}.000,1.000,W,{},4096\n", i, i * 100, i * 4096);
  for (int i = 0; i < 256; ++i)
    trace += fmt::format("wr,0,0,{},{}.000,1.000,R,{},4096\n", 256 + i, 30000 + i * 300, i * 4096);
  const auto path = support::write_file(dir_ / "write-read.csv", trace);
  SimOptions options;
  options.overrides = {"slc_cache.size_gib=0.002", "slc_cache.mode=\"static\""};
  const nlohmann::json run = Run("tiny-tlc", "slc", options, path.string());
  std::uint64_t reads = 0, slc = 0;
  for (const auto& type : run["read_latency_by_page_type"]) {
    reads += type["reads"].get<std::uint64_t>();
    if (type["page_type"] == "slc") slc = type["reads"].get<std::uint64_t>();
  }
  EXPECT_EQ(reads, 256u);
  EXPECT_GT(slc, 0u);
  EXPECT_LT(slc, 256u);
}

TEST_F(PageTypeReadsRun, SlcCellsHaveNoPageTypes) {
  SimOptions options;
  options.workload = "RR:count=200,queue_depth=1";
  EXPECT_FALSE(Run("tiny", "slc-cells", options).contains("read_latency_by_page_type"));
}

}  // namespace
}  // namespace ssdlab::sim
