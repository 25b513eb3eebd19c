// `ssdlab probe` against a temporary file: no root and no block device
// needed. Its io.csv must match the simulator's column for column. Through the
// library (sim/run/probe.h, run_support.h): what is tested is the runner.
#include "sim/run/probe.h"

#include <fcntl.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "run_support.h"
#include "test_support.h"

namespace {

namespace fs = std::filesystem;
namespace support = ssdlab::testing;
using ::testing::HasSubstr;

// The rows of an io.csv without the two timing columns (submit_us, rt_us).
std::vector<std::string> RowsWithoutTimes(const fs::path& io_csv) {
  std::istringstream in(support::read_file(io_csv));
  std::vector<std::string> rows;
  std::string line;
  while (std::getline(in, line)) {
    std::vector<std::string> fields;
    std::stringstream split(line);
    std::string field;
    while (std::getline(split, field, ',')) fields.push_back(field);
    if (fields.size() != 9) {
      rows.push_back("malformed: " + line);
      continue;
    }
    rows.push_back(fields[0] + "," + fields[1] + "," + fields[2] + "," + fields[3] + "," +
                   fields[6] + "," + fields[7] + "," + fields[8]);
  }
  std::sort(rows.begin() + 1, rows.end());
  return rows;
}

class ProbeTest : public ::testing::Test {
 protected:
  void SetUp() override { dir_ = support::temp_dir_for_this_test("probe-"); }

  // run_probe with `options` (target dir_/target.img and outdir dir_/out
  // unless given); falls back to buffered I/O where the filesystem lacks
  // O_DIRECT.
  support::CommandResult Probe(ssdlab::sim::ProbeOptions options) {
    if (options.target.empty()) options.target = (dir_ / "target.img").string();
    if (options.outdir.empty()) options.outdir = (dir_ / "out").string();
    options.quiet = true;
    const auto run = [&] {
      return support::in_process([&](std::ostream& out) { ssdlab::sim::run_probe(options, out); });
    };
    auto result = run();
    if (result.exit_code != 0 && result.output.find("O_DIRECT") != std::string::npos) {
      options.buffered = true;
      result = run();
    }
    return result;
  }
  // probe of `workload` on dir_/target.img, created at 8 MiB if missing.
  support::CommandResult Probe(const std::string& workload, const std::string& precondition = "") {
    ssdlab::sim::ProbeOptions options;
    options.workload = workload;
    options.size = 8 << 20;
    options.precondition = precondition;
    return Probe(options);
  }

  fs::path dir_;
};

TEST_F(ProbeTest, WritesTheSameRowsAsTheSimulatorButForTheTimes) {
  // A fixed target, so that both place the same I/Os.
  const std::string workload =
      "RW:io_size=8KiB,count=50,queue_depth=2,processes=2,target_size=4MiB,runs=2";
  const auto probed = Probe(workload, "none");
  ASSERT_EQ(probed.exit_code, 0) << probed.output;
  support::run_tiny(dir_, "sim", support::sim_options(workload));
  const auto probe_rows = RowsWithoutTimes(dir_ / "out" / "io.csv");
  EXPECT_EQ(probe_rows.size(), 1u + 2 * 2 * 50);
  EXPECT_EQ(probe_rows, RowsWithoutTimes(dir_ / "sim" / "io.csv"));

  const auto summary = nlohmann::json::parse(support::read_file(dir_ / "out" / "summary.json"));
  EXPECT_EQ(summary["target"]["bytes"], 8 << 20);
  EXPECT_EQ(summary["target"]["created"], true);
  ASSERT_EQ(summary["experiments"][0]["runs"].size(), 2u);
  const auto& run = summary["experiments"][0]["runs"][0];
  EXPECT_EQ(run["count"], 100);
  EXPECT_GT(run["mean_us"].get<double>(), 0.0);
  EXPECT_LE(run["min_us"].get<double>(), run["p50_us"].get<double>());
  EXPECT_LE(run["p50_us"].get<double>(), run["max_us"].get<double>());
  // Each run's span, as the simulator's runs have it (docs/reference/outputs.md):
  // wall time from the first experiment's start, the second run after the first.
  const auto& second = summary["experiments"][0]["runs"][1];
  ASSERT_TRUE(run.contains("start_us") && second.contains("end_us")) << run.dump();
  EXPECT_GE(run["start_us"].get<double>(), 0.0);
  EXPECT_GT(run["end_us"].get<double>(), run["start_us"].get<double>());
  EXPECT_GE(second["start_us"].get<double>(), run["end_us"].get<double>());
  EXPECT_GT(second["end_us"].get<double>(), second["start_us"].get<double>());

  if (const auto checked = support::check_output(dir_ / "out")) {
    EXPECT_EQ(checked->exit_code, 0) << checked->output;
  }
}

TEST_F(ProbeTest, TrimsPunchHolesInAFileTarget) {
  // The created target is filled; trims of whole 4 KiB pages punch holes, so
  // the file keeps its size but no longer has every block allocated.
  const auto result = Probe("RW:io_size=4096,count=400,trim_share=0.5");
  if (result.exit_code != 0 && result.output.find("Operation not supported") != std::string::npos)
    GTEST_SKIP() << "this filesystem cannot punch holes: " << result.output;
  ASSERT_EQ(result.exit_code, 0) << result.output;
  const auto rows = support::csv_rows(support::read_file(dir_ / "out" / "io.csv"));
  const auto trims = std::count_if(rows.begin(), rows.end(), [](const auto& r) { return r[6] == "T"; });
  EXPECT_NEAR(static_cast<double>(trims), 200, 40);
  struct stat info {};
  ASSERT_EQ(::stat((dir_ / "target.img").c_str(), &info), 0);
  EXPECT_EQ(info.st_size, 8 << 20);
  EXPECT_LT(static_cast<std::uint64_t>(info.st_blocks) * 512, 8u << 20);
}

TEST_F(ProbeTest, RunsUflipPlansWithStateEnforcement) {
  const auto result = Probe("uflip:order:count=16,runs=1,run_pause_us=0");
  ASSERT_EQ(result.exit_code, 0) << result.output;
  EXPECT_THAT(result.output, HasSubstr("state enforced (uflip)"));
  EXPECT_THAT(result.output, HasSubstr("order: mean response time (us) by increment"));
  const auto summary = nlohmann::json::parse(support::read_file(dir_ / "out" / "summary.json"));
  EXPECT_EQ(summary["benchmarks"][0]["name"], "order");
  EXPECT_EQ(summary["experiments"].size(), 2u * 11);
  EXPECT_GT(summary["precondition"]["bytes_written"].get<std::uint64_t>(), 8u << 20);
}

TEST_F(ProbeTest, MissingFileWithoutSizeIsAnError) {
  ssdlab::sim::ProbeOptions options;
  options.target = (dir_ / "none.img").string();
  options.workload = "SR:count=4";
  options.outdir = (dir_ / "out").string();
  const auto result =
      support::in_process([&](std::ostream& out) { ssdlab::sim::run_probe(options, out); });
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_EQ(result.output, "ssdlab: " + (dir_ / "none.img").string() +
                               ": no such file; give --size to create it\n");
  EXPECT_FALSE(fs::exists(dir_ / "out" / "io.csv"));
}

TEST_F(ProbeTest, PlanLargerThanTheTargetIsAnError) {
  const auto result = Probe("RW:count=4,target_size=16MiB");
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_THAT(result.output, HasSubstr("target_size: target 0 + 16777216 bytes ends beyond"));
}

TEST_F(ProbeTest, SizeThatDisagreesWithAnExistingFileIsAnError) {
  ASSERT_EQ(Probe("SR:count=4").exit_code, 0);
  ssdlab::sim::ProbeOptions options;
  options.workload = "SR:count=4";
  options.size = 4 << 20;
  const auto result = Probe(options);
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_THAT(result.output, HasSubstr("exists with 8388608 bytes, but --size asks for 4194304"));
}

// Sets or clears a file's immutable flag (chattr +i: root, on ext4, xfs,
// btrfs, ...): the OS then lets the file only be read, as on a read-only
// filesystem, which a test cannot mount. False where it cannot.
bool SetImmutable(const fs::path& file, bool immutable) {
  const int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  int flags = 0;
  bool done = ::ioctl(fd, FS_IOC_GETFLAGS, &flags) == 0;
  if (done) {
    flags = immutable ? (flags | FS_IMMUTABLE_FL) : (flags & ~FS_IMMUTABLE_FL);
    done = ::ioctl(fd, FS_IOC_SETFLAGS, &flags) == 0;
  }
  ::close(fd);
  return done;
}

TEST_F(ProbeTest, AFileThatMayOnlyBeReadServesAReadOnlyWorkload) {
  ASSERT_EQ(Probe("SR:count=4").exit_code, 0);
  const fs::path target = dir_ / "target.img";
  if (!SetImmutable(target, true)) GTEST_SKIP() << "cannot make a file immutable here";
  struct Restore {
    fs::path file;
    ~Restore() { SetImmutable(file, false); }
  } restore{target};
  const auto run = [&](const std::string& workload) {
    ssdlab::sim::ProbeOptions options;
    options.target = target.string();
    options.workload = workload;
    options.precondition = "none";
    options.outdir = (dir_ / "ro").string();
    return Probe(options);
  };
  const auto reads = run("SR:count=4");
  EXPECT_EQ(reads.exit_code, 0) << reads.output;
  const auto writes = run("SW:count=1");
  EXPECT_EQ(writes.exit_code, 1);
  EXPECT_THAT(writes.output, HasSubstr("would write to it, but it opens only for reading ("));
}

TEST_F(ProbeTest, WritingToABlockDeviceNeedsAllowDestroy) {
  // Opened read-only and refused before any write: safe on any machine.
  std::string device;
  for (const char* candidate :
       {"/dev/vda", "/dev/sda", "/dev/nvme0n1", "/dev/xvda", "/dev/loop0"}) {
    struct stat info {};
    if (::stat(candidate, &info) == 0 && S_ISBLK(info.st_mode)) {
      device = candidate;
      break;
    }
  }
  if (device.empty()) GTEST_SKIP() << "no block device to try";
  ssdlab::sim::ProbeOptions options;
  options.target = device;
  options.workload = "RW:count=4";
  options.precondition = "none";
  options.outdir = (dir_ / "out").string();
  const auto result =
      support::in_process([&](std::ostream& out) { ssdlab::sim::run_probe(options, out); });
  EXPECT_EQ(result.exit_code, 1);
  if (result.output.find("(probe needs read access)") != std::string::npos ||
      result.output.find("empty target") != std::string::npos)
    GTEST_SKIP() << result.output;
  EXPECT_THAT(result.output, HasSubstr("give --allow-destroy"));
}

}  // namespace
