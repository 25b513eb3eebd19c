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

// The identifier takes HostIo::placement's low seven bits (the eighth
// carries a Reclaim Unit Handle Update).
TEST(FdpRunTest, APlacementIdAbove127IsRefused) {
  const auto result = testing::in_process([](std::ostream&) {
    testing::run_tiny(testing::temp_dir("fdp-bad"), "x",
                      testing::sim_options("RW:count=10,placement_id=128"));
  });
  EXPECT_NE(result.exit_code, 0);
  EXPECT_THAT(result.output, HasSubstr("placement_id: must be between 0 and 127 (got 128)"));
}

// ruh_update_every (issue 56 item 1): an I/O Management Send before every
// 100th write of the process moves its handle to new reclaim units; the
// summary counts them, the events, and each handle's status. The other
// handles are left alone, and the rest of the run is the same I/Os.
TEST(FdpRunTest, RuhUpdateEveryMovesTheHandleToNewReclaimUnits) {
  const auto dir = testing::temp_dir_for_this_test("fdp-ruh-");
  const auto plain = sim_tiny(dir, "plain", kFdp, {"SW:count=1000,placement_id=1"});
  const auto updated =
      sim_tiny(dir, "updated", kFdp, {"SW:count=1000,placement_id=1,ruh_update_every=100"});
  const nlohmann::json before = testing::summary_of(plain)["fdp"];
  const nlohmann::json after = testing::summary_of(updated)["fdp"];
  EXPECT_EQ(before["ruh_updates"], 0);
  EXPECT_EQ(after["ruh_updates"], 9);  // before writes 100, 200, ..., 900
  EXPECT_EQ(after["events"][0]["type"], 0);
  EXPECT_EQ(after["events"][0]["name"], "Reclaim Unit Not Fully Written");
  // Each update closes the handle's reclaim unit in the groups it had data in.
  EXPECT_GE(after["events"][0]["count"].get<int>(), 9);
  EXPECT_LE(after["events"][0]["count"].get<int>(), 18);
  EXPECT_EQ(before["events"][0]["count"], 0);
  EXPECT_GT(after["ru_unwritten_bytes"].get<std::uint64_t>(), 0u);
  EXPECT_GT(after["handles"][1]["blocks_opened"].get<int>(),
            before["handles"][1]["blocks_opened"].get<int>());
  EXPECT_EQ(after["handles"][1]["host_pages"], 1000);
  EXPECT_EQ(after["reclaim_groups"], 2);
  EXPECT_EQ(after["reclaim_unit_nominal_size"], 4 * 16 * 4096);
  ASSERT_EQ(after["handle_status"].size(), 6u);  // 3 handles x 2 groups
  for (const nlohmann::json& status : after["handle_status"])
    if (status["placement_id"] != 1)
      EXPECT_EQ(status["available_media_writes"], 4 * 16 * 4096) << status;
}

// The data an update leaves in closed reclaim units is read back as
// written (--verify), and a run with a write buffer flushes before each update.
TEST(FdpRunTest, RuhUpdatesLoseNoData) {
  const auto dir = testing::temp_dir_for_this_test("fdp-ruh-verify-");
  for (const char* buffer : {"0", "256KiB"}) {
    auto options = testing::sim_options(
        "RW:count=20000,queue_depth=4,placement_id=2,ruh_update_every=64",
        with(kFdp, {std::string("controller.write_buffer=\"") + buffer + "\""}));
    options.precondition = "seq";
    options.verify = true;
    std::string printed;
    const auto out = testing::run_tiny(dir, std::string("verify-") + buffer, options, &printed);
    EXPECT_NE(printed.find("all correct"), std::string::npos) << printed;
    const nlohmann::json summary = testing::summary_of(out);
    EXPECT_GT(summary["verification"]["pages_checked"].get<std::uint64_t>(), 1000u) << buffer;
    EXPECT_GT(summary["fdp"]["ruh_updates"].get<int>(), 300) << buffer;
    EXPECT_GT(summary["device"]["blocks_cleaned"].get<int>(), 100) << buffer;
  }
}

TEST(FdpRunTest, RuhUpdateEveryNeedsFdp) {
  for (const char* placement : {"none", "streams"}) {
    const auto result = testing::in_process([&](std::ostream& out) {
      testing::sim_preset(
          "tiny", testing::temp_dir("fdp-ruh-refused"),
          testing::sim_options("", {std::string("ftl.placement=\"") + placement + "\""}),
          {"RW:count=10,ruh_update_every=5"}, {}, out);
    });
    EXPECT_NE(result.exit_code, 0) << placement;
    EXPECT_THAT(result.output, HasSubstr("ruh_update_every 5: a Reclaim Unit Handle Update needs "
                                         "FDP's reclaim unit handles"))
        << placement;
  }
}

}  // namespace
}  // namespace ssdlab
