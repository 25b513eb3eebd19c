// What `ssdlab sweep --slurm` writes into #SBATCH lines (issue 51, H1): one
// value of Slurm's format per option, or refused before anything is
// written; never a line break that would add shell code to the script.
#include "sim/sweep/slurm_values.h"

#include <gtest/gtest.h>

#include "test_support.h"

namespace ssdlab::sim {
namespace {

std::string refusal(SlurmOptions options) {
  return testing::error_of([&] { check_slurm_options(options); });
}

TEST(SlurmValues, SlurmsOwnFormatsAreTaken) {
  SlurmOptions options;
  for (const char* time : {"30", "30:00", "2:00:00", "1-12", "1-12:30", "1-12:30:00", "0",
                           "UNLIMITED"}) {
    options.time = time;
    EXPECT_NO_THROW(check_slurm_options(options)) << time;
  }
  for (const char* mem : {"4000", "4G", "512M", "1t"}) {
    options.mem = mem;
    EXPECT_NO_THROW(check_slurm_options(options)) << mem;
  }
  options.partition = "gpu,cpu-long";
  options.account = "proj_42.a";
  options.extra = {"--constraint=x", "--qos=high prio"};
  EXPECT_NO_THROW(check_slurm_options(options));
}

TEST(SlurmValues, ALineBreakOrAnotherFormatIsRefusedNamingTheOption) {
  const auto with = [](auto set) {
    SlurmOptions options;
    set(options);
    return refusal(options);
  };
  EXPECT_EQ(with([](SlurmOptions& o) { o.account = "acct\ntouch PWNED"; }).rfind(
                "--account 'acct\\ntouch PWNED': not a Slurm account name", 0),
            0u);
  EXPECT_EQ(with([](SlurmOptions& o) { o.partition = "a b"; }).rfind("--partition 'a b'", 0), 0u);
  EXPECT_EQ(with([](SlurmOptions& o) { o.partition = "a,"; }).rfind("--partition 'a,'", 0), 0u);
  for (const char* time : {"-5", "1:00\ntouch x", "1:2:3:4", "1h"})
    EXPECT_EQ(with([&](SlurmOptions& o) { o.time = time; }).rfind("--time '", 0), 0u) << time;
  for (const char* mem : {"4 GB", "4G\nid", "-1", "1.5G"})
    EXPECT_EQ(with([&](SlurmOptions& o) { o.mem = mem; }).rfind("--mem '", 0), 0u) << mem;
  for (const char* line : {"--constraint=x\rid", "--a\tb", "constraint=x"})
    EXPECT_EQ(with([&](SlurmOptions& o) { o.extra = {line}; }).rfind("--sbatch '", 0), 0u)
        << line;
}

TEST(SlurmValues, TheJobNameIsOneOfSlurmsNames) {
  EXPECT_EQ(slurm_job_name("op-sweep_2.v1"), "ssdlab-op-sweep_2.v1");
  EXPECT_EQ(slurm_job_name("a b\n$(id)"), "ssdlab-a_b___id_");
}

}  // namespace
}  // namespace ssdlab::sim
