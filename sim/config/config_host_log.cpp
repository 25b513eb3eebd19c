// The host's log over a zoned device ([host.log]; host_log_config.h): its
// keys read and checked, echoed (only when on, so that other configs echo as
// before) and described.
#include <fmt/format.h>

#include "sim/config/config_reader.h"
#include "sim/config/host_log_config.h"

namespace ssdlab::sim {

const char* host_log_victim_name(HostLogConfig::Victim victim) {
  return victim == HostLogConfig::Victim::kCostBenefit ? "cost-benefit" : "greedy";
}

namespace config_detail {

namespace {
bool parse_victim(const std::string& name, HostLogConfig::Victim& out) {
  if (name == "greedy") out = HostLogConfig::Victim::kGreedy;
  else if (name == "cost-benefit") out = HostLogConfig::Victim::kCostBenefit;
  else return false;
  return true;
}
}  // namespace

void read_host_log(KeyReader& r, ControllerConfig& c) {
  HostLogConfig& log = c.host_log;
  r.real("host.log", "overprovisioning", log.overprovisioning, 0.0, 0.9, false);
  r.named("host.log", "victim", log.victim, host_log_victim_name(log.victim), parse_victim,
          "a victim policy (allowed: greedy, cost-benefit)");
  r.integer("host.log", "clean_at", log.clean_at, 1, 1 << 20);
  r.integer("host.log", "placement_heads", log.placement_heads, 1, 8);
  const auto [op, op_key] = r.find("host.log", "overprovisioning");
  const auto [victim, victim_key] = r.find("host.log", "victim");
  const auto [clean_at, clean_key] = r.find("host.log", "clean_at");
  const auto [heads, heads_key] = r.find("host.log", "placement_heads");
  if (!op && (victim || clean_at || heads))
    r.fail(op_key, nullptr,
           "a [host.log] table needs overprovisioning (the share of the zones the log keeps for "
           "its cleaning, e.g. 0.07)");
}

void host_log_json(const ControllerConfig& c, nlohmann::json& host) {
  if (!c.host_log.on()) return;
  host["log"] = {{"overprovisioning", c.host_log.overprovisioning},
                 {"victim", host_log_victim_name(c.host_log.victim)},
                 {"clean_at", c.host_log.clean_at}};
  // Echoed only when set, so that other logs echo as before.
  if (c.host_log.placement_heads > 1) host["log"]["placement_heads"] = c.host_log.placement_heads;
}

std::string describe_host_log(const ControllerConfig& c) {
  if (!c.host_log.on()) return {};
  return fmt::format(
      "  host log    a log over the zones keeps {:.1f}% of their capacity for its cleaning: "
      "{} victims, cleaning below {} free zones{}\n",
      100 * c.host_log.overprovisioning, host_log_victim_name(c.host_log.victim),
      c.host_log.clean_at,
      c.host_log.placement_heads > 1
          ? fmt::format(", an open zone per placement identifier 0-{}",
                        c.host_log.placement_heads - 1)
          : std::string());
}

}  // namespace config_detail
}  // namespace ssdlab::sim
