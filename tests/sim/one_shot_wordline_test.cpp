// One-shot wordlines as the unit of durability (issue 54 item 1, fidelity
// review G1): no page of a one-shot TLC wordline is on flash before the
// wordline's one program ends, so a write completes no earlier than that
// unless a write buffer acknowledges it; a wordline the controller cannot
// fill is padded (counted); a buffer's flushes give whole wordlines; a cut
// before the program ends loses the wordline's staged pages, none of which
// was acknowledged.
#include <gtest/gtest.h>

#include <map>
#include <random>
#include <string>
#include <vector>

#include "ftl/ftl.h"
#include "sim/config/config.h"
#include "sim/controller/power_cut.h"
#include "sim/controller/ssd.h"
#include "sim/report/device_snapshot.h"
#include "test_support.h"

namespace ssdlab::sim {
namespace {

constexpr std::uint64_t kPage = 4096;
constexpr TimeNs kWordlineProgram = 1'500'000;  // tiny-tlc's program_us

DeviceConfig tiny_tlc(std::vector<std::string> overrides = {}) {
  return load_config(testing::preset("tiny-tlc"), overrides);
}

TEST(OneShotWordlines, TheConfigSaysHowManyPagesAWordlineProgramsAtOnce) {
  EXPECT_EQ(tiny_tlc().ftl.wordline_pages, 3u);
  EXPECT_EQ(
      tiny_tlc({"timing.cell.program=\"multi-pass\"", "timing.cell.program_us=[500, 1000, 1500]"})
          .ftl.wordline_pages,
      1u);
  EXPECT_EQ(load_config(testing::preset("tiny"), {}).ftl.wordline_pages, 1u);
  // Only the FTLs that pad a wordline make it the unit: the zoned FTL takes a
  // page as on flash when its transfer ends (docs/model.md).
  EXPECT_EQ(tiny_tlc({"ftl.type=\"dftl\""}).ftl.wordline_pages, 3u);
  EXPECT_EQ(load_config(testing::preset("zns"), {}).ftl.wordline_pages, 1u);
}

// ... and a power cut on it finds every acknowledged write (the recorder
// tears staged pages only where the FTL acknowledges whole wordlines).
TEST(OneShotWordlines, AZonedDeviceKeepsItsAcknowledgedWritesAcrossACut) {
  for (TimeNs at = 200'000; at < 3'000'000; at += 200'000) {
    Ssd ssd(load_config(testing::preset("zns"), {"geometry.blocks_per_plane=24"}));
    ssd.enable_power_cuts();
    TimeNs now = 0;
    for (std::uint64_t i = 0; now < at; ++i)
      now = *ssd.start(HostIo{i * 16384, 16384, IoMode::kWrite}, now);
    const PowerCutReport cut = ssd.power_cut(at);
    EXPECT_EQ(cut.lost_writes, 0u) << "cut at " << at << " ns: " << cut.first_problem;
  }
}

// Without a buffer, no write completes before a wordline program: each one
// pays its own, padded with two pages (before, the lower and middle pages
// completed when their transfer ended).
TEST(OneShotWordlines, WithoutABufferEveryWriteWaitsForItsWordlineProgram) {
  Ssd ssd(tiny_tlc(), {.verify = true});
  std::mt19937_64 rng(5);
  TimeNs now = 0;
  for (int i = 0; i < 300; ++i) {
    const TimeNs done = *ssd.start(HostIo{rng() % 4096 * kPage, kPage, IoMode::kWrite}, now);
    ASSERT_GE(done - now, kWordlineProgram) << "write " << i;
    now = done;
  }
  const ftl::FtlStats& s = ssd.ftl().stats();
  EXPECT_EQ(s.padding_pages, 2 * s.host_pages_written);
  EXPECT_EQ(device_counters_of(ssd).cell->wordline_programs, s.host_pages_written);
}

// A write buffer acknowledges writes from DRAM and flushes whole wordlines
// (one on each plane of a pool): sequential pages cost a wordline program
// per three, with no padding, and the idle flush pads only what is left.
TEST(OneShotWordlines, AWriteBufferFlushesWholeWordlines) {
  Ssd ssd(tiny_tlc({"controller.write_buffer=\"1MiB\""}), {.verify = true});
  TimeNs now = 0;
  for (std::uint64_t page = 0; page < 384; ++page)
    now = *ssd.start(HostIo{page * kPage, kPage, IoMode::kWrite}, now);
  ssd.idle(now, now + 1'000'000'000);
  const ftl::FtlStats& s = ssd.ftl().stats();
  EXPECT_EQ(s.host_pages_written, 384u);
  EXPECT_EQ(s.padding_pages, 0u);
  EXPECT_EQ(device_counters_of(ssd).cell->wordline_programs, 128u);
}

// Cleaning pads the wordline its moves left open before the victim's erase
// (its data must be on flash before its other copy is erased): after every
// FTL call, each block cleaning programmed holds whole wordlines, while a
// host block may stay open until the controller closes it.
TEST(OneShotWordlines, CleaningClosesItsWordlinesBeforeTheErase) {
  const DeviceConfig config = tiny_tlc();
  const auto ftl = ftl::make_ftl({config.geometry, config.ftl, 0});
  const flash::Geometry& g = config.geometry;
  std::mt19937_64 rng(9);
  flash::CommandList out;
  std::uint64_t cleaning_blocks = 0, open_host_blocks = 0;
  std::map<flash::BlockId, bool> last_by_cleaning;  // per block programmed, its last program's
  for (int i = 0; i < 20000; ++i) {
    out.clear();
    ftl->write({static_cast<ftl::Lpn>(rng() % ftl->logical_pages()), 1, false, false}, out);
    last_by_cleaning.clear();
    for (const flash::Command& command : out) {
      if (command.op == flash::Op::kErase)
        last_by_cleaning.erase(g.block_of(command.ppn));  // (it may be written again)
      else if (command.op != flash::Op::kRead)
        last_by_cleaning[g.block_of(command.ppn)] = command.cleaning;
    }
    for (const auto& [block, cleaning] : last_by_cleaning) {
      const std::uint32_t next = ftl->nand().write_pointer(block);
      if (cleaning) {
        ++cleaning_blocks;
        ASSERT_EQ(next % 3, 0u) << "write " << i << ": block " << block
                                << ", which cleaning programmed, is open";
      } else {
        open_host_blocks += next % 3 != 0;
      }
    }
  }
  EXPECT_GT(ftl->stats().blocks_cleaned, 100u);
  EXPECT_GT(cleaning_blocks, 300u);    // (blocks checked after a call)
  EXPECT_GT(open_host_blocks, 1000u);  // (what the controller's close_wordlines() is for)
  ftl->check_invariants();
}

// The same overwrites through the controller, with a buffer: every read
// returns the latest write (the verifier), the padding a small share.
TEST(OneShotWordlines, OverwritesThroughABufferReadBackVerified) {
  Ssd ssd(tiny_tlc({"controller.write_buffer=\"256KiB\""}),
          {.verify = true, .invariants_every = 500});
  std::mt19937_64 rng(9);
  TimeNs now = 0;
  const std::uint64_t pages = ssd.logical_bytes() / kPage;
  for (int i = 0; i < 40000; ++i) {
    const IoMode mode = i % 4 == 3 ? IoMode::kRead : IoMode::kWrite;
    now = *ssd.start(HostIo{rng() % pages * kPage, kPage, mode}, now);
  }
  ssd.idle(now, now + 1'000'000'000);
  const ftl::FtlStats& s = ssd.ftl().stats();
  ASSERT_GT(s.blocks_cleaned, 10u);
  EXPECT_GT(ssd.core().observers().verified_pages(), 5000u);
  EXPECT_LT(s.padding_pages, s.flash_pages_written / 10);
  ssd.ftl().check_invariants();
}

// A buffer over an SLC cache flushes a page per plane while the cache
// takes the writes and a wordline per plane after it: across the cache's
// end every page reads back (the verifier checks each read).
TEST(OneShotWordlines, AFlushAcrossTheCachesEndLosesNoPage) {
  Ssd ssd(tiny_tlc({"controller.write_buffer=\"256KiB\"", "slc_cache.mode=\"dynamic\"",
                    "slc_cache.size_gib=0.004"}),
          {.verify = true, .invariants_every = 200});
  TimeNs now = 0;
  const std::uint64_t pages = ssd.logical_bytes() / kPage;
  for (std::uint64_t page = 0; page < pages / 2; ++page)
    now = *ssd.start(HostIo{page * kPage, kPage, IoMode::kWrite}, now);
  ssd.idle(now, now + 1'000'000'000);
  now += 1'000'000'000;
  for (std::uint64_t page = 0; page < pages / 2; ++page)
    now = *ssd.start(HostIo{page * kPage, kPage, IoMode::kRead}, now);
  EXPECT_GE(ssd.core().observers().verified_pages(),
            pages / 2);  // (cleaning's moves are checked too)
  EXPECT_GT(ssd.ftl().part_records().slc_cache->host_pages_bypassed, pages / 4);  // past the cache
  ssd.ftl().check_invariants();
}

// One write of three pages fills one wordline: a cut after the lower and
// middle pages came in, during the wordline's program, loses all three (the
// program is torn, the staged pages with it), none of them acknowledged.
TEST(OneShotWordlines, ACutDuringTheWordlineProgramLosesItsStagedPagesUnacknowledged) {
  Ssd ssd(testing::one_plane_tlc());
  ssd.enable_power_cuts();
  const TimeNs done = *ssd.start(HostIo{0, 3 * kPage, IoMode::kWrite}, 0);
  ASSERT_GE(done, kWordlineProgram);
  const PowerCutReport cut = ssd.power_cut(done - kWordlineProgram / 2);
  EXPECT_EQ(cut.torn_pages, 1u);         // the upper page's program, the wordline's
  EXPECT_EQ(cut.paired_pages_lost, 2u);  // the lower and middle pages staged for it
  EXPECT_EQ(cut.writes_in_flight, 1u);
  EXPECT_EQ(cut.lost_writes, 0u);
  EXPECT_TRUE(cut.recovered());
}

}  // namespace
}  // namespace ssdlab::sim
