// The FLIN dispatch order in whole runs of tenants (flash/flin.h through the
// host loop and the controller): every FTL verifies under it, its counters
// appear in summary.json with it only, the config echoes its thresholds, and
// a light writer beside a heavy one is served fairer than under FIFO and
// reads-first. Runs go through the library (run_support.h).
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "run_support.h"
#include "test_support.h"

namespace ssdlab {
namespace {

using testing::summary_of;

constexpr const char* kLight = "RW:count=300,queue_depth=1,name=light";
constexpr const char* kHeavy = "RW:count=3000,queue_depth=16,name=heavy";

nlohmann::json run_tenants(const std::filesystem::path& dir, const std::string& name,
                           std::vector<std::string> overrides, bool fairness = false,
                           const std::vector<std::string>& workloads = {kLight, kHeavy}) {
  sim::SimOptions options = testing::sim_options("", std::move(overrides));
  options.precondition = "random";
  options.fairness = fairness;
  std::ostringstream printed;
  testing::sim_preset("tiny", dir / name, options, workloads, sim::TraceOptions{}, printed);
  return summary_of(dir / name);
}

TEST(FlinRun, EveryFtlVerifiesWithTenants) {
  const auto dir = testing::temp_dir_for_this_test("flin-run-");
  for (const char* ftl : {"page-mapped", "block-mapped", "bast", "fast", "dftl"}) {
    sim::SimOptions options = testing::sim_options(
        "", {fmt::format("ftl.type=\"{}\"", ftl), "controller.dispatch_order=\"flin\"",
             "controller.flin.epoch_us=500"});
    options.precondition = "seq";
    options.verify = true;
    std::ostringstream printed;
    testing::sim_preset("tiny", dir / ftl, options,
                        {"RW:count=1500,read_share=0.5,queue_depth=4,name=a",
                         "RW:count=1500,read_share=0.3,queue_depth=16,name=b"},
                        sim::TraceOptions{}, printed);
    const auto summary = summary_of(dir / ftl);
    EXPECT_GT(summary["verification"]["pages_checked"].get<std::uint64_t>(), 0u) << ftl;
    EXPECT_GT(summary["device"]["flin_low_insertions"].get<std::uint64_t>(), 0u) << ftl;
  }
}

TEST(FlinRun, CountersAndThresholdsOnlyWithFlin) {
  const auto dir = testing::temp_dir_for_this_test("flin-run-");
  const auto fifo = run_tenants(dir, "fifo", {});
  EXPECT_FALSE(fifo["device"].contains("flin_low_insertions"));
  EXPECT_FALSE(fifo["config"]["controller"].contains("flin"));
  const auto flin = run_tenants(
      dir, "flin", {"controller.dispatch_order=\"flin\"", "controller.flin.alpha_write=2"});
  EXPECT_EQ(flin["config"]["controller"]["dispatch_order"], "flin");
  EXPECT_EQ(flin["config"]["controller"]["flin"]["alpha_write"], 2);
  EXPECT_EQ(flin["config"]["controller"]["flin"]["epoch_us"], 10000.0);
  const auto& device = flin["device"];
  EXPECT_GT(device["flin_low_insertions"].get<std::uint64_t>(), 0u);
  EXPECT_GT(device["flin_moved_forward"].get<std::uint64_t>() +
                device["flin_reordered"].get<std::uint64_t>(),
            0u);
}

TEST(FlinRun, ALightWriterIsServedFairerThanUnderFifoAndReadsFirst) {
  // FLIN's qualitative result (§7): its fairness index above FIFO's and
  // reads-first's on a mix of a light and a heavy writer.
  const auto dir = testing::temp_dir_for_this_test("flin-run-");
  std::map<std::string, double> index;
  for (const char* order : {"fifo", "read>write>cleaning", "flin"}) {
    const auto summary =
        run_tenants(dir, order[0] == 'r' ? "reads-first" : order,
                    {fmt::format("controller.dispatch_order=\"{}\"", order)}, true);
    index[order] = summary["fairness"]["contended_index_mean"].get<double>();
  }
  EXPECT_GT(index["flin"], index["fifo"]);
  EXPECT_GT(index["flin"], index["read>write>cleaning"]);
}

TEST(FlinRun, AnUrgentQueuesReadsGoFirstAtTheDies) {
  // Stage 2: with the host taking every request at once (queue_depth 0), the
  // host's arbitration holds nothing back; under flin the dies serve the
  // urgent queue's reads first, under fifo in arrival order.
  const auto dir = testing::temp_dir_for_this_test("flin-run-");
  const std::vector<std::string> readers = {"RR:count=3000,queue_depth=32,name=urgent,queue=1",
                                            "RR:count=3000,queue_depth=32,name=low,queue=2"};
  std::map<std::string, double> ratio;
  for (const char* order : {"fifo", "flin"}) {
    const auto summary = run_tenants(dir, order,
                                     {fmt::format("controller.dispatch_order=\"{}\"", order),
                                      "host.queues=[{priority=\"urgent\"},{priority=\"low\"}]",
                                      "host.arbitration=\"weighted\"", "host.queue_depth=0"},
                                     false, readers);
    const auto& tenants = summary["tenants"];
    ratio[order] = tenants[0]["contended"]["mean_us"].get<double>() /
                   tenants[1]["contended"]["mean_us"].get<double>();
  }
  EXPECT_GT(ratio["fifo"], 0.8);
  EXPECT_LT(ratio["flin"], 0.5);
}

}  // namespace
}  // namespace ssdlab
