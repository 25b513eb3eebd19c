// Tenants (sim/run/tenant_run.h): several workloads at once, each on its
// submission queue and namespace; per-tenant figures; --fairness; the host
// queues' arbitration in a whole run; and the config keys of queues and
// namespaces.
#include "sim/run/tenant_run.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "analysis/compare.h"
#include "run_support.h"
#include "sim/config/config.h"
#include "sim/results/io_csv.h"
#include "sim/results/summary.h"
#include "test_support.h"

namespace ssdlab {
namespace {

namespace fs = std::filesystem;

class TenantRun : public ::testing::Test {
 protected:
  void SetUp() override { dir_ = testing::temp_dir_for_this_test("tenants-"); }

  // ssdlab sim -c tiny -w each of `workloads` with `sets` (--set); returns
  // its summary, or throws its error.
  sim::SummaryRecord Run(const std::vector<std::string>& workloads,
                         const std::vector<std::string>& sets = {}, bool fairness = false,
                         const std::string& name = "out", const std::string& precondition = "") {
    sim::SimOptions options;
    options.config = testing::preset("tiny");
    options.outdir = (dir_ / name).string();
    options.overrides = sets;
    options.fairness = fairness;
    options.precondition = precondition;
    options.state_cache = false;
    options.quiet = true;
    std::ostringstream out;
    sim::run_sim_or_replay(options, workloads, sim::TraceOptions{}, out);
    printed_ = out.str();
    return sim::read_summary(dir_ / name / "summary.json");
  }
  std::string Error(const std::vector<std::string>& workloads,
                    const std::vector<std::string>& sets = {}) {
    try {
      Run(workloads, sets);
    } catch (const ssdlab::Error& error) {
      return error.what();
    }
    ADD_FAILURE() << "no error";
    return "";
  }
  std::vector<sim::IoRow> Rows(const std::string& name = "out") {
    sim::IoCsvReader reader(dir_ / name / "io.csv");
    std::vector<sim::IoRow> rows;
    sim::IoRow row;
    while (reader.next(row)) rows.push_back(row);
    return rows;
  }
  static std::string Bytes(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
  }

  fs::path dir_;
  std::string printed_;
};

// Two namespaces of 4 MiB, the second with a quarter of its size unexported
// behind it.
const std::vector<std::string> kNamespaces = {
    "host.namespaces=[{size=\"4MiB\"},{size=\"4MiB\",overprovisioning=0.25}]"};

TEST_F(TenantRun, TwoPlansRunTogetherAsTwoExperimentsAtOnce) {
  const auto summary =
      Run({"RR:count=400,queue_depth=2,name=reader", "RW:count=800,queue_depth=8,name=writer"}, {},
          false, "out", "random");
  ASSERT_EQ(summary.experiments.size(), 2u);
  EXPECT_EQ(summary.experiments[0].name, "reader");
  EXPECT_EQ(summary.experiments[1].name, "writer");
  ASSERT_TRUE(summary.tenants);
  const auto& tenants = *summary.tenants;
  EXPECT_EQ(tenants[0].ios, 400u);
  EXPECT_EQ(tenants[1].ios, 800u);
  // Only the writer's writes clean.
  EXPECT_EQ(tenants[0].pages_moved_by_writes, 0u);
  EXPECT_GT(tenants[1].pages_moved_by_writes, 0u);
  EXPECT_LE(tenants[1].pages_moved_by_writes,
            summary.device->ftl.copy_backs + summary.device->ftl.inter_plane_moves);
  // Together: each tenant's first I/O is submitted at the run's start.
  std::map<std::string, TimeNs> first;
  for (const auto& row : Rows())
    if (!first.count(row.experiment)) first[row.experiment] = row.submit_ns;
  EXPECT_EQ(first["reader"], 0);
  EXPECT_EQ(first["writer"], 0);
}

TEST_F(TenantRun, NamespacesPlaceEachTenantInItsRange) {
  const std::uint64_t mib = 1 << 20;
  const auto summary =
      Run({"RW:count=300,name=first", "RW:count=300,namespace=2,name=second"}, kNamespaces);
  ASSERT_TRUE(summary.tenants);
  EXPECT_EQ((*summary.tenants)[0].namespace_id, 1u);  // the default with namespaces
  EXPECT_EQ((*summary.tenants)[1].namespace_base, 4 * mib);
  EXPECT_EQ((*summary.tenants)[1].namespace_bytes, 4 * mib);
  for (const auto& row : Rows()) {
    const std::uint64_t base = row.experiment == "first" ? 0 : 4 * mib;
    EXPECT_GE(row.offset, base);
    EXPECT_LE(row.offset + row.size, base + 4 * mib) << row.experiment;
  }
}

TEST_F(TenantRun, OneNamespaceIsNamespaceOneAndTraceOptionsNeedATrace) {
  const auto summary = Run({"RW:count=50", "RR:count=50"}, {"host.namespaces=[{size=\"4MiB\"}]"});
  EXPECT_EQ((*summary.tenants)[1].namespace_id, 1u);
  EXPECT_EQ((*summary.tenants)[1].namespace_bytes, std::uint64_t{4} << 20);
  sim::SimOptions options;
  options.config = testing::preset("tiny");
  options.outdir = (dir_ / "mode").string();
  sim::TraceOptions trace;
  trace.mode = "closed";
  std::ostringstream out;
  EXPECT_EQ(testing::error_of([&] {
              sim::run_sim_or_replay(options, {"RW:count=5", "RR:count=5"}, trace, out);
            }),
            "--mode: only for trace workloads (-w trace:FILE), not -w 'RW:count=5'");
}

TEST_F(TenantRun, APlanOfSeveralRunsOnADeviceWithQueuesRunsAsBefore) {
  // uFLIP's plans (many experiments, several runs) run on the whole device,
  // on the queue they name; a tenant is one experiment of one run.
  const std::vector<std::string> sets = {"host.queues=[{},{}]", kNamespaces[0]};
  const auto summary = Run({"RW:count=100,runs=2,queue=2"}, sets);
  EXPECT_FALSE(summary.tenants);
  EXPECT_EQ(summary.experiments.front().runs.size(), 2u);
  EXPECT_EQ(Error({"RW:count=100,runs=2,namespace=2"}, sets),
            "-w 'RW:count=100,runs=2,namespace=2': namespace 2: only a tenant runs in a namespace "
            "(a plan of one experiment of one run, or several workloads at once); this plan runs "
            "on the whole device");
  EXPECT_NE(Error({"RW:count=100,runs=2,queue=3"}, sets)
                .find("queue 3: the device has 2 submission queues ([[host.queues]] in"),
            std::string::npos);
  // One experiment of one run on the same device is a tenant (namespace 1).
  const auto one = Run({"RW:count=100"}, sets, false, "one");
  ASSERT_TRUE(one.tenants);
  EXPECT_EQ((*one.tenants)[0].namespace_id, 1u);
}

TEST_F(TenantRun, ATraceTakesItsNamespaceAndQueueByKey) {
  const std::string trace = std::string(SSDLAB_SOURCE_DIR) + "/traces/examples/synthetic.csv";
  const auto summary = Run({"trace:" + trace + ",namespace=2,queue=2,map=modulo", "RR:count=100"},
                           {kNamespaces[0], "host.queues=[{depth=4},{depth=4}]"});
  ASSERT_TRUE(summary.tenants);
  EXPECT_EQ((*summary.tenants)[0].queue, 2u);
  EXPECT_EQ((*summary.tenants)[0].namespace_id, 2u);
  ASSERT_TRUE(summary.experiments[0].trace);
  for (const auto& row : Rows()) {
    if (row.experiment != "RR") {
      EXPECT_GE(row.offset, std::uint64_t{4} << 20);
    }
  }
}

TEST_F(TenantRun, QueuesAndNamespacesOutsideTheDeviceAreInputErrors) {
  EXPECT_EQ(Error({"RW:count=10", "RR:count=10,queue=2"}),
            "-w 'RR:count=10,queue=2': queue 2: the device has 1 submission queue (give "
            "[[host.queues]] tables for more)");
  EXPECT_EQ(Error({"RW:count=10", "RR:count=10,namespace=3"}, kNamespaces),
            "-w 'RR:count=10,namespace=3': namespace 3: the device has 2 namespaces "
            "([[namespace]] in " +
                testing::preset("tiny") + ")");
  EXPECT_EQ(Error({"RW:count=10", "RR:count=10,namespace=1"}),
            "-w 'RR:count=10,namespace=1': namespace 1: the device has no namespaces (give "
            "[[namespace]] tables in its config)");
  // A single plan without queues or namespaces runs as before: its keys must fit too.
  EXPECT_EQ(Error({"RR:count=10,queue=2"}),
            "-w 'RR:count=10,queue=2': queue 2: the device has 1 submission queue (give "
            "[[host.queues]] tables for more)");
  EXPECT_NE(Error({"RW:count=10"}, {"host.namespaces=[{size=\"16MiB\"}]"})
                .find("host.namespaces: 1 namespaces take 16 MiB"),
            std::string::npos);
}

TEST_F(TenantRun, OneDeclaredQueueWithoutADepthIsTheHostQueueOfBefore) {
  const std::vector<std::string> plan = {"RR:count=2000,processes=4,mix_pattern=RW,mix_ratio=1"};
  Run(plan, {"host.queue_depth=2"}, false, "plain");
  Run(plan, {"host.queue_depth=2", "host.queues=[{depth=0}]"}, false, "declared");
  EXPECT_EQ(Bytes(dir_ / "plain" / "io.csv"), Bytes(dir_ / "declared" / "io.csv"));
}

// Completions of each tenant before the first of them ends: the shares
// arbitration gave them while both were busy.
std::map<std::string, double> shares_while_both_run(const std::vector<sim::IoRow>& rows) {
  std::map<std::string, TimeNs> last;
  for (const auto& row : rows)
    last[row.experiment] = std::max(last[row.experiment], row.submit_ns + row.response_ns);
  TimeNs end = last.begin()->second;
  for (const auto& [name, at] : last) end = std::min(end, at);
  std::map<std::string, double> done;
  for (const auto& row : rows)
    if (row.submit_ns + row.response_ns <= end) done[row.experiment] += 1;
  return done;
}

TEST_F(TenantRun, WeightedArbitrationSharesThroughputInTheRatioOfTheWeights) {
  const std::vector<std::string> workloads = {"RR:count=3000,queue_depth=16,name=high,queue=1",
                                              "RR:count=3000,queue_depth=16,name=low,queue=2"};
  Run(workloads,
      {"host.queue_depth=2", "host.arbitration=\"weighted\"", "host.weight_high=3",
       "host.weight_low=1", "host.queues=[{priority=\"high\"},{priority=\"low\"}]"},
      false, "weighted");
  auto done = shares_while_both_run(Rows("weighted"));
  EXPECT_NEAR(done["high"] / done["low"], 3.0, 0.15);
  Run(workloads, {"host.queue_depth=2", "host.queues=[{},{}]"}, false, "round-robin");
  done = shares_while_both_run(Rows("round-robin"));
  EXPECT_NEAR(done["high"] / done["low"], 1.0, 0.05);
}

TEST_F(TenantRun, AloneRunsStartFromTheSameState) {
  // One tenant: alone is the shared run itself, to the nanosecond.
  const auto one = Run({"RW:count=500,queue_depth=4"}, {}, true, "one", "random");
  ASSERT_TRUE(one.fairness);
  EXPECT_EQ((*one.tenants)[0].slowdown_mean, 1.0);
  EXPECT_EQ((*one.tenants)[0].slowdown_p99, 1.0);
  EXPECT_EQ(one.fairness->index_mean, 1.0);
  // A reader beside a heavy writer slows down more than the writer does.
  const auto two = Run({"RR:count=500,name=reader", "RW:count=3000,queue_depth=16,name=writer"}, {},
                       true, "two", "random");
  const auto& t = *two.tenants;
  EXPECT_GT(*t[0].slowdown_mean, *t[1].slowdown_mean);
  EXPECT_GT(*t[0].slowdown_mean, 1.5);
  EXPECT_DOUBLE_EQ(two.fairness->index_mean,
                   std::min(*t[0].slowdown_mean, *t[1].slowdown_mean) /
                       std::max(*t[0].slowdown_mean, *t[1].slowdown_mean));
  EXPECT_NE(printed_.find("fairness index (min/max slowdown"), std::string::npos);
}

TEST_F(TenantRun, SlowdownsWhileEveryTenantRunsLeaveOutTheTailAlone) {
  // docs/tenants.md's example: the writer ends first, and the reader's last
  // reads run alone. Over its whole run the reader's slowdown mixes them in
  // (28.1); while the writer runs it is 41.6 (the fidelity review: 41.7).
  const auto s = Run({"RR:count=2000,queue_depth=2,name=reader",
                      "RW:count=8000,queue_depth=16,name=writer"},
                     {}, true, "window", "random");
  const auto& reader = (*s.tenants)[0];
  const auto& writer = (*s.tenants)[1];
  ASSERT_TRUE(reader.contended && writer.contended);
  EXPECT_EQ(writer.contended->ios, writer.ios);  // it ends the window
  EXPECT_LT(reader.contended->ios, reader.ios);
  EXPECT_GT(*reader.contended->slowdown_mean, 1.3 * *reader.slowdown_mean);
  EXPECT_EQ(reader.contended->from_us, writer.contended->from_us);
  ASSERT_TRUE(s.fairness->contended_index_mean);
  EXPECT_LT(*s.fairness->contended_index_mean, s.fairness->index_mean);
  EXPECT_DOUBLE_EQ(*s.fairness->contended_index_mean,
                   *writer.contended->slowdown_mean / *reader.contended->slowdown_mean);
  EXPECT_NE(printed_.find("while every tenant ran (FLIN's): mean"), std::string::npos);
  // One tenant has no window.
  const auto one = Run({"RW:count=500,queue_depth=4"}, {}, true, "alone-window", "random");
  EXPECT_FALSE((*one.tenants)[0].contended);
  EXPECT_FALSE(one.fairness->contended_index_mean);
}

TEST_F(TenantRun, FairDispatchServesALightWriterBesideAHeavyOne) {
  // Reads-first cannot help a tenant whose requests are writes too; the
  // fewest-queued order (flash/scheduler_fewest_queued.cpp) takes the least
  // intensive tenant first.
  const std::vector<std::string> tenants = {"RW:count=300,queue_depth=1,name=light",
                                            "RW:count=6000,queue_depth=16,name=heavy"};
  std::map<std::string, double> index;
  for (const std::string order : {"read>write>cleaning", "fewest-queued"}) {
    const auto summary = Run(tenants, {"controller.dispatch_order=\"" + order + "\""}, true,
                             order == "fewest-queued" ? "fewest-queued" : "reads-first", "random");
    index[order] = summary.fairness->index_mean;
    EXPECT_EQ(summary.fairness->dispatch_order, order);
  }
  EXPECT_GT(index["fewest-queued"], 2 * index["read>write>cleaning"]);
  // compare pairs the tenants of the two runs by name, as any experiments.
  analysis::CompareOptions compare;
  compare.a = (dir_ / "reads-first").string();
  compare.b = (dir_ / "fewest-queued").string();
  std::ostringstream table;
  EXPECT_EQ(analysis::run_compare(compare, table), 0);
  EXPECT_NE(table.str().find("\n  light "), std::string::npos) << table.str();
  EXPECT_NE(table.str().find("\n  heavy "), std::string::npos) << table.str();
  EXPECT_NE(table.str().find("over 2 experiments"), std::string::npos) << table.str();
}

TEST_F(TenantRun, SeveralTracesWithoutTenantKeysWriteNoTenantsBlock) {
  const std::string traces = std::string(SSDLAB_SOURCE_DIR) + "/traces/examples/";
  const auto summary =
      Run({"trace:" + traces + "synthetic.csv", "trace:" + traces + "synthetic.disksim"});
  EXPECT_FALSE(summary.tenants);
  EXPECT_EQ(summary.layout, "shared");
}

TEST(HostQueueConfig, BadQueuesAndNamespacesAreOneErrorNamingTheKey) {
  const auto error = [](std::vector<std::string> sets) {
    return testing::preset_error("tiny", sets);
  };
  EXPECT_EQ(error({"host.queues=4"}),
            "--set host.queues=4: host.queues: expected tables ([[host.queues]] with their keys)");
  EXPECT_NE(error({"host.queues=[{depth=4,prio=\"high\"}]"}).find("unknown key"),
            std::string::npos);
  EXPECT_NE(error({"host.arbitration=\"weighted\"", "host.queues=[{priority=\"top\"}]"})
                .find("'top' is not a priority class (allowed: urgent, high, medium, low)"),
            std::string::npos);
  EXPECT_NE(error({"host.queues=[{priority=\"high\"}]"})
                .find("only weighted arbitration uses: set host.arbitration"),
            std::string::npos);
  EXPECT_NE(error({"host.arbitration=\"fair\""}).find("allowed: round-robin, weighted"),
            std::string::npos);
  EXPECT_NE(error({"host.namespaces=[{size=1000}]"}).find("not a whole number of"),
            std::string::npos);
  EXPECT_NE(error({"host.namespaces=[{overprovisioning=0.1}]"}).find("needs a size"),
            std::string::npos);
  // In a file, an error names the line of the key in its table.
  std::string text;
  {
    std::ifstream in(testing::preset("tiny"));
    text.assign(std::istreambuf_iterator<char>(in), {});
  }
  const int lines = static_cast<int>(std::count(text.begin(), text.end(), '\n'));
  const auto dir = testing::temp_dir("queue-table-lines");
  std::ofstream(dir / "typo.toml")
      << text << "[[host.queues]]\ndepth = 4\n[[host.queues]]\ndepht = 4\n";
  try {
    sim::load_config((dir / "typo.toml").string());
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()),
              fmt::format("{}:{}: unknown key 'host.queues[2].depht'; did you mean "
                          "'host.queues[2].depth'? (known in [host.queues[2]]: depth, priority)",
                          (dir / "typo.toml").string(), lines + 4));
  }
}

TEST(HostQueueConfig, QueuesAndNamespacesEchoAndLoadBack) {
  auto config = testing::load_preset("tiny");
  const nlohmann::json plain = sim::to_json(config);
  EXPECT_FALSE(plain["host"].contains("queues"));  // other configs echo as before
  config = sim::load_config(
      testing::preset("tiny"),
      {"host.arbitration=\"weighted\"", "host.queues=[{depth=8,priority=\"urgent\"},{depth=2}]",
       "host.namespaces=[{size=\"4MiB\",overprovisioning=0.1}]", "host.arbitration_burst=4"});
  const sim::DeviceConfig back = sim::config_from_json(sim::to_json(config), "echo");
  EXPECT_EQ(back.controller.host_queues.queues, config.controller.host_queues.queues);
  EXPECT_EQ(back.controller.host_queues.burst, 4u);
  EXPECT_EQ(back.namespaces, config.namespaces);
  EXPECT_EQ(sim::to_json(back)["host"], sim::to_json(config)["host"]);
  // [[namespace]] at the top level is the same as host.namespaces.
  const auto dir = testing::temp_dir("namespace-tables");
  std::string text;
  {
    std::ifstream in(testing::preset("tiny"));
    text.assign(std::istreambuf_iterator<char>(in), {});
  }
  std::ofstream(dir / "tiny-ns.toml") << text << "\n[[namespace]]\nsize = \"4MiB\"\n";
  EXPECT_EQ(sim::load_config((dir / "tiny-ns.toml").string()).namespaces.size(), 1u);
}

TEST(HostQueueConfig, TheNvmePresetIsTheTlcClientWithItsHostSide) {
  const auto nvme = testing::load_preset("tlc-client-nvme");
  const auto plain = testing::load_preset("tlc-client");
  EXPECT_EQ(nvme.controller.host_queues.queues.size(), 4u);
  EXPECT_EQ(nvme.controller.host_queues.queues[3].depth, 32u);
  EXPECT_TRUE(nvme.controller.link.on());
  // The drive itself is tlc-client.toml's, key for key.
  auto a = sim::to_json(nvme), b = sim::to_json(plain);
  for (const char* table : {"geometry", "timing", "ftl", "slc_cache", "controller"})
    EXPECT_EQ(a[table], b[table]) << table;
  EXPECT_EQ(a["host"]["queue_depth"], b["host"]["queue_depth"]);
}

}  // namespace
}  // namespace ssdlab
