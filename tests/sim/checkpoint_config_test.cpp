// A checkpoint's config (issue 51): state-info reads every checkpoint that
// loads, whatever the FTL and the features on (M3: the echo of an automatic
// 0 was validated as an explicit value); a mismatch is named as the config
// difference it is, not as corruption or another build (L7); and timing and
// host keys that differ warn in both directions (L12).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sstream>

#include "run_support.h"
#include "sim/config/config.h"
#include "sim/run/state_info.h"
#include "test_support.h"

namespace ssdlab::sim {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using ::testing::Not;

const std::vector<std::string> kZoned = {"ftl.type=\"zoned\"", "ftl.overprovisioning=0.03",
                                         "ftl.zone_width=2"};

std::vector<std::string> with(std::vector<std::string> a, const std::vector<std::string>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

struct Device {
  std::string name, preset, workload;
  std::vector<std::string> sets;
};

// Every FTL type, and the host log, the SLC cache and FDP.
const std::vector<Device>& devices() {
  static const std::vector<Device> all = {
      {"page-mapped", "tiny", "RW:count=30", {}},
      {"block-mapped", "tiny", "RW:count=30", {"ftl.type=\"block-mapped\""}},
      {"bast", "tiny", "RW:count=30", {"ftl.type=\"bast\""}},
      {"fast", "tiny", "RW:count=30", {"ftl.type=\"fast\""}},
      {"dftl", "tiny", "RW:count=30", {"ftl.type=\"dftl\""}},
      {"zoned", "tiny", "SW:zones_open=1,io_size=16384,count=100", kZoned},
      {"host-log", "tiny", "RW:count=30", with(kZoned, {"host.log.overprovisioning=0.12"})},
      {"slc-cache",
       "tiny-tlc",
       "RW:count=30",
       {"slc_cache.mode=\"dynamic\"", "slc_cache.size_gib=0.004"}},
      {"fdp", "tiny", "RW:count=30", {"ftl.placement=\"fdp\"", "ftl.fdp_handles=2"}},
  };
  return all;
}

fs::path save(const fs::path& dir, const Device& device) {
  auto options = testing::sim_options(device.workload, device.sets);
  options.save_state = (dir / (device.name + ".ssd")).string();
  testing::run_preset(device.preset, dir, device.name, options);
  return options.save_state;
}

TEST(CheckpointConfig, StateInfoReadsTheCheckpointOfEveryFtlAndFeature) {
  const auto dir = testing::temp_dir_for_this_test("checkpoint-config-");
  for (const Device& device : devices()) {
    SCOPED_TRACE(device.name);
    const fs::path file = save(dir, device);
    std::ostringstream out;
    EXPECT_NO_THROW(run_state_info(file.string(), out));
    EXPECT_THAT(out.str(), HasSubstr("saved after run"));
  }
}

TEST(CheckpointConfig, EveryEchoReadsBackAsTheSameConfig) {
  for (const Device& device : devices()) {
    SCOPED_TRACE(device.name);
    const DeviceConfig config = load_config(testing::preset(device.preset), device.sets);
    const nlohmann::json echo = to_json(config);
    nlohmann::json again = to_json(config_from_json(echo, "the echo"));
    again["source"] = echo["source"];  // where it came from: not read back
    again["name"] = echo["name"];
    EXPECT_EQ(again, echo);
  }
}

// `ssdlab sim` loading `file` with these --set overrides, in-process: its
// exit status, and what it printed and logged (its warnings).
testing::CommandResult load(const fs::path& dir, const fs::path& file,
                            const std::vector<std::string>& sets,
                            const std::string& preset = "tiny") {
  auto options = testing::sim_options("RR:count=10", sets);
  options.quiet = true;
  options.load_state = file.string();
  return testing::in_process_with_stderr([&](std::ostream& out) {
    testing::sim_preset(preset, dir / "loaded", options, {options.workload}, {}, out);
  });
}

TEST(CheckpointConfig, AMismatchNamesTheConfigDifference) {
  const auto dir = testing::temp_dir_for_this_test("checkpoint-config-");
  const fs::path host_log = save(dir, devices()[6]);
  auto result = load(dir, host_log, kZoned);
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_THAT(result.output, HasSubstr("was saved from a device with a [host.log]"));
  EXPECT_THAT(result.output, Not(HasSubstr("corrupt")));
  result = load(dir, host_log, with(kZoned, {"host.log.overprovisioning=0.2"}));
  EXPECT_THAT(result.output, HasSubstr("host.log.overprovisioning = 0.12"));
  const fs::path zoned = save(dir, devices()[5]);
  result = load(dir, zoned, with(kZoned, {"host.log.overprovisioning=0.12"}));
  EXPECT_THAT(result.output, HasSubstr("without a [host.log]"));
  const fs::path plain = save(dir, devices()[0]);
  result = load(dir, plain, {"ftl.placement=\"fdp\"", "ftl.fdp_handles=2"});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_THAT(result.output, HasSubstr("ftl.placement = none, but the config has \"fdp\""));
  EXPECT_THAT(result.output, Not(HasSubstr("another ssdlab build")));
}

TEST(CheckpointConfig, TimingAndHostKeysThatDifferWarnBothWays) {
  const auto dir = testing::temp_dir_for_this_test("checkpoint-config-");
  for (const std::string_view set :
       {"timing.suspend=true", "host.firmware_us=40", "host.link.generation=3"}) {
    SCOPED_TRACE(set);
    std::vector<std::string> sets = {std::string(set)};
    if (set.starts_with("host.link")) sets.push_back("host.link.lanes=4");
    const Device saved{"with", "tiny", "RW:count=30", sets};
    std::error_code ignored;
    fs::remove_all(dir / "with", ignored);
    const fs::path file = save(dir, saved);
    // Saved with the key, loaded without it: the direction that was silent.
    const auto result = load(dir, file, {});
    EXPECT_EQ(result.exit_code, 0) << result.output;
    EXPECT_THAT(result.output, HasSubstr("differ from the saved one's"));
  }
}

}  // namespace
}  // namespace ssdlab::sim
