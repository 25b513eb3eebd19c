// Flash read errors on a device ([errors]; sim/controller/read_errors.h):
// off without the table; an aged drive's reads take retries and are slower;
// what no step corrects is a media error, listed in errors.csv; read
// reclaim keeps an often-read block correctable and loses nothing on a
// power cut; the verifier passes; checkpoints carry the blocks' ages and
// reads.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "common/state_io.h"
#include "run_support.h"
#include "sim/config/config.h"
#include "sim/controller/ssd.h"
#include "test_support.h"

namespace ssdlab::sim {
namespace {

constexpr std::uint64_t kPage = 4096;

// The tiny TLC device with the TLC set, an ECC of `correctable` bits per
// 4 KiB codeword and up to 4 retries that each leave 60% of the errors.
DeviceConfig with_errors(std::uint32_t correctable, std::vector<std::string> more = {}) {
  std::vector<std::string> sets = {fmt::format("errors.correctable_bits={}", correctable),
                                   "errors.retries=4", "errors.retry_error_factor=0.6",
                                   "errors.decode_us=2", "errors.decode_us_per_error=0.01"};
  sets.insert(sets.end(), more.begin(), more.end());
  return load_config(testing::preset("tiny-tlc"), sets);
}

// Queue-depth-1 reads of `count` pages spread over the device (every 7th
// page); returns the mean response time in ns.
double mean_read_ns(Ssd& ssd, std::uint64_t count, TimeNs& now) {
  const std::uint64_t pages = ssd.logical_bytes() / kPage;
  TimeNs total = 0;
  for (std::uint64_t i = 0; i < count; ++i) {
    const TimeNs done = *ssd.start(HostIo{(i * 7 % pages) * kPage, kPage, IoMode::kRead}, now);
    total += done - now;
    now = done;
  }
  return static_cast<double>(total) / static_cast<double>(count);
}

TEST(ReadErrors, AreOffWithoutTheTable) {
  const DeviceConfig config = testing::load_preset("tiny-tlc");
  EXPECT_FALSE(config.errors.on());
  Ssd ssd(config);
  EXPECT_EQ(ssd.core().read_errors(), nullptr);
  EXPECT_TRUE(ssd.core().media_errors().empty());
}

TEST(ReadErrors, AnAgedDriveRetriesAndReadsSlower) {
  Ssd fresh(with_errors(80));
  Ssd aged(with_errors(80, {"errors.age_pe_cycles=1500", "errors.age_retention_days=365"}));
  fresh.prefill(0, fresh.logical_bytes());
  aged.prefill(0, aged.logical_bytes());
  TimeNs now_fresh = 0, now_aged = 0;
  const double fresh_ns = mean_read_ns(fresh, 2000, now_fresh);
  const double aged_ns = mean_read_ns(aged, 2000, now_aged);
  const records::ReadErrorCounters& f = fresh.core().read_errors()->counters();
  const records::ReadErrorCounters& a = aged.core().read_errors()->counters();
  EXPECT_EQ(f.page_reads, 2000u);
  // Fresh: 1.48e-3 of 32768 bits, about 48 errors, against 80.
  EXPECT_GT(f.corrected_first, 1990u);
  // Aged: about 6.9e-3, 227 errors: three retries (136, 82, 49).
  EXPECT_GT(static_cast<double>(a.retry_reads) / a.page_reads, 2.5);
  EXPECT_EQ(a.uncorrectable, 0u);
  EXPECT_GT(aged_ns, fresh_ns + 2 * 40000);  // each retry another array read (tR ~ 50 us)
  EXPECT_GT(a.decode_ns, f.decode_ns);
}

TEST(ReadErrors, WhatNoStepCorrectsIsAMediaErrorOfTheRequest) {
  Ssd ssd(load_config(testing::preset("tiny-tlc"), {"errors.correctable_bits=10"}));
  ssd.prefill(0, ssd.logical_bytes());
  ASSERT_TRUE(ssd.start(HostIo{5 * kPage, kPage, IoMode::kRead}, 0));
  ASSERT_EQ(ssd.core().media_errors().size(), 1u);
  EXPECT_EQ(ssd.core().media_errors()[0].lpn, 5u);
  EXPECT_GT(ssd.core().media_errors()[0].bit_errors, 10u);
  // The next request has its own (a write has none).
  ASSERT_TRUE(ssd.start(HostIo{5 * kPage, kPage, IoMode::kWrite}, 1000000));
  EXPECT_TRUE(ssd.core().media_errors().empty());
  EXPECT_EQ(ssd.core().read_errors()->counters().uncorrectable, 1u);
}

// Reads one page over and over, with a write of another page after every
// ten reads (so that the blocks written fill): its block's reads disturb
// it (the TLC set's read term), with 1000 cycles of wear. (The cells are
// programmed in passes, a page at a time: one-shot wordlines would pad one
// for each unbuffered write, and cleaning, not reclaim, would move the page.)
const std::vector<std::string> kPageAtATime = {"timing.cell.program=\"multi-pass\"",
                                               "timing.cell.program_us=[500, 1000, 1500]"};
std::uint64_t uncorrectable_after_reading_one_page(std::vector<std::string> more,
                                                   std::uint64_t* reclaimed = nullptr) {
  more.emplace_back("errors.age_pe_cycles=1000");
  more.emplace_back("errors.retries=0");
  more.insert(more.end(), kPageAtATime.begin(), kPageAtATime.end());
  Ssd ssd(with_errors(150, more));
  ssd.prefill(0, ssd.logical_bytes());
  TimeNs now = 0;
  for (int i = 0; i < 150000; ++i) {
    now = *ssd.start(HostIo{3 * kPage, kPage, IoMode::kRead}, now);
    if (i % 10 == 0)
      now = *ssd.start(HostIo{(100 + i / 10 % 2000) * kPage, kPage, IoMode::kWrite}, now);
  }
  if (reclaimed) *reclaimed = ssd.core().read_errors()->counters().reclaimed_blocks;
  return ssd.core().read_errors()->counters().uncorrectable;
}

TEST(ReadReclaim, KeepsAnOftenReadBlockFromBecomingUncorrectable) {
  std::uint64_t reclaimed = 0;
  EXPECT_GT(uncorrectable_after_reading_one_page({}, &reclaimed), 1000u);
  EXPECT_EQ(reclaimed, 0u);
  // Rewritten every 20,000 reads of its block (about 417 per page): the
  // page moves to a block no one has read yet.
  EXPECT_EQ(uncorrectable_after_reading_one_page({"errors.reclaim_reads=20000"}, &reclaimed), 0u);
  EXPECT_GE(reclaimed, 7u);
}

TEST(ReadReclaim, ARewriteOnRetriesMovesTheBlock) {
  Ssd ssd(with_errors(80, {"errors.age_pe_cycles=1500", "errors.age_retention_days=365",
                           "errors.reclaim_retries=2"}));
  ssd.prefill(0, ssd.logical_bytes());
  TimeNs now = 0;
  mean_read_ns(ssd, 200, now);
  const records::ReadErrorCounters& c = ssd.core().read_errors()->counters();
  EXPECT_GT(c.reclaimed_blocks, 0u);
  EXPECT_GT(c.reclaimed_pages, 0u);
  // Page 0 took retries and was rewritten: its data is young again, with
  // the wear term's errors only (2.7e-3 of 32768 bits, about 90, against
  // about 227 before).
  const std::uint64_t errors = c.bit_errors;
  ssd.start(HostIo{0, kPage, IoMode::kRead}, now);
  EXPECT_LT(ssd.core().read_errors()->counters().bit_errors - errors, 140u);
}

TEST(ReadReclaim, PassesTheVerifierAmongWritesAndTrims) {
  std::vector<std::string> sets = {"errors.age_pe_cycles=1000", "errors.reclaim_reads=3000"};
  sets.insert(sets.end(), kPageAtATime.begin(), kPageAtATime.end());  // (as above)
  Ssd ssd(with_errors(150, sets), SsdChecks{true, 1000});
  ssd.prefill(0, ssd.logical_bytes());
  const std::uint64_t pages = ssd.logical_bytes() / kPage;
  TimeNs now = 0;
  for (std::uint64_t i = 0; i < 40000; ++i) {
    // Reads of 32 hot pages; writes and trims elsewhere.
    const bool read = i % 5 != 0;
    const std::uint64_t page = read ? i % 40 : 40 + (i * 13) % (pages - 40);
    const IoMode mode = read ? IoMode::kRead : i % 3 == 0 ? IoMode::kTrim : IoMode::kWrite;
    now = *ssd.start(HostIo{page * kPage, kPage, mode}, now);
  }
  ssd.ftl().check_invariants();
  EXPECT_GE(ssd.core().read_errors()->counters().reclaimed_blocks, 4u);  // the four hot blocks
  EXPECT_GT(ssd.core().observers().verified_pages(), 30000u);
}

// Read reclaim leaves to the write buffer the pages it holds newer copies
// of (SsdPart::holds): of the hot block's pages, it rewrites all but those.
TEST(ReadReclaim, LeavesThePagesTheWriteBufferHoldsToIt) {
  std::vector<std::string> sets = {"errors.age_pe_cycles=1000", "errors.reclaim_reads=3000",
                                   "controller.write_buffer=\"4MiB\""};
  sets.insert(sets.end(), kPageAtATime.begin(), kPageAtATime.end());  // (as above)
  Ssd ssd(with_errors(150, sets));
  ssd.prefill(0, ssd.logical_bytes());
  const flash::FastGeometry& g = ssd.ftl().nand().geometry();
  const flash::BlockId hot = g.block_of(ssd.ftl().locate(3));
  std::vector<std::uint64_t> others;  // the hot block's other pages
  for (ftl::Lpn lpn = 0; lpn < ssd.logical_bytes() / kPage; ++lpn)
    if (lpn != 3 && g.block_of(ssd.ftl().locate(lpn)) == hot) others.push_back(lpn);
  ASSERT_GT(others.size(), 8u);
  TimeNs now = 0;
  for (std::size_t i = 0; i < 8; ++i)
    now = *ssd.start(HostIo{others[i] * kPage, kPage, IoMode::kWrite}, now);
  const records::ReadErrorCounters& c = ssd.core().read_errors()->counters();
  for (int i = 0; i < 100000 && c.reclaimed_blocks == 0; ++i)
    now = *ssd.start(HostIo{3 * kPage, kPage, IoMode::kRead}, now);
  ASSERT_EQ(c.reclaimed_blocks, 1u);
  EXPECT_EQ(c.reclaimed_pages, others.size() + 1 - 8);  // page 3 and the unheld ones
  for (std::size_t i = 0; i < 8; ++i) EXPECT_TRUE(ssd.write_buffer()->contains(others[i]));
}

// With persistently isolated placement handles, read reclaim rewrites a
// block's data under the block's own handle (it went to handle 0 before),
// and each block it rewrites is TP4146's Media Reallocated event:
// after hot blocks of handle 1 (the first 4 MiB) are reclaimed, no block
// holds data of both handles' ranges.
TEST(ReadReclaim, KeepsEachBlocksPlacementHandle) {
  Ssd ssd(with_errors(
      150, {"errors.age_pe_cycles=1000", "errors.reclaim_reads=2000", "ftl.placement=\"fdp\"",
            "ftl.fdp_handles=2", "ftl.fdp_isolation=\"persistently\""}));
  ssd.prefill(0, ssd.logical_bytes());
  // The first 4 MiB written again with placement identifier 1.
  const std::uint64_t first_range = (4 << 20) / kPage;
  TimeNs now = 0;
  for (std::uint64_t page = 0; page < first_range; page += 16)
    now = *ssd.start(HostIo{page * kPage, 16 * kPage, IoMode::kWrite, 1}, now);
  const std::uint64_t handle_0_pages = ssd.ftl().part_records().fdp->handles[0].host_pages;
  // (Data reclaimed into a handle's open block stays there until it fills:
  // a few blocks are reclaimed, no more.)
  for (std::uint64_t i = 0; i < 100000 && ssd.core().read_errors()->counters().reclaimed_blocks < 2;
       ++i)
    now = *ssd.start(HostIo{(i % 64) * kPage, kPage, IoMode::kRead}, now);
  ASSERT_GE(ssd.core().read_errors()->counters().reclaimed_blocks, 2u);
  EXPECT_EQ(testing::blocks_mixing(ssd.ftl().nand(), ssd.config().geometry, first_range), 0u);
  // None of the rewrites went to handle 0 (the hot reads are all in handle 1's range).
  const records::FdpCounters fdp = *ssd.ftl().part_records().fdp;
  EXPECT_EQ(fdp.handles[0].host_pages, handle_0_pages);
  // Each block rewritten is a Media Reallocated event (TP4146 0x80).
  EXPECT_EQ(fdp.events[2].type, 0x80u);
  EXPECT_EQ(fdp.events[2].count, ssd.core().read_errors()->counters().reclaimed_blocks);
  EXPECT_GT(fdp.reallocated_pages, fdp.events[2].count);
}

TEST(ReadReclaim, APowerCutDuringARewriteLosesNothingAcknowledged) {
  std::uint64_t torn = 0;
  for (const TimeNs after : {TimeNs{50000}, TimeNs{400000}, TimeNs{1500000}}) {
    Ssd ssd(with_errors(150, {"errors.age_pe_cycles=1000", "errors.reclaim_reads=2000"}));
    ssd.enable_power_cuts();
    ssd.prefill(0, ssd.logical_bytes());
    TimeNs now = 0;
    std::uint64_t reclaimed = 0;
    while (reclaimed == 0) {
      now = *ssd.start(HostIo{3 * kPage, kPage, IoMode::kRead}, now);
      reclaimed = ssd.core().read_errors()->counters().reclaimed_blocks;
    }
    // The rewrite was reserved behind the read that asked for it.
    const PowerCutReport cut = ssd.power_cut(now + after);
    EXPECT_TRUE(cut.recovered()) << after;
    EXPECT_EQ(cut.lost_writes, 0u) << after;
    torn += cut.torn_pages;
  }
  // The cuts fell during the rewrites' programs (nothing else writes).
  EXPECT_GT(torn, 0u);
}

TEST(ReadErrors, ACheckpointCarriesTheBlocksAgesAndReads) {
  const DeviceConfig config =
      with_errors(80, {"errors.age_pe_cycles=1200", "errors.age_retention_days=200"});
  Ssd whole(config);
  whole.prefill(0, whole.logical_bytes());
  TimeNs now = 0;
  mean_read_ns(whole, 500, now);
  std::ostringstream saved;
  StateWriter writer(&saved);
  whole.save_state(writer);
  Ssd split(config);
  std::istringstream bytes(saved.str());
  StateReader reader(bytes);
  split.load_state(reader);
  EXPECT_EQ(split.core().read_errors()->counters(), whole.core().read_errors()->counters());
  TimeNs now_split = now;
  EXPECT_EQ(mean_read_ns(split, 500, now_split), mean_read_ns(whole, 500, now));
  EXPECT_EQ(split.core().read_errors()->counters(), whole.core().read_errors()->counters());
}

TEST(ReadErrors, ARunListsMediaErrorsInErrorsCsvAndCountsThemInTheSummary) {
  const std::filesystem::path dir = testing::temp_dir_for_this_test("errors");
  SimOptions options;
  options.workload = "RR:io_size=4KiB,count=200";
  options.precondition = "seq";
  options.overrides = {"errors.correctable_bits=45"};  // about half the reads fail
  std::string printed;
  const auto out = testing::run_preset("tiny-tlc", dir, "run", options, &printed);
  const nlohmann::json summary = nlohmann::json::parse(std::ifstream(out / "summary.json"));
  const std::uint64_t failed = summary["device"]["read_error_uncorrectable"];
  EXPECT_GT(failed, 20u);
  EXPECT_LT(failed, 180u);
  EXPECT_EQ(summary["device"]["read_error_page_reads"], 200u);
  std::ifstream csv(out / "errors.csv");
  std::string line;
  std::getline(csv, line);
  EXPECT_EQ(line, "experiment,run,process,io,mode,offset,size,lpn,ppn,bit_errors,rber");
  std::uint64_t rows = 0;
  while (std::getline(csv, line)) ++rows;
  EXPECT_EQ(rows, failed);
  EXPECT_NE(printed.find("uncorrectable (errors.csv)"), std::string::npos);
  // The timeline marks the reads the ECC asked for again.
  const std::string timeline = (dir / "t.json").string();
  options.teaching.timeline = timeline;
  options.overrides = {"errors.correctable_bits=45", "errors.retries=2",
                       "errors.retry_error_factor=0.8"};
  testing::run_preset("tiny-tlc", dir, "retries", options);
  std::stringstream text;
  text << std::ifstream(timeline).rdbuf();
  EXPECT_NE(text.str().find("\"retry\":true"), std::string::npos);
  options.teaching.timeline.clear();
  // A run without errors writes none, and removes a stale one.
  options.overrides.clear();
  testing::run_preset("tiny-tlc", dir, "run", options);
  EXPECT_FALSE(std::filesystem::exists(out / "errors.csv"));
}

// Queued reads (queue depth 8: the host loop's tags, completions reported
// later by the flash scheduler) wait for their decode too.
TEST(ReadErrors, QueuedReadsCompleteAfterTheirDecode) {
  const std::filesystem::path dir = testing::temp_dir_for_this_test("errors");
  SimOptions options;
  options.workload = "RR:io_size=4KiB,count=400,queue_depth=8";
  options.precondition = "seq";
  options.state_cache = false;
  const auto min_us = [&](const char* name) {
    const auto out = testing::run_preset("tiny-tlc", dir, name, options);
    const nlohmann::json summary = nlohmann::json::parse(std::ifstream(out / "summary.json"));
    return summary["experiments"][0]["runs"][0]["min_us"].get<double>();
  };
  options.overrides = {"errors.correctable_bits=100000"};
  EXPECT_LT(min_us("quick"), 1000);
  // (Not the mean: the host sends less while reads decode, and the dies'
  // queues shorten.)
  options.overrides.emplace_back("errors.decode_us=1000");
  EXPECT_GT(min_us("slow"), 1000);
}

}  // namespace
}  // namespace ssdlab::sim
