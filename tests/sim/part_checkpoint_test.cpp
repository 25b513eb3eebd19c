// The controller's list of parts in a checkpoint (Ssd::save_state,
// ssd_state.cpp): each part with state saves itself under its tag; a load
// meets the saved parts by tag, drops an optional part the device lacks,
// starts an optional part the state lacks from the device, and refuses a
// required part on one side only by its name.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "common/error.h"
#include "sim/config/config_reader.h"
#include "sim/controller/ssd.h"
#include "state_support.h"
#include "test_support.h"

namespace ssdlab {
namespace {

using sim::Ssd;
using ::testing::HasSubstr;
using testing::load_bytes;
using testing::saved_bytes;

sim::DeviceConfig tiny_with(const std::vector<std::string>& sets) {
  return sim::load_config(testing::preset("tiny"), sets);
}

// What loading `state` into a device of `config` throws ("" if it loads).
std::string load_error(const sim::DeviceConfig& config, const std::string& state) {
  Ssd ssd(config);
  std::istringstream bytes(state);
  StateReader in(bytes);
  try {
    ssd.load_state(in);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

// A device of `config` that has served some writes, its state as bytes.
std::string used_state(const sim::DeviceConfig& config) {
  Ssd ssd(config);
  ssd.prefill(0, ssd.logical_bytes() / 2);
  TimeNs now = 0;
  for (std::uint64_t i = 0; i < 64; ++i) {
    ssd.start(HostIo{(i * 7 % 512) * 4096, 4096, IoMode::kWrite}, now, Ssd::kWait);
    now += 50'000;
  }
  return saved_bytes(ssd);
}

const std::vector<std::string> kBuffer = {"controller.write_buffer=65536"};
const std::vector<std::string> kErrors = {"errors.correctable_bits=80"};
const std::vector<std::string> kPreempt = {"ftl.clean_high_water=0.1",
                                           "controller.background_cleaning_preempt=true"};

TEST(PartCheckpoint, ARequiredPartOnOneSideOnlyIsRefusedByItsName) {
  const std::string buffered = used_state(tiny_with(kBuffer));
  EXPECT_EQ(load_error(tiny_with(kBuffer), buffered), "");
  EXPECT_THAT(load_error(tiny_with({}), buffered),
              HasSubstr("it was saved with a write buffer (controller.write_buffer), the config "
                        "has none"));
  EXPECT_THAT(load_error(tiny_with(kBuffer), used_state(tiny_with({}))),
              HasSubstr("it was saved without a write buffer (controller.write_buffer), the "
                        "config has one"));
  // Cleaning that preempts keeps its rounds under way: required as well.
  EXPECT_THAT(load_error(tiny_with({"ftl.clean_high_water=0.1"}), used_state(tiny_with(kPreempt))),
              HasSubstr("it was saved with preemptible background cleaning"));
}

TEST(PartCheckpoint, AnOptionalPartIsDroppedWhereTheDeviceLacksIt) {
  // The read error part's state loads into a device without the part and
  // leaves it as that device's own state; both parts together, in any
  // device that has one, two or none of them.
  const std::string plain = used_state(tiny_with({}));
  const std::string errors = used_state(tiny_with(kErrors));
  ASSERT_NE(errors.find("RERR"), std::string::npos);
  Ssd without(tiny_with({}));
  load_bytes(without, errors);
  EXPECT_EQ(saved_bytes(without), plain);
  std::vector<std::string> both = kErrors;
  both.push_back("controller.firmware.cores=2");
  both.push_back("controller.firmware.write_us=3");
  const std::string two = used_state(tiny_with(both));
  for (const auto& sets : {both, kErrors, std::vector<std::string>{}}) {
    Ssd loaded(tiny_with(sets));
    load_bytes(loaded, two);
    if (sets == both) EXPECT_EQ(saved_bytes(loaded), two);
  }
  // And a state without the part loads into a device with it: the blocks
  // holding data are as old as the config says (ReadErrors::adopt_unstamped).
  std::vector<std::string> aged = kErrors;
  aged.push_back("errors.age_retention_days=100");
  Ssd with(tiny_with(aged));
  load_bytes(with, plain);
  const sim::ReadErrors& part = *with.core().read_errors();
  EXPECT_EQ(part.counters().page_reads, 0u);
  ASSERT_FALSE(with.ftl().nand().is_erased(0));  // (the first half is written)
  EXPECT_DOUBLE_EQ(part.retention_days(0, 0), 100.0);
}

TEST(PartCheckpoint, APartThatReadsOtherThanItsBytesIsCorrupt) {
  std::string state = used_state(tiny_with(kBuffer));
  const std::string name = "a write buffer (controller.write_buffer)";
  const std::size_t at = state.find(name);
  ASSERT_NE(at, std::string::npos);
  // After the name: the flag "optional", then the count of the part's bytes.
  const std::size_t count_at = at + name.size() + 1;
  std::uint64_t count = 0;
  std::memcpy(&count, state.data() + count_at, sizeof count);
  count += 1;
  std::memcpy(state.data() + count_at, &count, sizeof count);
  EXPECT_THAT(load_error(tiny_with(kBuffer), state),
              HasSubstr("corrupt: a write buffer (controller.write_buffer)'s state holds"));
}

}  // namespace
}  // namespace ssdlab
