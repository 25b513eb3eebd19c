// `ssdlab export-fio -w PLAN --target FILE DIR` (sim/run/fio_job.h): the job
// file names its jobs after the plan's experiments, and its iologs hold
// exactly the I/Os that `ssdlab probe` issues for the same plan and seed.
// (tests/long/fio_job_long_test.cpp runs them under fio.)
#include "sim/run/fio_job.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "run_support.h"
#include "sim/run/probe.h"
#include "test_support.h"

namespace {

namespace fs = std::filesystem;
namespace support = ssdlab::testing;
using ::testing::HasSubstr;

constexpr const char* kPlan =
    "[[experiment]]\nname = \"rw/4k\"\npattern = \"RW\"\nio_size = 4096\ncount = 30\n"
    "processes = 2\nruns = 2\ntarget_size = \"4MiB\"\n\n"
    "[[experiment]]\nname = \"sr-8k\"\npattern = \"SR\"\nio_size = 8192\ncount = 20\n";

// "experiment,run,process,io,mode,offset,size" of every io.csv row, sorted.
std::vector<std::string> ProbeRows(const fs::path& io_csv) {
  std::vector<std::string> rows;
  for (const auto& f : support::csv_rows(support::read_file(io_csv)))
    rows.push_back(f.size() != 9 ? "malformed"
                                 : f[0] + "," + f[1] + "," + f[2] + "," + f[3] + "," + f[6] +
                                       "," + f[7] + "," + f[8]);
  std::sort(rows.begin(), rows.end());
  return rows;
}

TEST(FioJob, NamesJobsAfterExperimentsAndReplaysTheProbesIos) {
  const fs::path dir = support::temp_dir_for_this_test("fio-job-");
  const fs::path plan = support::write_file(dir / "plan.toml", kPlan);
  const fs::path target = dir / "disk.img";
  ssdlab::sim::ProbeOptions probe;
  probe.target = target.string();
  probe.workload = plan.string();
  probe.outdir = (dir / "probe").string();
  probe.size = 8 << 20;
  probe.precondition = "none";
  probe.quiet = true;
  probe.seed = 7;
  auto probed = support::in_process([&](std::ostream& out) { ssdlab::sim::run_probe(probe, out); });
  if (probed.exit_code != 0 && probed.output.find("O_DIRECT") != std::string::npos) {
    probe.buffered = true;
    probed = support::in_process([&](std::ostream& out) { ssdlab::sim::run_probe(probe, out); });
  }
  ASSERT_EQ(probed.exit_code, 0) << probed.output;

  ssdlab::sim::FioJobOptions job{plan.string(), target.string(), 0, 7, (dir / "job").string()};
  const auto written =
      support::in_process([&](std::ostream& out) { ssdlab::sim::write_fio_job(job, out); });
  ASSERT_EQ(written.exit_code, 0) << written.output;
  EXPECT_THAT(written.output, HasSubstr("(2 experiments, 5 jobs) and 5 iologs"));

  // The job file: one section per run and process, named after its
  // experiment; a run starts with stonewall, its other processes run with it.
  const std::string text = support::read_file(dir / "job" / "ssdlab.fio");
  const std::regex section(R"(\[([^\]\n]+)\]\n(stonewall\n)?)");
  std::vector<std::string> sections;
  for (std::sregex_iterator i(text.begin(), text.end(), section), end; i != end; ++i)
    sections.push_back((*i)[1].str() + ((*i)[2].matched ? " stonewall" : ""));
  EXPECT_EQ(sections, (std::vector<std::string>{"global", "rw/4k stonewall", "rw/4k",
                                                "rw/4k stonewall", "rw/4k", "sr-8k stonewall"}));

  // The iologs' I/Os are the probe's, row for row.
  std::vector<std::string> replayed;
  const std::regex name(R"((\d+)-.*-run(\d+)-p(\d+)\.iolog)");
  const char* experiments[] = {"rw/4k", "sr-8k"};
  for (const auto& entry : fs::directory_iterator(dir / "job")) {
    std::smatch m;
    const std::string file = entry.path().filename().string();
    if (!std::regex_match(file, m, name)) continue;
    std::istringstream in(support::read_file(entry.path()));
    std::string line;
    std::getline(in, line);
    EXPECT_EQ(line, "fio version 2 iolog");
    std::uint64_t io = 0;
    while (std::getline(in, line)) {
      std::istringstream words(line);
      std::string path, action, offset, size;
      words >> path >> action >> offset >> size;
      EXPECT_EQ(path, fs::absolute(target).lexically_normal().string());
      if (action != "read" && action != "write") continue;
      replayed.push_back(std::string(experiments[std::stoi(m[1])]) + "," + m[2].str() + "," +
                         std::to_string(std::stoi(m[3]) - 1) + "," + std::to_string(io++) + "," +
                         (action == "read" ? "R" : "W") + "," + offset + "," + size);
    }
  }
  std::sort(replayed.begin(), replayed.end());
  EXPECT_EQ(replayed.size(), 2u * 2 * 30 + 20);
  EXPECT_EQ(replayed, ProbeRows(dir / "probe" / "io.csv"));
}

TEST(FioJob, NeedsTheTargetsSize) {
  const fs::path dir = support::temp_dir_for_this_test("fio-job-");
  ssdlab::sim::FioJobOptions job{"RW:count=10", (dir / "missing.img").string(), 0, 1,
                                 (dir / "job").string()};
  const auto written =
      support::in_process([&](std::ostream& out) { ssdlab::sim::write_fio_job(job, out); });
  EXPECT_EQ(written.exit_code, 1);
  EXPECT_THAT(written.output, HasSubstr("not an existing, non-empty file: give its size with --size"));
}

}  // namespace
