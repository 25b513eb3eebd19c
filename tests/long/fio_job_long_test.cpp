// Long (CTest label "long"; needs Debian's fio, skipped without it): the
// cross-check of docs/guide-real-devices.md end to end. probe runs a plan on
// a file, `export-fio -w` writes the same plan as a fio job, fio runs it,
// and `compare` pairs fio's JSON with the probe's output by name, with no
// --map: every experiment in both, none only in one.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "../test_support.h"

namespace {

namespace fs = std::filesystem;
namespace support = ssdlab::testing;
using ::testing::HasSubstr;
using ::testing::Not;

TEST(FioJobLong, FioRunsThePlanAndCompareMatchesItByName) {
  if (std::system("command -v fio > /dev/null 2>&1") != 0)
    GTEST_SKIP() << "fio is not installed (Debian package fio)";
  const fs::path dir = support::temp_dir_for_this_test("fio-job-long-");
  const std::string plan = support::shell_quote(support::write_file(
      dir / "plan.toml",
      "[[experiment]]\nname = \"rr-4k\"\npattern = \"RR\"\nio_size = 4096\ncount = 200\n"
      "runs = 2\n\n[[experiment]]\nname = \"granularity-SW/io_size=32768\"\npattern = \"SW\"\n"
      "io_size = 32768\ncount = 100\n"));
  const std::string target = support::shell_quote(dir / "disk.img");
  // O_DIRECT where the filesystem has it (probe says so when it has not).
  auto probe = support::run_ssdlab("probe -q --target " + target + " --size 32MiB -w " + plan +
                                   " -o " + support::shell_quote(dir / "real"));
  const bool buffered = probe.exit_code != 0 && probe.output.find("O_DIRECT") != std::string::npos;
  if (buffered)
    probe = support::run_ssdlab("probe -q --buffered --target " + target + " --size 32MiB -w " +
                                plan + " -o " + support::shell_quote(dir / "real"));
  ASSERT_EQ(probe.exit_code, 0) << probe.output;
  const auto job = support::run_ssdlab("export-fio -w " + plan + " --target " + target + " " +
                                       support::shell_quote(dir / "job"));
  ASSERT_EQ(job.exit_code, 0) << job.output;
  const std::string job_file = support::shell_quote(dir / "job" / "ssdlab.fio");
  const auto fio = support::run_shell("fio " + job_file + (buffered ? " --direct=0" : "") +
                                      " --output-format=json+ --output=" +
                                      support::shell_quote(dir / "fio.json"));
  ASSERT_EQ(fio.exit_code, 0) << fio.output;
  const auto compared = support::run_ssdlab("compare " + support::shell_quote(dir / "real") + " " +
                                            support::shell_quote(dir / "fio.json"));
  ASSERT_EQ(compared.exit_code, 0) << compared.output;
  EXPECT_THAT(compared.output, HasSubstr("\n  rr-4k "));
  EXPECT_THAT(compared.output, HasSubstr("\n  granularity-SW/io_size=32768 "));
  EXPECT_THAT(compared.output, HasSubstr("over 2 experiments"));
  EXPECT_THAT(compared.output, Not(HasSubstr("only in")));
  // fio's JSON gave its tail percentiles, which the probe has too.
  EXPECT_THAT(compared.output, HasSubstr("p99.9"));
}

}  // namespace
