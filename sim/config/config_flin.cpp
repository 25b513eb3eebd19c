// FLIN's thresholds ([controller.flin]; flash/flin.h), a config part
// (config_part.h): read with controller.dispatch_order = "flin" only, echoed
// then, and described. docs/model.md, "FLIN dispatch", has the model.
#include <fmt/format.h>

#include "sim/config/config_part.h"

namespace ssdlab::sim {
namespace {

constexpr const char* kFlin = "controller.flin";

constexpr KeyDoc kFlinKeys[] = {
    {"epoch_us",
     "above 0 to 10^7, default 10000: the flow classification's epoch (µs); FLIN §5.1, the "
     "authors' MQSim: 10 ms"},
    {"alpha_read",
     "1 to 10^9, default 128: a flow that sends this many reads or more to a die in an epoch "
     "is high-intensity for reads there in the next one"},
    {"alpha_write", "1 to 10^9, default 1: the same for writes"},
    {"fairness_threshold",
     "0 to 1, default 0.6: F_thr, below which a high-intensity command of the flow with the "
     "greatest mean slowdown in its queue moves forward (MoveForward)"},
};

void read_flin(KeyReader& r, DeviceConfig& config) {
  flash::DispatchOrder& order = config.controller.dispatch_order;
  if (!order.flin) {
    if (r.has_table(kFlin))
      r.fail(kFlin, nullptr,
             fmt::format("sets FLIN's thresholds, but controller.dispatch_order is '{}', "
                         "not 'flin'",
                         flash::dispatch_order_name(order)));
    for (const KeyDoc& key : kFlinKeys) r.find(kFlin, std::string(key.key).c_str());
    return;
  }
  flash::FlinSettings& s = order.flin_settings;
  r.scaled(kFlin, "epoch_us", s.epoch_ns, 1000.0, 0.0, 1e7, false);
  r.integer(kFlin, "alpha_read", s.alpha_read, 1, 1'000'000'000);
  r.integer(kFlin, "alpha_write", s.alpha_write, 1, 1'000'000'000);
  r.real(kFlin, "fairness_threshold", s.fairness_threshold, 0.0, 1.0);
}

void flin_json(const DeviceConfig& config, nlohmann::json& echo) {
  const flash::DispatchOrder& order = config.controller.dispatch_order;
  if (!order.flin) return;
  const flash::FlinSettings& s = order.flin_settings;
  echo["controller"]["flin"] = {{"epoch_us", static_cast<double>(s.epoch_ns) / 1000.0},
                                {"alpha_read", s.alpha_read},
                                {"alpha_write", s.alpha_write},
                                {"fairness_threshold", s.fairness_threshold}};
}

void describe_flin(const DeviceConfig& config, std::string& out) {
  const flash::DispatchOrder& order = config.controller.dispatch_order;
  if (!order.flin) return;
  const flash::FlinSettings& s = order.flin_settings;
  out += fmt::format(
      "  flin        epoch {} µs; a flow is high-intensity at a die from these commands per "
      "epoch: reads {}, writes {}; F_thr {}\n",
      static_cast<double>(s.epoch_ns) / 1000.0, s.alpha_read, s.alpha_write, s.fairness_threshold);
}

constexpr TableDoc kFlinTables[] = {
    {"controller.flin", "[controller.flin]",
     "FLIN's thresholds, with `controller.dispatch_order = \"flin\"` (an error otherwise); no "
     "table: the authors' values (see [FLIN dispatch](../model.md#flin-dispatch))",
     kFlinKeys},
};

}  // namespace

extern const ConfigPart flin_part{kFlinTables, &read_flin, &flin_json, &describe_flin};

}  // namespace ssdlab::sim
