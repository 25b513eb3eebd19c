// DiskSim's access time (DeviceCounters::access_time; issue 36), the
// statistic of Agrawal et al.'s Table 3: the host's page accesses at their
// unloaded flash time plus one sample per cleaned block carrying its serial
// cost, no queueing. Expectations follow from the config's timing.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "common/rng.h"
#include "run_support.h"
#include "sim/controller/ssd.h"
#include "sim/report/device_snapshot.h"
#include "sim/results/device_counters.h"
#include "test_support.h"

namespace ssdlab {
namespace {

TimeNs submit_all(sim::Ssd& ssd, IoMode mode, std::uint64_t count, std::uint32_t size,
                  std::uint64_t seed, TimeNs gap = 0) {
  Rng rng(seed);
  const std::uint64_t slots = ssd.logical_bytes() / size;
  TimeNs now = 0;
  for (std::uint64_t i = 0; i < count; ++i) {
    const TimeNs done = *ssd.start({rng.uniform(slots) * size, size, mode}, now);
    now = gap > 0 ? now + gap : done;  // gap: requests overlap and queue
  }
  return now;
}

TEST(AccessTime, IsTheUnloadedPageAccessTimeWhateverTheQueueing) {
  auto config = testing::load_preset("tiny");
  config.ftl.two_plane = false;
  const auto& g = config.geometry;
  const double read_us = static_cast<double>(config.timing.page_read_latency(g)) / 1000.0;
  const double write_us = static_cast<double>(config.timing.page_program_latency(g)) / 1000.0;
  for (const TimeNs gap : {TimeNs{0}, TimeNs{1000}}) {  // one at a time; 1 us apart
    sim::Ssd ssd(config);
    submit_all(ssd, IoMode::kWrite, 300, 4096, 3, gap);
    submit_all(ssd, IoMode::kRead, 200, 4096, 4, gap);
    const auto c = sim::device_counters_of(ssd);
    ASSERT_EQ(c.ftl.blocks_cleaned, 0u);
    ASSERT_EQ(c.host_write_accesses, 300u);
    const auto a = c.access_time();
    EXPECT_NEAR(a.write_us, write_us, 1e-9) << "gap " << gap;
    EXPECT_NEAR(a.mean_us, (300 * write_us + c.host_read_accesses * read_us) /
                               static_cast<double>(300 + c.host_read_accesses),
                1e-9);
    if (c.host_read_accesses > 0) {
      EXPECT_NEAR(a.read_us, read_us, 1e-9);
    }
  }
}

TEST(AccessTime, EachCleanedBlockIsOneSampleOfItsSerialCost) {
  auto config = testing::load_preset("tiny");
  config.ftl.copy_back = false;
  sim::Ssd ssd(config);
  ssd.prefill(0, ssd.logical_bytes());
  const auto before = sim::device_counters_of(ssd);
  submit_all(ssd, IoMode::kWrite, 8000, 4096, 7);
  const auto run = sim::device_counters_of(ssd) - before;
  ASSERT_GT(run.ftl.blocks_cleaned, 0u);
  ASSERT_EQ(run.ftl.wear_migrations, 0u);
  const double host_us = static_cast<double>(run.host_write_flash_ns) / 1000.0;
  const double cleaning_us = static_cast<double>(run.cleaning_flash_ns) / 1000.0;
  const double samples = static_cast<double>(run.host_write_accesses + run.ftl.blocks_cleaned);
  const auto a = run.access_time();
  EXPECT_EQ(a.samples, run.host_write_accesses + run.ftl.blocks_cleaned);
  EXPECT_NEAR(a.write_us, (host_us + cleaning_us) / samples, 1e-6);
  EXPECT_DOUBLE_EQ(a.mean_us, a.write_us);  // no reads
  // Cleaning raises it above a page write's unloaded time.
  const double write_us =
      static_cast<double>(config.timing.page_program_latency(config.geometry)) / 1000.0;
  EXPECT_GT(a.write_us, write_us);
}

TEST(AccessTime, SummaryJsonCarriesItAndItsSums) {
  const auto dir = testing::temp_dir_for_this_test("access");
  auto options = testing::sim_options("RW:io_size=4096,count=6000");
  options.precondition = "seq";
  options.io_log = false;
  const auto summary = testing::summary_of(testing::run_tiny(dir, "run", options));
  const auto& d = summary["experiments"][0]["runs"][0]["device"];
  ASSERT_GT(d["blocks_cleaned"].get<double>(), 0);
  const double samples = d["host_read_accesses"].get<double>() +
                         d["host_write_accesses"].get<double>() +
                         d["blocks_cleaned"].get<double>() + d["wear_migrations"].get<double>();
  EXPECT_EQ(d["access_time_samples"].get<double>(), samples);
  EXPECT_NEAR(d["access_time_us"].get<double>(),
              (d["host_read_flash_time_us"].get<double>() +
               d["host_write_flash_time_us"].get<double>() +
               d["cleaning_flash_time_us"].get<double>()) /
                  samples,
              1e-6);
  // Read back as it was written.
  const auto back = sim::device_counters_from_json(d);
  EXPECT_NEAR(back.access_time().mean_us, d["access_time_us"].get<double>(), 1e-6);
}

}  // namespace
}  // namespace ssdlab
