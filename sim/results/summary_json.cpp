// summary.json's one serialiser and one parser, also a checkpoint's info
// block's: a JsonWriter and a JsonReader walk the field lists of
// summary_fields.h. Values map to JSON by their C++ type (counts, numbers,
// text, flags, lists, maps by name, records, and std::optional as null),
// with the few typed values that have their own form: the config echo and
// io_ignore. Times the records hold in
// nanoseconds are written in microseconds (time_us).
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <type_traits>

#include "common/error.h"
#include "sim/results/summary_fields.h"

namespace ssdlab::sim {
namespace {

template <typename T>
struct IsVector : std::false_type {};
template <typename T>
struct IsVector<std::vector<T>> : std::true_type {};
template <typename T>
struct IsMap : std::false_type {};
template <typename T>
struct IsMap<std::map<std::string, T>> : std::true_type {};
template <typename T>
struct IsOptional : std::false_type {};
template <typename T>
struct IsOptional<std::optional<T>> : std::true_type {};

void put(nlohmann::json& json, const IoIgnore& io_ignore) {
  json = io_ignore.detect ? nlohmann::json("auto") : nlohmann::json(io_ignore.count);
}

template <typename T>
void put(nlohmann::json& json, const T& value);

class JsonWriter {
 public:
  explicit JsonWriter(nlohmann::json& json) : json_(json) { json_ = nlohmann::json::object(); }

  template <typename T>
  void operator()(const char* key, const T& value) {
    put(json_[key], value);
  }
  template <typename T>
  void required(const char* key, const T& value) {
    put(json_[key], value);
  }
  template <typename T>
  void optional(const char* key, const std::optional<T>& value) {
    if (value) put(json_[key], *value);
  }
  void time_us(const char* key, TimeNs ns) { json_[key] = static_cast<double>(ns) / 1000.0; }
  void thousandths(const char* key, std::int64_t value) { time_us(key, value); }
  template <typename T>
  void nonzero(const char* key, const T& value) {
    if (value != T{}) json_[key] = value;
  }
  template <typename T>
  void derived(const char* key, const T& value) {
    put(json_[key], value);  // a std::optional: null when empty
  }
  template <typename T>
  void unreported(const char*, const T&) {}
  template <typename T>
  void group(const char*, const std::optional<T>& record) {
    if (record) fields(*this, *record);
  }
  void version(const char* key, const std::string& version) { json_[key] = {{"version", version}}; }
  void percentiles(const char* key, const std::vector<std::pair<double, double>>& percentiles) {
    nlohmann::json map = nlohmann::json::object();
    for (const auto& [percent, us] : percentiles) {
      json_[percentile_key(percent)] = us;
      map[fmt::format("{}", percent)] = us;
    }
    json_[key] = std::move(map);
  }

 private:
  nlohmann::json& json_;
};

template <typename T>
void put(nlohmann::json& json, const T& value) {
  if constexpr (IsOptional<T>::value) {
    if (value)
      put(json, *value);
    else
      json = nullptr;
  } else if constexpr (IsVector<T>::value) {
    json = nlohmann::json::array();
    for (const auto& item : value) put(json.emplace_back(), item);
  } else if constexpr (IsMap<T>::value) {
    json = nlohmann::json::object();
    for (const auto& [key, item] : value) put(json[key], item);
  } else if constexpr (std::is_arithmetic_v<T> || std::is_same_v<T, std::string> ||
                       std::is_same_v<T, nlohmann::json>) {
    json = value;
  } else {
    JsonWriter writer(json);
    fields(writer, value);
  }
}

// Reading: errors name where the value is ("file: experiments[0].runs[1]: key").
void get(const nlohmann::json& json, IoIgnore& io_ignore, const std::string& where) {
  io_ignore = {};
  if (json.is_string() && json.get<std::string>() == "auto")
    io_ignore.detect = true;
  else if (json.is_number_unsigned() || (json.is_number_integer() && json.get<std::int64_t>() >= 0))
    io_ignore.count = json.get<std::uint64_t>();
  else
    throw make_error("{}: not \"auto\" or a count", where);
}
void get(const nlohmann::json& json, DeviceCounters& counters, const std::string& where);

template <typename T>
void get(const nlohmann::json& json, T& value, const std::string& where);

class JsonReader {
 public:
  JsonReader(const nlohmann::json& json, std::string where) : json_(json), where_(std::move(where)) {
    if (!json_.is_object()) throw make_error("{}: not a JSON object", where_);
  }

  template <typename T>
  void operator()(const char* key, T& value) {
    if (json_.contains(key)) get(json_[key], value, at(key));
  }
  template <typename T>
  void required(const char* key, T& value) {
    if (!json_.contains(key)) throw make_error("{}: no {}", where_, key);
    get(json_[key], value, at(key));
  }
  template <typename T>
  void optional(const char* key, std::optional<T>& value) {
    value.reset();
    if (!json_.contains(key)) return;
    value = T();  // (not emplace(): clang 14 rejects it for a nested aggregate)
    get(json_[key], *value, at(key));
  }
  void time_us(const char* key, TimeNs& ns) {
    if (!json_.contains(key)) return;
    if (!json_[key].is_number()) throw make_error("{}: not a number", at(key));
    ns = std::llround(json_[key].get<double>() * 1000.0);
  }
  void thousandths(const char* key, std::int64_t& value) { time_us(key, value); }
  template <typename T>
  void nonzero(const char* key, T& value) {
    value = T{};
    (*this)(key, value);
  }
  template <typename T>
  void derived(const char*, const T&) {}  // computed from the counters, not read
  template <typename T>
  void unreported(const char*, T&) {}
  template <typename T>
  void group(const char* first_key, std::optional<T>& record) {
    record.reset();
    if (!json_.contains(first_key)) return;
    record = T();
    fields(*this, *record);
  }
  void version(const char* key, std::string& version) {
    if (json_.contains(key) && json_[key].is_object()) (*this)(key, version, "version");
  }
  void percentiles(const char* key, std::vector<std::pair<double, double>>& percentiles);

 private:
  // A key is "where: key".
  std::string at(const char* key) const { return fmt::format("{}: {}", where_, key); }
  void operator()(const char* key, std::string& value, const char* inner) {
    JsonReader(json_[key], at(key))(inner, value);
  }

  const nlohmann::json& json_;
  std::string where_;
};

void JsonReader::percentiles(const char* key, std::vector<std::pair<double, double>>& percentiles) {
  percentiles.clear();
  if (!json_.contains(key)) return;
  const auto& map = json_[key];
  if (!map.is_object()) throw make_error("{}: {}: not an object", where_, key);
  for (const auto& [percent, us] : map.items()) {
    if (!us.is_number()) throw make_error("{}: {}.{}: not a number", where_, key, percent);
    double value = 0;
    try {
      value = std::stod(percent);
    } catch (const std::exception&) {
      throw make_error("{}: {}: '{}' is not a percent", where_, key, percent);
    }
    percentiles.emplace_back(value, us.get<double>());
  }
  std::sort(percentiles.begin(), percentiles.end());
}

// The element `i` of a list read at `where`: "where[i]"; runs continue
// their experiment's path with a dot ("file: experiments[0].runs[1]").
std::string element(std::string where, std::size_t i) {
  if (where.ends_with(": runs")) where.replace(where.size() - 6, 2, ".");
  return fmt::format("{}[{}]", where, i);
}

template <typename T>
void get(const nlohmann::json& json, T& value, const std::string& where) {
  if constexpr (IsOptional<T>::value) {
    if (json.is_null())
      value.reset();
    else
      get(json, value.emplace(), where);
  } else if constexpr (IsVector<T>::value) {
    if (!json.is_array()) throw make_error("{}: not an array", where);
    value.clear();
    for (std::size_t i = 0; i < json.size(); ++i) get(json[i], value.emplace_back(), element(where, i));
  } else if constexpr (IsMap<T>::value) {
    if (!json.is_object()) throw make_error("{}: not an object", where);
    value.clear();
    for (const auto& [key, item] : json.items()) get(item, value[key], where + "." + key);
  } else if constexpr (std::is_same_v<T, bool>) {
    if (!json.is_boolean()) throw make_error("{}: not true or false", where);
    value = json.get<bool>();
  } else if constexpr (std::is_integral_v<T>) {
    const bool count = json.is_number_unsigned() ||
                       (json.is_number_integer() && (std::is_signed_v<T> || json.get<std::int64_t>() >= 0));
    if (!count) throw make_error("{}: not {}", where, std::is_signed_v<T> ? "an integer" : "a count");
    value = json.get<T>();
  } else if constexpr (std::is_floating_point_v<T>) {
    if (!json.is_number()) throw make_error("{}: not a number", where);
    value = json.get<T>();
  } else if constexpr (std::is_same_v<T, std::string>) {
    if (!json.is_string()) throw make_error("{}: not a string", where);
    value = json.get<std::string>();
  } else if constexpr (std::is_same_v<T, nlohmann::json>) {
    value = json;
  } else {
    if constexpr (std::is_same_v<T, RunRecord>) {
      value = RunRecord{};
      value.p50_us = value.p99_us = std::nan("");  // missing from hand-made files
    }
    JsonReader reader(json, where);
    fields(reader, value);
  }
}

void get(const nlohmann::json& json, DeviceCounters& counters, const std::string& where) {
  counters = DeviceCounters{};
  JsonReader reader(json, where);
  fields(reader, counters);
  // The page size is not a counter: flash bytes over flash pages.
  std::uint64_t flash_bytes = 0;
  reader("flash_bytes_written", flash_bytes);
  if (counters.ftl.flash_pages_written > 0)
    counters.page_size = static_cast<std::uint32_t>(flash_bytes / counters.ftl.flash_pages_written);
}

}  // namespace

void to_json(nlohmann::json& json, const SummaryRecord& summary) {
  JsonWriter writer(json);
  fields(writer, summary);
}

void to_json(nlohmann::json& json, const RunRecord& run) { put(json, run); }

void to_json(nlohmann::json& json, const DeviceCounters& counters) {
  put(json, counters);
}

DeviceCounters device_counters_from_json(const nlohmann::json& json) {
  DeviceCounters counters;
  get(json, counters, "device counters");
  return counters;
}

void to_json(nlohmann::json& json, const CheckpointInfo& info) { put(json, info); }

void to_json(nlohmann::json& json, const CheckpointFile& file) { put(json, file); }

CheckpointInfo checkpoint_info_from_json(const nlohmann::json& json, const std::string& where) {
  CheckpointInfo info;
  get(json, info, where);
  // Compared key by key with the run's config, which is an object.
  if (!info.config.is_object()) throw make_error("{}: config: not an object", where);
  return info;
}

namespace {

// The block size the config echo gives (config.geometry.pages_per_block), if
// there is an echo.
std::optional<std::uint32_t> pages_per_block(const std::optional<nlohmann::json>& config,
                                             const std::string& where) {
  if (!config) return std::nullopt;
  const nlohmann::json* value = nullptr;
  if (config->is_object() && config->contains("geometry") && (*config)["geometry"].is_object() &&
      (*config)["geometry"].contains("pages_per_block"))
    value = &(*config)["geometry"]["pages_per_block"];
  if (!value || !value->is_number_unsigned() || value->get<std::uint64_t>() == 0 ||
      value->get<std::uint64_t>() > std::numeric_limits<std::uint32_t>::max())
    throw make_error("{}: config.geometry.pages_per_block: not a block size in pages", where);
  return value->get<std::uint32_t>();
}

}  // namespace

SummaryRecord summary_from_json(const nlohmann::json& json, const std::string& where) {
  SummaryRecord s;
  JsonReader reader(json, where);
  reader("schema_version", s.schema_version);  // first: a newer layout is not read
  if (s.schema_version > kSummarySchemaVersion)
    throw make_error("{}: schema_version {}; this ssdlab reads up to {}", where, s.schema_version,
                     kSummarySchemaVersion);
  fields(reader, s);
  const std::optional<std::uint32_t> block = pages_per_block(s.config, where);
  for (std::size_t e = 0; e < s.experiments.size(); ++e) {
    ExperimentRecord& experiment = s.experiments[e];
    if (experiment.name.empty()) throw make_error("{}: experiments[{}]: no name", where, e);
    if (experiment.is_trace() || experiment.is_live())
      experiment.queue_depth = experiment.trace_queue_depth.value_or(1);
    for (std::size_t r = 0; r < experiment.runs.size(); ++r) {
      RunRecord& run = experiment.runs[r];
      // count = measured + ignored + those counted apart (RunStats).
      const std::uint64_t apart = run.trims + run.refused + run.zone_management;
      if (run.count < run.ignored || run.count - run.ignored < apart)
        throw make_error(
            "{}: experiments[{}].runs[{}]: ignored ({}), trims ({}), refused ({}) and "
            "zone_management ({}) exceed count ({})",
            where, e, r, run.ignored, run.trims, run.refused, run.zone_management, run.count);
      // The counters' cleaning efficiency needs the block size, in the config.
      if (run.device && block) run.device->pages_per_block = *block;
    }
  }
  if (s.device && block) s.device->pages_per_block = *block;
  return s;
}

}  // namespace ssdlab::sim
