// controller.dispatch_order = "fair" in the device config: read, refused
// with the allowed values when unknown, and echoed so that it reads back.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "config_fixture.h"
#include "sim/config/config.h"

namespace ssdlab {
namespace {

using ::testing::HasSubstr;
using testing::ConfigTest;

TEST_F(ConfigTest, DispatchOrderFairIsReadAndEchoedBack) {
  const auto config = sim::load_config(Write("[controller]\ndispatch_order = \"fair\"\n"));
  EXPECT_TRUE(config.controller.dispatch_order.fair);
  EXPECT_FALSE(config.controller.dispatch_order.fifo);
  const nlohmann::json echo = sim::to_json(config);
  EXPECT_EQ(echo["controller"]["dispatch_order"], "fair");
  const auto back = sim::config_from_json(echo, "echo");
  EXPECT_TRUE(back.controller.dispatch_order.fair);
  // The default stays fifo.
  EXPECT_TRUE(sim::load_config(Write("[controller]\nwrite_buffer = 0\n"))
                  .controller.dispatch_order.fifo);
}

TEST_F(ConfigTest, AnUnknownDispatchOrderNamesTheAllowedOnes) {
  const std::string error = ErrorOf(Write("[controller]\ndispatch_order = \"fairest\"\n"));
  EXPECT_THAT(error, HasSubstr("controller.dispatch_order"));
  EXPECT_THAT(error, HasSubstr("fifo, fair, or read, write and cleaning"));
}

}  // namespace
}  // namespace ssdlab
