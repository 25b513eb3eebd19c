// A summary page per block (ftl.summary_page; Agrawal et al. §3.4, DiskSim
// ssd.h:396, ssd_timing.c:360-372): the key's checks, the block's last page
// programmed as a one-sector summary when its last data page is, the
// capacity without it, the write latency it adds, the verification run, and
// the mount that reads one summary page per closed block.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "common/error.h"
#include "common/rng.h"
#include "ftl/ftl.h"
#include "ftl/oob_scan.h"
#include "ftl/page_mapped/page_mapped_keys.h"
#include "ftl/verifier.h"
#include "sim/controller/power_cut.h"
#include "sim/controller/ssd.h"
#include "test_support.h"

namespace ssdlab::sim {
namespace {

using ::testing::HasSubstr;

DeviceConfig tiny(const std::string& ftl, bool summary, std::vector<std::string> overrides = {}) {
  overrides.push_back("ftl.type=\"" + ftl + "\"");
  if (summary) overrides.push_back("ftl.summary_page=true");
  return load_config(testing::preset("tiny"), overrides);
}

std::string error_of(const std::string& ftl, std::vector<std::string> overrides) {
  try {
    tiny(ftl, true, std::move(overrides));
  } catch (const Error& error) {
    return error.what();
  }
  ADD_FAILURE() << ftl << " loaded without an error";
  return "";
}

TEST(SummaryPage, KeyIsRefusedWhereItDoesNotApply) {
  for (const char* ftl : {"block-mapped", "bast", "fast"})
    EXPECT_THAT(error_of(ftl, {}), HasSubstr("ftl.summary_page")) << ftl;
  EXPECT_THAT(
      error_of("page-mapped", {"ftl.logical_page_size=\"8KiB\"", "ftl.stripe_size=\"8KiB\""}),
      HasSubstr("logical_page_size"));
  EXPECT_FALSE(tiny("page-mapped", false).ftl.keys.get<ftl::PageMappedKeys>().summary_page);
  EXPECT_TRUE(tiny("dftl", true).ftl.keys.get<ftl::PageMappedKeys>().summary_page);
}

// 512 data bytes and their 16-byte share of the 128-byte OOB of a 4 KiB page
// (DiskSim ssd.h:225-227); a block of more than 64 pages needs more sectors.
TEST(SummaryPage, TransfersOneSectorWithItsShareOfTheOob) {
  flash::Geometry g = tiny("page-mapped", true).geometry;
  g.pages_per_block = 64;
  EXPECT_EQ(ftl::summary_page_bytes(g, 512), 528u);
  g.pages_per_block = 128;
  EXPECT_EQ(ftl::summary_page_bytes(g, 512), 2 * 528u);
}

// Sequential host writes: each block takes pages_per_block - 1 data pages;
// the write of the last one also programs the summary page, in its stage,
// one sector over the bus; capacity counts data pages only.
TEST(SummaryPage, TheLastDataPageOfABlockProgramsItsSummaryPage) {
  const DeviceConfig config = tiny("page-mapped", true);
  const flash::Geometry& g = config.geometry;
  const auto ftl = ftl::make_ftl({g, config.ftl, 0});
  const auto plain = ftl::make_ftl({g, tiny("page-mapped", false).ftl, 0});
  EXPECT_LT(ftl->logical_pages(), plain->logical_pages());
  EXPECT_LE(ftl->logical_pages(), g.blocks() * (g.pages_per_block - 1));
  ftl::Verifier verifier(g, ftl->logical_pages(), config.ftl.copy_back);
  std::uint64_t summaries = 0;
  const std::uint32_t pages = g.planes() * (g.pages_per_block - 1) * 3;  // three blocks a plane
  for (ftl::Lpn lpn = 0; lpn < pages; ++lpn) {
    flash::CommandList out;
    ftl->write({lpn, 1, false, false}, out);
    verifier.host_write({lpn, 1, false, false}, out);
    ASSERT_GE(out.size(), 1u);
    const std::uint32_t offset = g.page_in_block(out[0].ppn);
    ASSERT_LT(offset, g.pages_per_block - 1) << "a data page in the summary page's place";
    if (offset + 2 < g.pages_per_block) {
      EXPECT_EQ(out.size(), 1u);
      continue;
    }
    ASSERT_EQ(out.size(), 2u) << lpn;
    const flash::Command& summary = out[1];
    EXPECT_TRUE(summary.summary());
    EXPECT_EQ(summary.op, flash::Op::kProgram);
    EXPECT_EQ(summary.ppn, out[0].ppn + 1);
    EXPECT_EQ(summary.lpn, flash::kNoLpn);
    EXPECT_EQ(summary.stage, out[0].stage);
    EXPECT_FALSE(summary.cleaning);
    EXPECT_EQ(summary.transfer_bytes, ftl::summary_page_bytes(g, 512));
    ++summaries;
  }
  EXPECT_EQ(summaries, 3u * g.planes());
  EXPECT_EQ(ftl->stats().summary_pages_written, summaries);
  EXPECT_EQ(ftl->stats().flash_pages_written, pages + summaries);
  EXPECT_NO_THROW(ftl->check_invariants());
}

// A block that cleaning's moves fill gets its summary page as cleaning work,
// right after the move that filled it.
TEST(SummaryPage, ABlockFilledByCleaningHasACleaningSummaryPage) {
  const DeviceConfig config = tiny("page-mapped", true);
  const auto ftl = ftl::make_ftl({config.geometry, config.ftl, 0});
  ftl::Verifier verifier(config.geometry, ftl->logical_pages(), config.ftl.copy_back);
  Rng rng(3);
  std::uint64_t cleaning_summaries = 0;
  for (int i = 0; i < 20000; ++i) {
    const ftl::PageRange range{static_cast<ftl::Lpn>(rng.uniform(ftl->logical_pages())), 1, false,
                               false};
    flash::CommandList out;
    ftl->write(range, out);
    verifier.host_write(range, out);
    for (std::size_t c = 0; c < out.size(); ++c) {
      if (!out[c].summary()) continue;
      ASSERT_GT(c, 0u);
      EXPECT_EQ(config.geometry.block_of(out[c - 1].ppn), config.geometry.block_of(out[c].ppn));
      EXPECT_EQ(out[c].cleaning, out[c - 1].cleaning);
      EXPECT_EQ(out[c].stage, out[c - 1].stage);
      cleaning_summaries += out[c].cleaning;
    }
  }
  EXPECT_GT(ftl->stats().blocks_cleaned, 0u);
  EXPECT_GT(cleaning_summaries, 0u);
  EXPECT_NO_THROW(ftl->check_invariants());
}

// Verification runs (every read returns the latest write) with cleaning.
TEST(SummaryPage, VerificationRunsPassOnEveryPageLevelFtl) {
  for (const char* name : {"page-mapped", "dftl"}) {
    Ssd ssd(tiny(name, true), {.verify = true, .invariants_every = 500});
    const std::uint64_t pages = ssd.logical_bytes() / 4096;
    Rng rng(9);
    TimeNs now = 0;
    for (int i = 0; i < 12000; ++i) {
      const IoMode mode = i % 3 == 2 ? IoMode::kRead : IoMode::kWrite;
      EXPECT_NO_THROW(now = *ssd.start({rng.uniform(pages) * 4096, 4096, mode}, now)) << name;
    }
    EXPECT_GT(ssd.ftl().stats().blocks_cleaned, 0u) << name;
    EXPECT_GT(ssd.ftl().stats().summary_pages_written, 0u) << name;
    EXPECT_NO_THROW(ssd.ftl().check_invariants()) << name;
  }
}

// QD1 sequential writes on idle flash: each costs the unloaded page program,
// and the one that closes a block a summary page's transfer and program
// more (DiskSim ssd_timing.c:360-372), so the mean is
// program latency + (summary transfer + program) / data pages per block.
TEST(SummaryPage, SequentialWritesPayTheSummaryPageOncePerBlock) {
  const DeviceConfig config = tiny("page-mapped", true);
  const flash::Geometry& g = config.geometry;
  const flash::Timing& t = config.timing;
  Ssd ssd(config);
  const std::uint64_t writes = std::uint64_t{g.planes()} * (g.pages_per_block - 1) * 4;
  TimeNs now = 0, total = 0;
  for (std::uint64_t i = 0; i < writes; ++i) {
    const TimeNs done = *ssd.start({i * 4096, 4096, IoMode::kWrite}, now);
    total += done - now;
    now = done;
  }
  ASSERT_EQ(ssd.ftl().stats().blocks_cleaned, 0u);
  const TimeNs summary = t.transfer_ns(ftl::summary_page_bytes(g, 512)) + t.program_ns;
  EXPECT_EQ(total, static_cast<TimeNs>(writes) * t.page_program_latency(g) +
                       static_cast<TimeNs>(writes / (g.pages_per_block - 1)) * summary);
}

// The mount of a used device reads one summary page per closed block (array
// read and the summary's bytes) and every page of the open ones.
TEST(SummaryPage, MountReadsOneSummaryPagePerClosedBlock) {
  std::uint64_t scanned[2] = {0, 0};
  TimeNs scan_ns[2] = {0, 0};
  for (const bool summary : {false, true}) {
    Ssd ssd(tiny("page-mapped", summary));
    ssd.enable_power_cuts();
    ssd.prefill(0, ssd.logical_bytes());
    Rng rng(5);
    TimeNs now = 0;
    for (int i = 0; i < 3000; ++i)
      now = *ssd.start({rng.uniform(ssd.logical_bytes() / 4096) * 4096, 4096, IoMode::kWrite}, now);
    const flash::Geometry& g = ssd.config().geometry;
    const flash::NandArray& nand = ssd.ftl().nand();
    std::uint64_t expected = 0;
    for (flash::BlockId block = 0; block < g.blocks(); ++block) {
      const std::uint32_t written = nand.write_pointer(block);
      const bool closed = summary && written == g.pages_per_block;
      expected += closed ? 1 : written + (written < g.pages_per_block ? 1 : 0);
    }
    const PowerCutReport cut = ssd.power_cut(now);
    EXPECT_TRUE(cut.recovered()) << cut.first_problem;
    EXPECT_EQ(cut.pages_scanned, expected);
    scanned[summary] = cut.pages_scanned;
    scan_ns[summary] = cut.scan_ns;
  }
  EXPECT_LT(scanned[1] * 4, scanned[0]);
  EXPECT_LT(scan_ns[1] * 2, scan_ns[0]);
}

// A summary page the cut tore: the scan reads its block page by page, and
// the map still finds every page of it.
TEST(SummaryPage, ATornSummaryPageFallsBackToTheBlocksPages) {
  const DeviceConfig config = tiny("page-mapped", true);
  const flash::Geometry& g = config.geometry;
  const auto ftl = ftl::make_ftl({g, config.ftl, 0});
  flash::NandArray& nand = *ftl->flash_for_power_cut();
  nand.record_sequence_numbers();
  const ftl::Lpn pages = g.planes() * (g.pages_per_block - 1) + 3;  // every plane closes a block
  for (ftl::Lpn lpn = 0; lpn < pages; ++lpn) {
    flash::CommandList out;
    ftl->write({lpn, 1, false, false}, out);
  }
  const flash::BlockId block = g.block_of(ftl->locate(0));
  ASSERT_TRUE(nand.is_full(block));
  EXPECT_EQ(ftl::scan_pages_of_block(nand, block, true), 1u);
  std::uint64_t before = 0;
  for (flash::BlockId b = 0; b < g.blocks(); ++b) before += ftl::scan_pages_of_block(nand, b, true);
  nand.tear(g.first_page(block) + g.pages_per_block - 1);
  EXPECT_EQ(ftl::scan_pages_of_block(nand, block, true), g.pages_per_block);
  flash::CommandList out;
  ftl::RecoveryReport report;
  ftl->recover(ftl::RecoveryPolicy::kSequenceNumbers, out, report);
  EXPECT_EQ(report.pages_read, before - 1 + g.pages_per_block);
  for (ftl::Lpn lpn = 0; lpn < pages; ++lpn) {
    ASSERT_NE(ftl->locate(lpn), flash::kNoPage) << lpn;
    EXPECT_EQ(nand.lpn_at(ftl->locate(lpn)), lpn);
  }
  EXPECT_NO_THROW(ftl->check_invariants());
}

}  // namespace
}  // namespace ssdlab::sim
