// A zoned device's write buffer (issue 56 item 2, fidelity review G11;
// docs/zns.md, "The write buffer"): power-protected DRAM that acknowledges a
// write or append once its data is in and programs each zone in whole
// stripes (a page, or a one-shot wordline, on every plane of the zone), so
// that zones written at once each program all their dies. A finish flushes
// the zone's pages first, a reset forgets them, a read finds them, a power
// cut loses none, and a volatile buffer is refused.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "common/error.h"
#include "power_cut_support.h"
#include "run_support.h"
#include "sim/config/config.h"
#include "sim/controller/ssd.h"
#include "test_support.h"
#include "zoned_support.h"

namespace ssdlab::sim {
namespace {

using testing::csv_rows;
using testing::read_file;
using testing::run_tiny;
using testing::sim_options;
using testing::summary_of;
using testing::zoned;

constexpr std::uint64_t kPage = 4096;
const std::string kBuffer = "controller.write_buffer=\"256KiB\"";
const std::string kProtected = "controller.write_buffer_power_protected=true";

// tiny as a zoned drive with full-width zones: 4 dies x 2 planes, a stripe
// of 8 pages, zones of 8 blocks (512 KiB).
DeviceConfig full_width(std::vector<std::string> more = {}) {
  std::vector<std::string> overrides = {"ftl.type=\"zoned\"", "ftl.overprovisioning=0.03"};
  overrides.insert(overrides.end(), more.begin(), more.end());
  return load_config(testing::preset("tiny"), overrides);
}

TEST(ZnsBuffer, AppendsAreAcknowledgedOnceTheirDataIsInTheBuffer) {
  const auto dir = testing::temp_dir_for_this_test("zns-buffer-");
  const std::string appends =
      "SW:zones_open=1,zone_append=true,zone_reset=false,io_size=16384,count=40";
  const auto plain =
      csv_rows(read_file(run_tiny(dir, "plain", sim_options(appends, zoned())) / "io.csv"));
  // (640 KiB of appends fit a 1 MiB buffer: none waits for a flush.)
  const auto buffered = csv_rows(read_file(
      run_tiny(dir, "buffered",
               sim_options(appends, zoned({"controller.write_buffer=\"1MiB\"", kProtected}))) /
      "io.csv"));
  ASSERT_EQ(plain.size(), 40u);
  ASSERT_EQ(buffered.size(), 40u);
  // Each buffered append takes its 16 KiB across the host interface into
  // DRAM (write_buffer_ns_per_byte, 3.333 ns: 54.6 us), never a program.
  for (const auto& row : buffered) EXPECT_NEAR(std::stod(row[5]), 16384 * 3.333e-3, 0.01);
  for (const auto& row : plain) EXPECT_GT(std::stod(row[5]), 200.0);  // a program: 200 us
}

// On a device whose zones span every die, zones written in turn put their
// writes on the same planes (docs/zns.md, "Measured"); the buffer gives
// each zone whole stripes, so every plane programs.
TEST(ZnsBuffer, ZonesWrittenAtOnceProgramWholeStripesAndRegainThroughput) {
  const auto dir = testing::temp_dir_for_this_test("zns-buffer-");
  // (A bus fast enough that the planes' programs, not the channels, bound
  // the writes: 94 MB/s without the buffer, 126 with it.)
  const std::string writes = "SW:zones_open=4,queue_depth=8,io_size=12288,count=3000";
  const std::vector<std::string> width = {"ftl.zone_width=0", "timing.bus_ns_per_byte=1"};
  std::vector<std::string> buffered = zoned({"ftl.zone_width=0", "timing.bus_ns_per_byte=1",
                                             "controller.write_buffer=\"1MiB\"", kProtected});
  const auto plain_run = summary_of(
      run_tiny(dir, "plain", sim_options(writes, zoned(width))))["experiments"][0]["runs"][0];
  const auto summary = summary_of(run_tiny(dir, "buffered", sim_options(writes, buffered)));
  const auto run = summary["experiments"][0]["runs"][0];
  EXPECT_GT(run["mb_per_s"].get<double>(), 1.25 * plain_run["mb_per_s"].get<double>());
  EXPECT_EQ(summary["device"]["write_amplification"], 1.0);

  // The same writes on an Ssd: every zone's pages on flash are whole
  // stripes of 8 (writes of 3 pages leave the rest in DRAM).
  Ssd ssd(full_width({kBuffer, kProtected}), {.verify = true});
  const ftl::ZonedDevice& zones = ssd.zoned()->front().device();
  TimeNs now = 0;
  std::vector<std::uint64_t> written(4, 0);
  for (int i = 0; i < 400; ++i) {
    const std::uint64_t zone = i % 4;
    if (written[zone] + 3 > zones.capacity_pages()) continue;
    const std::uint64_t offset = (zone * zones.zone_pages() + written[zone]) * kPage;
    now = *ssd.start(HostIo{offset, 3 * kPage, IoMode::kWrite}, now);
    written[zone] += 3;
  }
  ssd.idle(now, now + 1'000'000'000);  // whole stripes only: a zone's partial one stays
  for (std::uint64_t zone = 0; zone < 4; ++zone) {
    std::uint64_t on_flash = 0;
    for (std::uint64_t p = 0; p < zones.zone_pages(); ++p)
      on_flash += ssd.ftl().is_mapped(zone * zones.zone_pages() + p);
    EXPECT_EQ(on_flash % 8, 0u) << "zone " << zone;
    EXPECT_LT(written[zone] - on_flash, 8u) << "zone " << zone;
  }
}

TEST(ZnsBuffer, AFinishFlushesTheZoneAndAResetForgetsItsBufferedPages) {
  Ssd ssd(full_width({kBuffer, kProtected, "ftl.zone_finish=\"pad\""}), {.verify = true});
  const std::uint64_t zone_bytes = ssd.zoned()->front().zone_bytes();
  TimeNs now = *ssd.start(HostIo{0, 3 * kPage, IoMode::kWrite}, 0);
  now = *ssd.start(HostIo{zone_bytes, 5 * kPage, IoMode::kWrite}, now);
  EXPECT_FALSE(ssd.ftl().is_mapped(0));  // in DRAM: no whole stripe yet
  EXPECT_EQ(ssd.write_buffer()->held(), 8u);
  // A read finds them there.
  now = *ssd.start(HostIo{kPage, kPage, IoMode::kRead}, now);
  EXPECT_EQ(ssd.write_buffer()->stats().read_hit_pages, 1u);
  // A finish writes the zone's 3 pages, then pads the rest.
  now = *ssd.start(HostIo{0, static_cast<std::uint32_t>(zone_bytes), IoMode::kZoneFinish}, now);
  for (ftl::Lpn lpn = 0; lpn < 3; ++lpn) EXPECT_TRUE(ssd.ftl().is_mapped(lpn));
  EXPECT_EQ(ssd.zoned()->front().device().zone_counters().finish_padding_pages,
            ssd.zoned()->front().device().capacity_pages() - 3);
  // A reset of the other zone forgets its buffered pages: none reaches flash.
  now = *ssd.start(HostIo{zone_bytes, static_cast<std::uint32_t>(zone_bytes), IoMode::kZoneReset},
                   now);
  EXPECT_EQ(ssd.write_buffer()->held(), 0u);
  ssd.idle(now, now + 1'000'000'000);
  const std::uint64_t first = zone_bytes / kPage;
  for (ftl::Lpn lpn = first; lpn < first + 5; ++lpn) EXPECT_FALSE(ssd.ftl().is_mapped(lpn));
  ssd.ftl().check_invariants();
}

TEST(ZnsBuffer, APowerCutLosesNoWriteTheBufferAcknowledged) {
  Ssd ssd(load_config(testing::preset("tiny"), zoned({kBuffer, kProtected})));
  ssd.enable_power_cuts();
  const testing_power::CutTotals totals = testing_power::run_with_cuts(
      ssd, "SW:zones_open=3,zone_append=true,queue_depth=6,io_size=8192,count=4000", 30, 4);
  EXPECT_EQ(totals.cuts, 30u);
  EXPECT_EQ(totals.recovered, 30u);
  EXPECT_EQ(totals.lost, 0u);
  EXPECT_NO_THROW(ssd.ftl().check_invariants());
}

TEST(ZnsBuffer, AVolatileBufferIsRefusedWithTheKeyToSet) {
  try {
    Ssd ssd(load_config(testing::preset("tiny"), zoned({kBuffer})));
    FAIL() << "a zoned device took a volatile write-back buffer";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("controller.write_buffer_power_protected"),
              std::string::npos)
        << e.what();
  }
  // Write-through keeps nothing the host was told is written.
  EXPECT_NO_THROW(
      Ssd(load_config(testing::preset("tiny"),
                      zoned({kBuffer, "controller.write_buffer_policy=\"write-through\""}))));
}

}  // namespace
}  // namespace ssdlab::sim
