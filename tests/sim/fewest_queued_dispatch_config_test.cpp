// controller.dispatch_order = "fewest-queued" (formerly "fair") in the device config: read, refused
// with the allowed values when unknown, and echoed so that it reads back.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "config_fixture.h"
#include "sim/config/config.h"

namespace ssdlab {
namespace {

using testing::ConfigTest;
using ::testing::HasSubstr;

TEST_F(ConfigTest, DispatchOrderFewestQueuedIsReadAndEchoedBack) {
  // Under its former name too, echoed under its own.
  for (const char* name : {"fewest-queued", "fair"}) {
    const auto config =
        sim::load_config(Write(std::string("[controller]\ndispatch_order = \"") + name + "\"\n"));
    EXPECT_TRUE(config.controller.dispatch_order.fewest_queued);
    EXPECT_FALSE(config.controller.dispatch_order.fifo);
    const nlohmann::json echo = sim::to_json(config);
    EXPECT_EQ(echo["controller"]["dispatch_order"], "fewest-queued");
    const auto back = sim::config_from_json(echo, "echo");
    EXPECT_TRUE(back.controller.dispatch_order.fewest_queued);
  }
  // The default stays fifo.
  EXPECT_TRUE(
      sim::load_config(Write("[controller]\nwrite_buffer = 0\n")).controller.dispatch_order.fifo);
}

TEST_F(ConfigTest, AnUnknownDispatchOrderNamesTheAllowedOnes) {
  const std::string error = ErrorOf(Write("[controller]\ndispatch_order = \"fairest\"\n"));
  EXPECT_THAT(error, HasSubstr("controller.dispatch_order"));
  EXPECT_THAT(error, HasSubstr("fifo, fewest-queued, flin, or read, write and cleaning"));
}

}  // namespace
}  // namespace ssdlab
