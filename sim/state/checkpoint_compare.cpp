#include "sim/state/checkpoint_compare.h"

#include <fmt/format.h>

#include <utility>

#include "common/error.h"

namespace ssdlab::sim {
namespace {

// Tables whose keys define the state: a checkpoint loads only into the same.
constexpr const char* kStateTables[] = {"geometry", "ftl"};
// (Flash errors too: the blocks a state holds are as old as the run's age.)
constexpr const char* kOtherTables[] = {"timing", "host", "errors"};

const nlohmann::json& table_of(const nlohmann::json& config, const char* table) {
  static const nlohmann::json none = nlohmann::json::object();
  return config.contains(table) && config.at(table).is_object() ? config.at(table) : none;
}

std::string value_or_none(const nlohmann::json& table, const char* key) {
  return table.contains(key) ? table.at(key).dump() : std::string("none");
}

// Host-guided placement (echoed only when on) shapes the state: a checkpoint
// with it loads only into a device with the same, and one without it only
// into a device without.
void check_placement(const nlohmann::json& saved, const nlohmann::json& current) {
  const nlohmann::json& was = table_of(saved, "ftl");
  const nlohmann::json& is = table_of(current, "ftl");
  for (const char* key : {"placement", "fdp_handles", "fdp_isolation", "fdp_reclaim"})
    if (value_or_none(was, key) != value_or_none(is, key))
      throw make_error(
          "was saved from a device with ftl.{} = {}, but the config has {}: a checkpoint loads "
          "only into the placement it was saved from",
          key, value_or_none(was, key), value_or_none(is, key));
}

// The host's log over a zoned device ([host.log], echoed only when on) is
// part of the state (its map, section HLOG), sized by its over-provisioning;
// its victim policy and cleaning threshold may differ.
void check_host_log(const nlohmann::json& saved, const nlohmann::json& current) {
  const nlohmann::json& was = table_of(saved, "host");
  const nlohmann::json& is = table_of(current, "host");
  if (was.contains("log") != is.contains("log"))
    throw make_error(
        "was saved from a device {} a [host.log], but the config has {}: a checkpoint loads only "
        "into the host log it was saved from (the log's map is part of the state)",
        was.contains("log") ? "with" : "without", is.contains("log") ? "one" : "none");
  if (!was.contains("log")) return;
  const nlohmann::json& old = table_of(was, "log");
  const nlohmann::json& now = table_of(is, "log");
  if (value_or_none(old, "overprovisioning") != value_or_none(now, "overprovisioning"))
    throw make_error(
        "was saved from a device with host.log.overprovisioning = {}, but the config has {}: a "
        "checkpoint loads only into the host log it was saved from (the log's map is part of "
        "the state)",
        value_or_none(old, "overprovisioning"), value_or_none(now, "overprovisioning"));
}

// The SLC cache's mode and size shape the state too ([slc_cache]; echoed
// only when on); its policies (when_full, fold_order, idle_fold) may differ
// and are added to `differs`.
void check_slc_cache(const nlohmann::json& saved, const nlohmann::json& current,
                     std::vector<std::string>& differs) {
  const nlohmann::json no_cache = {{"mode", "none"}};
  const nlohmann::json& saved_cache = saved.contains("slc_cache") ? saved.at("slc_cache") : no_cache;
  const nlohmann::json& cache = current.contains("slc_cache") ? current.at("slc_cache") : no_cache;
  for (const char* key : {"mode", "size_gib", "static_gib"})
    if (value_or_none(saved_cache, key) != value_or_none(cache, key))
      throw make_error(
          "was saved from a device with slc_cache.{} = {}, but the config has {}: a checkpoint "
          "loads only into the SLC cache it was saved from",
          key, value_or_none(saved_cache, key), value_or_none(cache, key));
  for (const auto& [key, value] : cache.items())
    if (!saved_cache.contains(key) || saved_cache.at(key) != value)
      differs.push_back(fmt::format("slc_cache.{}", key));
}

}  // namespace

std::vector<std::string> compare_config(const nlohmann::json& saved,
                                        const nlohmann::json& current) {
  // A table's `type` first (ftl.type): other keys' defaults follow from it.
  const auto type_first = [](const nlohmann::json& keys) {
    std::vector<std::pair<std::string, nlohmann::json>> ordered;
    if (keys.contains("type")) ordered.emplace_back("type", keys.at("type"));
    for (const auto& [key, value] : keys.items())
      if (key != "type") ordered.emplace_back(key, value);
    return ordered;
  };
  // The type first, then the features echoed only when on: their keys'
  // absence is a config difference, not another build's file.
  const auto type_of = [](const nlohmann::json& config) {
    return value_or_none(table_of(config, "ftl"), "type");
  };
  if (type_of(saved) != type_of(current))
    throw make_error(
        "was saved from a device with ftl.type = {}, but the config has {}: a checkpoint loads "
        "only into the geometry and FTL it was saved from",
        type_of(saved), type_of(current));
  check_placement(saved, current);
  check_host_log(saved, current);
  for (const char* table : kStateTables)
    for (const auto& [key, value] : type_first(current.at(table))) {
      if (!saved.contains(table) || !saved.at(table).contains(key))
        throw make_error(
            "was saved without {}.{}, which this config has: by another ssdlab build (a "
            "checkpoint loads only into the geometry and FTL it was saved from)",
            table, key);
      const nlohmann::json& old = saved.at(table).at(key);
      if (old != value)
        throw make_error(
            "was saved from a device with {}.{} = {}, but the config has {}: a checkpoint loads "
            "only into the geometry and FTL it was saved from",
            table, key, old.dump(), value.dump());
    }
  std::vector<std::string> differs;
  check_slc_cache(saved, current, differs);
  // Timing, host and error keys may differ, in either direction (a key
  // echoed only when set: timing.suspend, host.firmware_us, [host.link],
  // queues, [errors]).
  for (const char* table : kOtherTables) {
    const nlohmann::json& was = table_of(saved, table);
    const nlohmann::json& is = table_of(current, table);
    for (const auto& [key, value] : is.items())
      if (!was.contains(key) || was.at(key) != value)
        differs.push_back(fmt::format("{}.{}", table, key));
    for (const auto& [key, value] : was.items())
      if (!is.contains(key)) differs.push_back(fmt::format("{}.{}", table, key));
  }
  return differs;
}

}  // namespace ssdlab::sim
