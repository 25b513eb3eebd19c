// Placement identifiers from the plan key placement_id (docs/fdp.md): an
// experiment's writes reach the FTL with its handle, alone and as tenants;
// summary.json's fdp block says so, and only with placement on.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "run_support.h"
#include "test_support.h"

namespace ssdlab {
namespace {

using ::testing::HasSubstr;

const std::vector<std::string> kFdp = {"ftl.placement=\"fdp\"", "ftl.fdp_handles=3"};

std::vector<std::string> with(std::vector<std::string> sets, const std::vector<std::string>& more) {
  sets.insert(sets.end(), more.begin(), more.end());
  return sets;
}

// `ssdlab sim` on tiny with these --set overrides and workloads (-w; several:
// tenants) into dir/name, in-process; expects it to succeed and returns the
// folder, and in `output` what it printed and logged.
std::filesystem::path sim_tiny(const std::filesystem::path& dir, const std::string& name,
                               const std::vector<std::string>& overrides,
                               const std::vector<std::string>& workloads,
                               std::string* output = nullptr) {
  const auto result = testing::in_process_with_stderr([&](std::ostream& out) {
    testing::sim_preset("tiny", dir / name, testing::sim_options("", overrides), workloads, {},
                        out);
  });
  EXPECT_EQ(result.exit_code, 0) << result.output;
  if (output) *output = result.output;
  return dir / name;
}

TEST(FdpRunTest, AnExperimentsPlacementIdIsItsWritesHandle) {
  const auto dir = testing::temp_dir_for_this_test("fdp-run-");
  const auto out = sim_tiny(dir, "one", kFdp, {"RW:count=500,placement_id=2"});
  const nlohmann::json fdp = testing::summary_of(out)["fdp"];
  EXPECT_EQ(fdp["mode"], "fdp");
  EXPECT_EQ(fdp["handles"][2]["host_pages"], 500);
  EXPECT_EQ(fdp["handles"][0]["host_pages"], 0);
  EXPECT_GT(fdp["host_bytes_written"], 0);
}

TEST(FdpRunTest, EachTenantWritesWithItsOwnHandle) {
  const auto dir = testing::temp_dir_for_this_test("fdp-tenants-");
  const auto out = sim_tiny(dir, "two", kFdp,
                            {"RW:count=300,target_size=1MiB,placement_id=1,name=hot",
                             "SW:count=200,target_offset=2MiB,target_size=4MiB,name=cold"});
  const nlohmann::json fdp = testing::summary_of(out)["fdp"];
  EXPECT_EQ(fdp["handles"][1]["host_pages"], 300);
  EXPECT_EQ(fdp["handles"][0]["host_pages"], 200);
  EXPECT_GT(fdp["handle_changes"], 0);
}

// A write buffer flushes with the default handle (issue 53 item 1's rest):
// the identifiers are lost there, and the run says so (issue 57 item 2: a
// warning wherever an identifier is dropped), once.
// A write-back buffer keeps each page's handle until its flush (issue 53
// item 1: the flushes used handle 0, and a warning said so): two tenants
// of handles 1 and 2 behind a buffer fill their own handles, and every page
// the buffer flushed reached flash under one of them.
TEST(FdpRunTest, AWriteBufferFlushesEachPageWithItsHandle) {
  const auto dir = testing::temp_dir_for_this_test("fdp-buffer-");
  std::string output;
  sim_tiny(dir, "buffered", with(kFdp, {"controller.write_buffer=1MiB"}),
           {"RW:count=500,placement_id=2,name=two", "RW:count=500,placement_id=1,name=one"},
           &output);
  EXPECT_EQ(output.find("placement identifier"), std::string::npos) << output;
  const nlohmann::json summary = testing::summary_of(dir / "buffered");
  const nlohmann::json& handles = summary["fdp"]["handles"];
  EXPECT_EQ(handles[0]["host_pages"], 0);
  EXPECT_GT(handles[1]["host_pages"], 0);
  EXPECT_GT(handles[2]["host_pages"], 0);
  const std::uint64_t flushed = summary["device"]["write_buffer_flushed_pages"];
  EXPECT_GT(flushed, 0u);
  EXPECT_EQ(handles[1]["host_pages"].get<std::uint64_t>() +
                handles[2]["host_pages"].get<std::uint64_t>(),
            flushed);
  // Write-through sends every write to flash with its identifier.
  sim_tiny(dir, "through",
           with(kFdp, {"controller.write_buffer=1MiB",
                       "controller.write_buffer_policy=\"write-through\""}),
           {"RW:count=300,placement_id=2"});
  EXPECT_EQ(testing::summary_of(dir / "through")["fdp"]["handles"][2]["host_pages"], 300);
}

// With a host link, a request crosses it before the controller starts it:
// its handle (and its tenant) must cross with it.
TEST(FdpRunTest, TheHandleCrossesTheHostLink) {
  const auto dir = testing::temp_dir_for_this_test("fdp-link-");
  const auto out =
      sim_tiny(dir, "link", with(kFdp, {"host.link.generation=3", "host.link.lanes=1"}),
               {"RW:count=300,target_size=1MiB,placement_id=1,name=hot",
                "SW:count=200,target_offset=2MiB,target_size=4MiB,placement_id=2,name=cold"});
  const nlohmann::json fdp = testing::summary_of(out)["fdp"];
  EXPECT_EQ(fdp["handles"][1]["host_pages"], 300);
  EXPECT_EQ(fdp["handles"][2]["host_pages"], 200);
  EXPECT_EQ(fdp["handles"][0]["host_pages"], 0);
}

TEST(FdpRunTest, WithoutPlacementTheSummaryHasNoFdpBlock) {
  const auto dir = testing::temp_dir_for_this_test("fdp-none-");
  const auto out = sim_tiny(dir, "none", {}, {"RW:count=100"});
  EXPECT_FALSE(testing::summary_of(out).contains("fdp"));
}

TEST(FdpRunTest, APlacementIdAbove255IsRefused) {
  const auto result = testing::in_process([](std::ostream&) {
    testing::run_tiny(testing::temp_dir("fdp-bad"), "x",
                      testing::sim_options("RW:count=10,placement_id=256"));
  });
  EXPECT_NE(result.exit_code, 0);
  EXPECT_THAT(result.output, HasSubstr("placement_id"));
}

}  // namespace
}  // namespace ssdlab
