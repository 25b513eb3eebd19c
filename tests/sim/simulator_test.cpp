// The simulator loop: queue depth, processes, ignored I/Os, determinism, and
// two simulators in one process.
#include "sim/engine/simulator.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

#include "common/checked.h"
#include "common/error.h"
#include "test_support.h"
#include "workloads/generator.h"
#include "workloads/plan.h"

namespace ssdlab::sim {
namespace {

workloads::ExperimentSpec inline_spec(const std::string& text) {
  return workloads::parse_inline(text).experiments.front();
}

std::string run_to_csv(const DeviceConfig& config, const std::string& workload, std::uint64_t seed,
                       const std::string& name) {
  const auto dir = testing::temp_dir(name);
  {
    Ssd ssd(config);
    IoLog log(dir / "io.csv");
    Simulator simulator(ssd, &log);
    simulator.run(inline_spec(workload), 0, seed);
    log.commit();
  }
  return testing::read_file(dir / "io.csv");
}

TEST(Simulator, SameSeedGivesByteIdenticalIoCsv) {
  const auto config = testing::load_preset("tiny");
  const std::string workload = "RW:io_size=8192,count=500,queue_depth=4,processes=2";
  const std::string a = run_to_csv(config, workload, 5, "seed-a");
  const std::string b = run_to_csv(config, workload, 5, "seed-b");
  const std::string c = run_to_csv(config, workload, 6, "seed-c");
  EXPECT_EQ(a, b);
  EXPECT_NE(a, c);
  EXPECT_EQ(a.substr(0, a.find('\n')), kIoCsvHeader);
}

TEST(Simulator, TwoSimulatorsInOneProcessDoNotInterfere) {
  const auto config = testing::load_preset("tiny");
  const auto spec = inline_spec("RW:io_size=4096,count=300,queue_depth=2");
  Ssd alone_ssd(config);
  Simulator alone(alone_ssd, nullptr);
  const RunResult expected = alone.run(spec, 0, 9);

  Ssd ssd_a(config), ssd_b(config);
  Simulator a(ssd_a, nullptr), b(ssd_b, nullptr);
  const RunResult other = b.run(inline_spec("SW:io_size=16384,count=100"), 0, 1);
  const RunResult result = a.run(spec, 0, 9);
  EXPECT_EQ(result.stats.mean_ns, expected.stats.mean_ns);
  EXPECT_EQ(result.end_ns, expected.end_ns);
  EXPECT_NE(other.end_ns, result.end_ns);
}

TEST(Simulator, KeepsQueueDepthIosOutstandingPerProcess) {
  const auto config = testing::load_preset("agrawal-baseline");
  Ssd ssd(config);
  const auto dir = testing::temp_dir("qd");
  IoLog log(dir / "io.csv");
  Simulator simulator(ssd, &log);
  simulator.run(inline_spec("SW:io_size=4096,count=64,queue_depth=8"), 0, 1);
  log.commit();
  // The first eight I/Os are all submitted at time 0, the ninth only later.
  const std::string csv = testing::read_file(dir / "io.csv");
  int at_zero = 0;
  std::size_t pos = 0;
  while ((pos = csv.find(",0.000,", pos)) != std::string::npos) ++at_zero, ++pos;
  EXPECT_EQ(at_zero, 8);
}

TEST(Simulator, IgnoredIosAreLoggedButNotCounted) {
  const auto config = testing::load_preset("tiny");
  Ssd ssd(config);
  const auto dir = testing::temp_dir("ignore");
  IoLog log(dir / "io.csv");
  Simulator simulator(ssd, &log);
  const RunResult result = simulator.run(inline_spec("RW:count=100,io_ignore=30"), 0, 1);
  log.commit();
  EXPECT_EQ(result.stats.count, 100u);
  EXPECT_EQ(result.stats.ignored, 30u);
  EXPECT_EQ(log.rows(), 100u);
}

TEST(Simulator, ProcessesStayInTheirOwnShareOfTheTarget) {
  const auto config = testing::load_preset("tiny");
  Ssd ssd(config);
  const auto spec = inline_spec("RW:io_size=4096,count=200,processes=4,target_size=1MiB");
  for (std::uint32_t p = 0; p < 4; ++p) {
    workloads::IoGenerator generator(spec, p, ssd.logical_bytes(), 3);
    for (int i = 0; i < 200; ++i) {
      const auto io = generator.next();
      EXPECT_GE(io.offset, p * 262144u);
      EXPECT_LT(io.offset + io.size, (p + 1) * 262144u + 1);
    }
  }
}

TEST(Simulator, SequentialPatternsWrapAroundInsideTheTarget) {
  const auto spec = inline_spec("SR:io_size=4096,target_offset=8192,target_size=16KiB");
  workloads::IoGenerator generator(spec, 0, 1 << 20, 1);
  std::vector<std::uint64_t> offsets;
  for (int i = 0; i < 6; ++i) offsets.push_back(generator.next().offset);
  EXPECT_EQ(offsets, (std::vector<std::uint64_t>{8192, 12288, 16384, 20480, 8192, 12288}));
}

TEST(Simulator, PauseSpacesSubmissionsByResponseTimePlusPause) {
  // t(IO_i) = t(IO_i-1) + rt(IO_i-1) + Pause (uFLIP Table 1).
  const auto config = testing::load_preset("tiny");
  Ssd ssd(config);
  ssd.prefill(0, 1 << 20);
  const auto dir = testing::temp_dir("pause");
  IoLog log(dir / "io.csv");
  Simulator simulator(ssd, &log);
  simulator.run(inline_spec("SR:io_size=4096,count=4,pause_us=1000,target_size=1MiB"), 0, 1);
  log.commit();
  // Unloaded 4 KiB reads take 130.6 us each.
  EXPECT_EQ(
      testing::read_file(dir / "io.csv"),
      std::string(kIoCsvHeader) +
          "\nSR/io_size=4096/pause_us=1000/target_size=1MiB,0,0,0,0.000,130.600,R,0,4096\n"
          "SR/io_size=4096/pause_us=1000/target_size=1MiB,0,0,1,1130.600,130.600,R,4096,4096\n"
          "SR/io_size=4096/pause_us=1000/target_size=1MiB,0,0,2,2261.200,130.600,R,8192,4096\n"
          "SR/io_size=4096/pause_us=1000/target_size=1MiB,0,0,3,3391.800,130.600,R,12288,"
          "4096\n");
}

TEST(Simulator, BurstPausesOnlyBetweenGroups) {
  Ssd ssd(testing::load_preset("tiny"));
  ssd.prefill(0, 1 << 20);
  Simulator simulator(ssd, nullptr);
  // 6 reads in bursts of 3 with 10 ms between: 6 x 130.6 us + 10 ms.
  simulator.run(inline_spec("SR:io_size=4096,count=6,pause_us=10000,burst=3,target_size=1MiB"), 0,
                1);
  EXPECT_EQ(simulator.now(), 6 * 130'600 + 10'000'000);
}

TEST(Simulator, RunPauseIdlesTheDeviceBeforeTheRun) {
  Ssd ssd(testing::load_preset("tiny"));
  ssd.prefill(0, 1 << 20);
  Simulator simulator(ssd, nullptr);
  const RunResult result =
      simulator.run(inline_spec("SR:io_size=4096,count=2,run_pause_us=500,target_size=1MiB"), 0, 1);
  EXPECT_EQ(result.start_ns, 500'000);
  EXPECT_EQ(simulator.now(), 500'000 + 2 * 130'600);
}

TEST(Simulator, PausesPastTheClocksBoundStopTheRunNamingTheKey) {
  // A plan is refused before it runs (workloads::check_plan_time); a spec
  // made without that check meets the simulator's own: an error, never a
  // wrapped time.
  const auto error_of = [](const std::string& workload, TimeNs start) -> std::string {
    Ssd ssd(testing::load_preset("tiny"));
    ssd.prefill(0, 1 << 20);
    Simulator simulator(ssd, nullptr);
    simulator.resume_at(start);
    try {
      simulator.run(inline_spec(workload), 0, 1);
    } catch (const Error& error) {
      EXPECT_LE(simulator.now(), kClockLimitNs);
      return error.what();
    }
    return "no error";
  };
  EXPECT_NE(error_of("SR:io_size=4096,count=10000,pause_us=1e12,target_size=1MiB", 0)
                .find("pause_us: a pause of 1000000000000.000 us at "),
            std::string::npos);
  EXPECT_NE(
      error_of("SR:io_size=4096,count=1,run_pause_us=2,target_size=1MiB", kClockLimitNs - 1000)
          .find("run_pause_us: a pause of 2.000 us at "),
      std::string::npos);
}

TEST(Simulator, AutoIoIgnoreCutsTheStartUpPhase) {
  // Random writes on a fresh device are cheap until the free blocks run out
  // and cleaning starts: a start-up phase (uFLIP §4.2) for the detector.
  Ssd ssd(testing::load_preset("tiny"));
  Simulator simulator(ssd, nullptr);
  const RunResult automatic = simulator.run(inline_spec("RW:count=8000,io_ignore=auto"), 0, 1);
  EXPECT_GT(automatic.startup, 1000u);
  EXPECT_LT(automatic.startup, 4000u);
  EXPECT_EQ(automatic.stats.ignored, automatic.startup);
  EXPECT_EQ(automatic.stats.count, 8000u);
}

TEST(Simulator, VerificationRunOnTheTinyDevicePasses) {
  const auto config = testing::load_preset("tiny");
  Ssd ssd(config, {.verify = true});
  Simulator simulator(ssd, nullptr);
  simulator.run(inline_spec("RW:io_size=2048,count=1000,queue_depth=4"), 0, 1);
  ssd.prefill(0, ssd.logical_bytes());
  simulator.run(inline_spec("RR:io_size=12KiB,count=1000,queue_depth=4"), 0, 1);
  EXPECT_GT(ssd.core().observers().verified_pages(), 2000u);
  EXPECT_NO_THROW(ssd.ftl().check_invariants());
}

}  // namespace
}  // namespace ssdlab::sim
