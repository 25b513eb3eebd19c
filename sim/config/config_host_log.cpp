// The host's log over a zoned device ([host.log]; host_log_config.h), a
// config part (config_part.h): its keys read and checked, echoed (only when
// on, so that other configs echo as before) and described.
#include <fmt/format.h>

#include "sim/config/config_part.h"
#include "sim/config/host_log_config.h"

namespace ssdlab::sim {

const char* host_log_victim_name(HostLogConfig::Victim victim) {
  return victim == HostLogConfig::Victim::kCostBenefit ? "cost-benefit" : "greedy";
}

namespace {

bool parse_victim(const std::string& name, HostLogConfig::Victim& out) {
  if (name == "greedy") out = HostLogConfig::Victim::kGreedy;
  else if (name == "cost-benefit") out = HostLogConfig::Victim::kCostBenefit;
  else return false;
  return true;
}

void read_host_log(KeyReader& r, DeviceConfig& config) {
  HostLogConfig& log = config.controller.host_log;
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

void host_log_json(const DeviceConfig& config, nlohmann::json& echo) {
  const ControllerConfig& c = config.controller;
  if (!c.host_log.on()) return;
  nlohmann::json& host = echo["host"];
  host["log"] = {{"overprovisioning", c.host_log.overprovisioning},
                 {"victim", host_log_victim_name(c.host_log.victim)},
                 {"clean_at", c.host_log.clean_at}};
  // Echoed only when set, so that other logs echo as before.
  if (c.host_log.placement_heads > 1) host["log"]["placement_heads"] = c.host_log.placement_heads;
}

void describe_host_log(const DeviceConfig& config, std::string& out) {
  const ControllerConfig& c = config.controller;
  if (!c.host_log.on()) return;
  out += fmt::format(
      "  host log    a log over the zones keeps {:.1f}% of their capacity for its cleaning: "
      "{} victims, cleaning below {} free zones{}\n",
      100 * c.host_log.overprovisioning, host_log_victim_name(c.host_log.victim),
      c.host_log.clean_at,
      c.host_log.placement_heads > 1
          ? fmt::format(", an open zone per placement identifier 0-{}",
                        c.host_log.placement_heads - 1)
          : std::string());
}

constexpr KeyDoc kLogKeys[] = {
    {"overprovisioning",
     "above 0 to 0.9: the share of the zones' capacity the log keeps for its cleaning; required "
     "in the table"},
    {"victim", "`greedy`, the default; `cost-benefit`"},
    {"clean_at", "1 or more: clean when fewer zones are free; default 2"},
    {"placement_heads",
     "1-8: open zones for host writes, one per placement identifier 0..N-1, a plan's "
     "`placement_id`; identifiers beyond go to the last, with a warning; default 1"},
};
constexpr TableDoc kLogTables[] = {
    {"host.log", "[host.log]",
     "the host's log-structured layer over a zoned device ([The host "
     "log](../zns.md#the-host-log)); no table (the default): none. Needs `ftl.type = "
     "\"zoned\"`; refused with power cuts",
     kLogKeys},
};

}  // namespace

extern const ConfigPart host_log_part{kLogTables, &read_host_log, &host_log_json,
                                      &describe_host_log};

}  // namespace ssdlab::sim
