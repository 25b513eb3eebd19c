// A device config from its JSON echo (to_json(DeviceConfig): checkpoints,
// summary.json), through the same TOML reader and checks as a config file.
#include <toml++/toml.h>

#include <nlohmann/json.hpp>

#include "common/error.h"
#include "sim/config/config.h"
#include "sim/config/config_reader.h"

namespace ssdlab::sim {

namespace {

bool insert_toml(toml::table& table, const std::string& key, const nlohmann::json& value);

// JSON arrays of to_json() (two_plane_pairs) as TOML; false for what a
// config cannot hold.
bool toml_array(const nlohmann::json& value, toml::array& into) {
  for (const auto& element : value) {
    if (element.is_boolean()) {
      into.push_back(element.get<bool>());
    } else if (element.is_number_integer()) {
      into.push_back(element.get<std::int64_t>());
    } else if (element.is_number_float()) {
      into.push_back(element.get<double>());
    } else if (element.is_string()) {
      into.push_back(element.get<std::string>());
    } else if (element.is_array()) {
      toml::array inner;
      if (!toml_array(element, inner)) return false;
      into.push_back(std::move(inner));
    } else if (element.is_object()) {  // [[host.queues]]
      toml::table inner;
      for (const auto& item : element.items())
        if (!insert_toml(inner, item.key(), item.value())) return false;
      into.push_back(std::move(inner));
    } else {
      return false;
    }
  }
  return true;
}

// One JSON value of to_json() inserted as TOML; false for what a config
// cannot hold.
bool insert_toml(toml::table& table, const std::string& key, const nlohmann::json& value) {
  if (value.is_boolean()) {
    table.insert(key, value.get<bool>());
  } else if (value.is_number_integer()) {
    table.insert(key, value.get<std::int64_t>());
  } else if (value.is_number_float()) {
    table.insert(key, value.get<double>());
  } else if (value.is_string()) {
    table.insert(key, value.get<std::string>());
  } else if (value.is_array()) {
    toml::array array;
    if (!toml_array(value, array)) return false;
    table.insert(key, std::move(array));
  } else if (value.is_object()) {  // a sub-table: [timing.cell]
    toml::table inner;
    for (const auto& item : value.items())
      if (!insert_toml(inner, item.key(), item.value())) return false;
    table.insert(key, std::move(inner));
  } else {
    return false;
  }
  return true;
}

}  // namespace

DeviceConfig config_from_json(const nlohmann::json& json, const std::string& origin) {
  if (!json.is_object()) throw make_error("{}: the config is not a JSON object", origin);
  toml::table root;
  for (const auto& tables : json.items()) {
    const std::string table = tables.key();
    const nlohmann::json& keys = tables.value();
    // `capacity` is derived from the config (summary.json's echo), not read.
    if (table == "source" || table == "name" || table == "capacity") continue;
    if (!keys.is_object()) throw make_error("{}: config.{} is not a table", origin, table);
    toml::table entries;
    for (const auto& item : keys.items()) {
      const std::string key = item.key();
      if (!insert_toml(entries, key, item.value()))
        throw make_error("{}: config.{}.{} is not a config value", origin, table, key);
    }
    root.insert(table, std::move(entries));
  }
  return config_detail::read_config(root, origin, {});
}

}  // namespace ssdlab::sim
