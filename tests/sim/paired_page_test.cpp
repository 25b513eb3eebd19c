// Paired page loss (issue 54 item 2, fidelity review G13): on cells
// programmed in several passes, a cut during a wordline's later pass
// corrupts the pages its earlier passes wrote; an FTL that acknowledged them
// when their own pass ended has lost them, unless a power-protected buffer
// holds the device up until the pass ends. One-shot wordlines lose the
// pages staged for their one program with it, but a controller without a
// buffer acknowledges none of them before it ends (one_shot_wordline_test.cpp).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "sim/config/config.h"
#include "sim/controller/power_cut.h"
#include "sim/controller/ssd.h"
#include "test_support.h"

namespace ssdlab::sim {
namespace {

using testing::one_plane_tlc;

const std::vector<std::string> kMultiPass = {"timing.cell.program=\"multi-pass\"",
                                             "timing.cell.program_us=[500, 1000, 1500]"};

// Writes logical pages 0, 1 and 2 one after the other (queue depth 1) and
// cuts the power 1 us before the third write, the wordline's upper page,
// completes.
PowerCutReport cut_during_the_upper_page(const DeviceConfig& config) {
  Ssd ssd(config);
  ssd.enable_power_cuts();
  TimeNs now = 0, done = 0;
  for (std::uint64_t page = 0; page < 3; ++page) {
    now = done;
    done = *ssd.start(HostIo{page * 4096, 4096, IoMode::kWrite}, now);
  }
  return ssd.power_cut(done - 1000);
}

TEST(PairedPages, ACutDuringTheUpperPassLosesTheAcknowledgedLowerAndMiddlePages) {
  const PowerCutReport cut = cut_during_the_upper_page(one_plane_tlc(kMultiPass));
  EXPECT_EQ(cut.torn_pages, 1u);         // the upper page's own program
  EXPECT_EQ(cut.paired_pages_lost, 2u);  // its wordline's lower and middle pages
  // Both were acknowledged when their own passes ended: the check finds
  // them lost, as it must when an FTL acknowledges them without a buffer.
  EXPECT_EQ(cut.lost_writes, 2u);
  EXPECT_FALSE(cut.recovered());
}

// One-shot: each write was padded to a wordline of its own and acknowledged
// when it was programmed; the cut tears the third one's program and the
// two pages staged for it (its page and a padding page), none acknowledged.
TEST(PairedPages, OneShotWordlinesLoseOnlyTheWordlineInFlight) {
  const PowerCutReport cut = cut_during_the_upper_page(one_plane_tlc({}));
  EXPECT_EQ(cut.torn_pages, 1u);
  EXPECT_EQ(cut.paired_pages_lost, 2u);
  EXPECT_EQ(cut.lost_writes, 0u);
  EXPECT_TRUE(cut.recovered());
}

TEST(PairedPages, APowerProtectedBufferLosesNoPairedPage) {
  std::vector<std::string> overrides = kMultiPass;
  overrides.emplace_back("controller.write_buffer=\"64KiB\"");
  overrides.emplace_back("controller.write_buffer_power_protected=true");
  const PowerCutReport cut = cut_during_the_upper_page(one_plane_tlc(overrides));
  EXPECT_EQ(cut.paired_pages_lost, 0u);
  EXPECT_EQ(cut.lost_writes, 0u);
  EXPECT_EQ(cut.buffered_writes_lost, 0u);
}

// A later pass on a block in SLC mode (an SLC cache) pairs nothing: one bit
// per cell is one pass.
TEST(PairedPages, SlcModeBlocksPairNothing) {
  std::vector<std::string> overrides = kMultiPass;
  overrides.emplace_back("slc_cache.mode=\"static\"");
  overrides.emplace_back("slc_cache.size_gib=0.0005");
  const PowerCutReport cut = cut_during_the_upper_page(one_plane_tlc(overrides));
  EXPECT_EQ(cut.paired_pages_lost, 0u);
  EXPECT_EQ(cut.lost_writes, 0u);
}

}  // namespace
}  // namespace ssdlab::sim
