// A device part added the way the next part will be (device_parts.h): its
// keys, values, construction, hooks, counters and checkpoint all in this
// one file, registered by one call, with no edit of the config's structs,
// the Ssd, the summary or the checkpoint code. The part, a tally, counts
// the host requests the device serves and the command lists the FTL emits
// for them ([tally] background = true: background lists too), and reports
// both under summary.json's "parts"."tally".
#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "common/error.h"
#include "common/state_io.h"
#include "common/toml_keys.h"
#include "config_fixture.h"
#include "records/field_list.h"
#include "run_support.h"
#include "sim/config/capacity.h"
#include "sim/controller/device_parts.h"
#include "sim/controller/ssd.h"
#include "state_support.h"
#include "test_support.h"

namespace ssdlab {
namespace {

using ::testing::HasSubstr;

// --- The part: everything a new part is -------------------------------

struct TallyKeys {
  bool background = false;   // count background command lists too
  std::uint64_t weight = 1;  // what each request adds to `requests`
};

// Its counter block, declared once with its field list (records/field_list.h).
struct TallyCounters {
  std::uint64_t requests = 0, host_lists = 0, background_lists = 0;
};
template <typename V, records::RecordOf<TallyCounters> R>
void fields(V& v, R& c) {
  v("requests", c.requests);
  v("host_lists", c.host_lists);
  v("background_lists", c.background_lists);
}

constexpr KeyDoc kTallyKeys[] = {
    {"background", "true or false, default false: count background command lists too"},
    {"weight", "1 to 1000, default 1: what each host request adds to the count"},
};
constexpr TableDoc kTallyTables[] = {{"tally", "[tally]", "a tally of requests", kTallyKeys}};

void read_tally(KeyReader& r, sim::DeviceConfig& config) {
  if (!r.has_table("tally")) return;
  TallyKeys& keys = config.parts.emplace<TallyKeys>();
  r.boolean("tally", "background", keys.background);
  r.integer("tally", "weight", keys.weight, 1, 1000);
}

void tally_json(const sim::DeviceConfig& config, nlohmann::json& echo) {
  if (!config.parts.holds<TallyKeys>()) return;
  const TallyKeys& keys = config.parts.get<TallyKeys>();
  echo["tally"] = {{"background", keys.background}, {"weight", keys.weight}};
}

void describe_tally(const sim::DeviceConfig& config, std::string& out) {
  if (config.parts.holds<TallyKeys>())
    out += fmt::format("  tally       x{} per request\n", config.parts.get<TallyKeys>().weight);
}

const sim::ConfigPart kTallyConfig{kTallyTables, &read_tally, &tally_json, &describe_tally};

class Tally final : public sim::RegisteredPart {
 public:
  explicit Tally(TallyKeys keys) : keys_(keys) {}

  void before_request(TimeNs) override { counters_.requests += keys_.weight; }
  void emitted(const sim::EmittedCommands& list) override {
    if (list.source == sim::CommandSource::kBackground) {
      if (keys_.background) ++counters_.background_lists;
    } else if (list.source != sim::CommandSource::kFunctional) {
      ++counters_.host_lists;
    }
  }
  records::PartRecord record() const override { return records::part_record(counters_); }

  std::optional<sim::PartCheckpoint> checkpoint() const override {
    return sim::PartCheckpoint{"TALY", "a tally ([tally])", true};
  }
  void save_state(StateWriter& out) const override {
    out.section("TALY", 1);
    records::each_counter(counters_, [&out](const char*, std::uint64_t value) { out.u64(value); });
  }
  void load_state(StateReader& in) override {
    in.section("TALY", 1);
    records::each_counter(counters_,
                          [&in](const char*, std::uint64_t& value) { value = in.u64(); });
  }

 private:
  TallyKeys keys_;
  TallyCounters counters_;
};

std::unique_ptr<sim::RegisteredPart> make_tally(const sim::PartContext& context) {
  if (!context.config.parts.holds<TallyKeys>()) return nullptr;
  return std::make_unique<Tally>(context.config.parts.get<TallyKeys>());
}

const sim::DevicePart kTally{"tally", &kTallyConfig, &make_tally};

// --- Its tests ---------------------------------------------------------

// (Registered once per process: registrations never go away.)
class RegisteredPartTest : public testing::ConfigTest {
 protected:
  void SetUp() override {
    ConfigTest::SetUp();
    static const bool registered = (sim::register_device_part(kTally), true);
    (void)registered;
  }
  static sim::DeviceConfig tiny(const std::vector<std::string>& sets) {
    return sim::load_config(testing::preset("tiny"), sets);
  }
  static records::PartRecord record_of(const sim::Ssd& ssd) {
    for (const auto& made : ssd.core().made_parts())
      if (std::string_view(made.name) == "tally") return made.part->record();
    ADD_FAILURE() << "the device has no tally";
    return {};
  }
};

TEST_F(RegisteredPartTest, ItsKeysAreReadEchoedReadBackAndDescribed) {
  const sim::DeviceConfig config = tiny({"tally.background=true", "tally.weight=3"});
  ASSERT_TRUE(config.parts.holds<TallyKeys>());
  EXPECT_TRUE(config.parts.get<TallyKeys>().background);
  EXPECT_EQ(config.parts.get<TallyKeys>().weight, 3u);
  const nlohmann::json echo = sim::to_json(config);
  EXPECT_EQ(echo["tally"]["weight"], 3);
  const sim::DeviceConfig again = sim::config_from_json(echo, "echo");
  EXPECT_EQ(again.parts.get<TallyKeys>().weight, 3u);
  EXPECT_TRUE(again.parts.get<TallyKeys>().background);
  const sim::Ssd ssd(config);
  EXPECT_THAT(sim::describe(config, sim::spare_capacity(config, ssd.ftl())),
              HasSubstr("  tally       x3"));
  // Without the table: no values, no echo, no line.
  const sim::DeviceConfig plain = tiny({});
  EXPECT_FALSE(plain.parts.holds<TallyKeys>());
  EXPECT_FALSE(sim::to_json(plain).contains("tally"));
}

TEST_F(RegisteredPartTest, ItsBadKeysAreErrorsNamingTheFileLineAndKey) {
  const std::string path =
      Write(testing::read_file(testing::preset("tiny")) + "\n[tally]\nweight = 0\n");
  EXPECT_THAT(ErrorOf(path), HasSubstr("tally.weight"));
  EXPECT_THAT(ErrorOf(path), HasSubstr(path));
  const std::string unknown =
      Write(testing::read_file(testing::preset("tiny")) + "\n[tally]\nwieght = 2\n");
  EXPECT_THAT(ErrorOf(unknown), HasSubstr("tally.wieght"));
}

TEST_F(RegisteredPartTest, ADeviceHasThePartOnlyWhereItsConfigSwitchesItOn) {
  EXPECT_TRUE(sim::Ssd(tiny({})).core().made_parts().empty());
  sim::Ssd ssd(tiny({"tally.weight=2"}));
  ASSERT_EQ(ssd.core().made_parts().size(), 1u);
  TimeNs now = 0;
  for (std::uint64_t i = 0; i < 10; ++i, now += 100'000)
    ssd.start(HostIo{i * 4096, 4096, IoMode::kWrite}, now, sim::Ssd::kWait);
  const records::PartRecord record = record_of(ssd);
  EXPECT_EQ(record.at("requests"), 20u);  // 10 requests, weight 2
  EXPECT_EQ(record.at("host_lists"), 10u);
  EXPECT_EQ(record.at("background_lists"), 0u);
}

TEST_F(RegisteredPartTest, ARunReportsItsCountersUnderPartsInTheSummaryAndOnTheConsole) {
  sim::SimOptions options;
  options.workload = "RW:io_size=4KiB,count=300";
  options.precondition = "seq";  // (functional lists: not counted, and not in the run's figures)
  options.overrides = {"tally.weight=1"};
  std::string printed;
  const auto out = testing::run_tiny(dir_, "run", options, &printed);
  const nlohmann::json summary = testing::summary_of(out);
  const nlohmann::json& run = summary["experiments"][0]["runs"][0]["device"];
  EXPECT_EQ(run["parts"]["tally"]["requests"], 300u);
  EXPECT_EQ(run["parts"]["tally"]["host_lists"], 300u);
  EXPECT_EQ(summary["device"]["parts"]["tally"]["requests"], 300u);
  EXPECT_THAT(printed, HasSubstr("  tally in the runs: background_lists 0, host_lists 300, "
                                 "requests 300\n"));
  // A run without the part has no "parts".
  options.overrides = {};
  const nlohmann::json plain = testing::summary_of(testing::run_tiny(dir_, "plain", options));
  EXPECT_FALSE(plain["device"].contains("parts"));
  EXPECT_FALSE(plain["experiments"][0]["runs"][0]["device"].contains("parts"));
}

TEST_F(RegisteredPartTest, ItsStateIsKeptInCheckpointsAndDroppedByADeviceWithoutIt) {
  const sim::DeviceConfig config = tiny({"tally.weight=1"});
  sim::Ssd ssd(config);
  TimeNs now = 0;
  for (std::uint64_t i = 0; i < 25; ++i, now += 100'000)
    ssd.start(HostIo{i * 4096, 4096, IoMode::kWrite}, now, sim::Ssd::kWait);
  const std::string state = testing::saved_bytes(ssd);
  sim::Ssd loaded(config);
  testing::load_bytes(loaded, state);
  EXPECT_EQ(record_of(loaded).at("requests"), 25u);
  EXPECT_EQ(testing::saved_bytes(loaded), state);
  // The part is optional: a device without it loads the state and drops it.
  sim::Ssd plain(tiny({}));
  testing::load_bytes(plain, state);
  EXPECT_TRUE(plain.core().made_parts().empty());
}

// A maker that never builds its part (the part registered below stays off).
std::unique_ptr<sim::RegisteredPart> make_nothing(const sim::PartContext&) {
  return nullptr;
}

TEST(DevicePartRegistry, ANameIsTakenOnceAndAPartNeedsAMaker) {
  static const sim::DevicePart first{"only-once", nullptr, &make_nothing};
  sim::register_device_part(first);
  EXPECT_THROW(sim::register_device_part(first), Error);
  static const sim::DevicePart nameless{"", nullptr, &make_nothing};
  EXPECT_THROW(sim::register_device_part(nameless), Error);
  static const sim::DevicePart no_maker{"no-maker", nullptr, nullptr};
  EXPECT_THROW(sim::register_device_part(no_maker), Error);
}

}  // namespace
}  // namespace ssdlab
