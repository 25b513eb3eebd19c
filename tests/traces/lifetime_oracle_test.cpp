// The placement oracle (traces/lifetime_oracle.h, --placement-oracle): each
// write's lifetime is the host pages written until a later write or trim
// covers it; writes are tagged with the cluster of their log lifetime,
// shortest first; a device with that many placement handles then writes
// hot and cold data apart, and its write amplification falls.
#include "traces/lifetime_oracle.h"

#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "run_support.h"
#include "trace_support.h"

namespace ssdlab {
namespace {

using traces::LifetimeOracle;
using traces::TraceRecord;

TraceRecord io(std::uint64_t page, IoMode mode = IoMode::kWrite, std::uint32_t pages = 1) {
  return TraceRecord{0, page * 4096, pages * 4096, mode, 0};
}

std::vector<std::uint8_t> placements(std::vector<TraceRecord> records, std::uint32_t classes,
                                     traces::OracleCounts* counts = nullptr) {
  testing::VectorReader source(std::move(records));
  LifetimeOracle oracle(source, classes, 4096);
  std::vector<std::uint8_t> out;
  while (auto record = oracle.next()) out.push_back(record->placement);
  if (counts) *counts = oracle.counts();
  return out;
}

TEST(LifetimeOracle, HotPagesTakeTheFirstClassAndColdOnesTheLast) {
  // Pages 0 and 1 are rewritten every other write (lifetime 2 pages);
  // pages 10-13 are written once and never again.
  std::vector<TraceRecord> records;
  for (int round = 0; round < 8; ++round) {
    records.push_back(io(0));
    records.push_back(io(1));
    if (round < 4) records.push_back(io(10 + round));
  }
  traces::OracleCounts counts;
  const auto tags = placements(records, 2, &counts);
  ASSERT_EQ(tags.size(), records.size());
  for (std::size_t i = 0; i < records.size(); ++i) {
    const std::uint64_t page = records[i].offset / 4096;
    // The last writes of pages 0 and 1 are never superseded: cold too.
    const bool last_of_hot = i >= records.size() - 2;
    EXPECT_EQ(tags[i], page >= 10 || last_of_hot ? 1 : 0) << "record " << i;
  }
  EXPECT_EQ(counts.writes, records.size());
  EXPECT_EQ(counts.never_superseded, 6u);
  EXPECT_THAT(counts.class_writes, ::testing::ElementsAre(14, 6));
  // A hot page lives until its next write: 3 pages in the rounds with a cold
  // write between, 2 after; the last class holds no finite lifetime.
  EXPECT_THAT(counts.class_max_lifetime, ::testing::ElementsAre(3, 0));
  // One class: every write takes identifier 0.
  for (const std::uint8_t tag : placements(records, 1)) EXPECT_EQ(tag, 0);
}

TEST(LifetimeOracle, ATrimEndsALifetimeAndReadsAreLeftUntagged) {
  // Page 5 is trimmed right after its write: it dies young; page 6 lives
  // on. Reads and trims carry no identifier.
  const std::vector<TraceRecord> records = {
      io(5), io(5, IoMode::kTrim), io(6), io(6, IoMode::kRead), io(7), io(7)};
  const auto tags = placements(records, 2);
  EXPECT_THAT(tags, ::testing::ElementsAre(0, 0, 1, 0, 0, 1));
}

TEST(LifetimeOracle, AMultiPageWriteTakesItsMedianPagesLifetime) {
  // Pages 0-2 in one write; 0 and 1 are rewritten at once, 2 never: the
  // median page (1) dies young.
  const std::vector<TraceRecord> records = {io(0, IoMode::kWrite, 3), io(0), io(1), io(9), io(9)};
  const auto tags = placements(records, 2);
  EXPECT_EQ(tags[0], 0);
  EXPECT_EQ(tags[1], 1);  // never rewritten
}

// A trace of `writes` 4 KiB writes, 90% of them to the first 10% of `span`.
std::filesystem::path hot_cold_trace(const std::filesystem::path& dir, std::uint64_t span,
                                     int writes) {
  std::mt19937_64 rng(7);
  const std::uint64_t pages = span / 4096, hot = pages / 10;
  std::ostringstream text;
  text << "Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime\n";
  for (int i = 0; i < writes; ++i) {
    const bool is_hot = rng() % 10 != 0;
    const std::uint64_t page = is_hot ? rng() % hot : hot + rng() % (pages - hot);
    text << fmt::format("{},synth,0,Write,{},4096,100\n", 128166372000000000 + 1000 * i,
                        page * 4096);
  }
  return testing::write_file(dir / "hot-cold.csv", text.str());
}

double write_amplification(const std::filesystem::path& out) {
  return testing::summary_of(out)["experiments"][0]["runs"][0]["device"]["write_amplification"]
      .get<double>();
}

TEST(PlacementOracle, LowersWriteAmplificationOnHotAndColdData) {
  const auto dir = testing::temp_dir_for_this_test("oracle-");
  const auto trace = hot_cold_trace(dir, 48 << 20, 200000);
  const auto run = [&](const std::string& name, std::vector<std::string> sets, bool oracle,
                       std::string* printed = nullptr) {
    sim::SimOptions options;
    options.config = testing::preset("tiny");
    options.overrides = {"geometry.blocks_per_plane=128"};
    options.overrides.insert(options.overrides.end(), sets.begin(), sets.end());
    options.outdir = (dir / name).string();
    sim::TraceOptions trace_options;
    trace_options.mode = "closed";
    trace_options.placement_oracle = oracle;
    std::ostringstream out;
    sim::run_sim_or_replay(options, {"trace:" + trace.string()}, trace_options, out);
    if (printed) *printed = out.str();
    return write_amplification(dir / name);
  };
  const std::vector<std::string> two = {"ftl.placement=\"fdp\"", "ftl.fdp_handles=2"};
  const double conventional = run("conventional", {}, false);
  const double untagged = run("untagged", two, false);
  std::string printed;
  const double oracle = run("oracle", two, true, &printed);
  EXPECT_GT(conventional, 1.2);               // cleaning has work to do
  EXPECT_NEAR(untagged, conventional, 0.02);  // handles alone change nothing
  EXPECT_LT(oracle, conventional - 0.1);
  EXPECT_THAT(printed, ::testing::HasSubstr("placement oracle: 200000 writes in 2 classes"));
  const auto trace_record = testing::summary_of(dir / "oracle")["experiments"][0]["trace"];
  EXPECT_EQ(trace_record["placement_oracle_class_writes"].size(), 2u);

  // Without placement handles to tag, and on a plan: errors naming the option.
  const auto refused = [&](const std::string& name, const std::string& workload) {
    return testing::in_process([&](std::ostream& out) {
      sim::SimOptions options;
      options.config = testing::preset("tiny");
      options.outdir = (dir / name).string();
      sim::TraceOptions trace_options;
      trace_options.placement_oracle = true;
      sim::run_sim_or_replay(options, {workload}, trace_options, out);
    });
  };
  const auto error = refused("refused", "trace:" + trace.string());
  EXPECT_EQ(error.exit_code, 1);
  EXPECT_THAT(error.output, ::testing::HasSubstr("--placement-oracle: "));
  EXPECT_THAT(error.output, ::testing::HasSubstr("has no placement to tag writes for"));
  EXPECT_THAT(refused("plan", "RW:count=10").output,
              ::testing::HasSubstr("--placement-oracle: only for trace workloads"));
}

}  // namespace
}  // namespace ssdlab
