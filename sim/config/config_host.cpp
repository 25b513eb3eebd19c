// The host side's keys beyond [host]'s scalars: NVMe submission queues and
// their arbitration ([[host.queues]], host.arbitration, ...) and namespaces
// ([[namespace]], kept as host.namespaces). Read and checked, echoed into
// summary.json and checkpoints (only when given, so that other configs echo
// as before) and described.
#include "sim/config/config_host.h"

#include <fmt/format.h>

#include <string>

#include "common/units.h"

namespace ssdlab::sim {

const char* arbitration_name(Arbitration arbitration) {
  return arbitration == Arbitration::kWeighted ? "weighted" : "round-robin";
}

const char* queue_priority_name(QueuePriority priority) {
  switch (priority) {
    case QueuePriority::kUrgent:
      return "urgent";
    case QueuePriority::kHigh:
      return "high";
    case QueuePriority::kMedium:
      return "medium";
    case QueuePriority::kLow:
      return "low";
  }
  return "?";
}

namespace config_detail {
namespace {

bool parse_priority(std::string_view name, QueuePriority& out) {
  for (const QueuePriority p :
       {QueuePriority::kUrgent, QueuePriority::kHigh, QueuePriority::kMedium, QueuePriority::kLow})
    if (name == queue_priority_name(p)) {
      out = p;
      return true;
    }
  return false;
}

// Each table hoisted from the array `host.KEY` (hoist_table_arrays:
// host.KEY[1], host.KEY[2], ...) read by `read`; an array that is not of
// tables is an error.
template <typename Read>
void read_tables(KeyReader& r, const char* key, std::size_t count, std::size_t most, Read read) {
  const auto [node, dotted] = r.find("host", key);
  if (node) r.fail(dotted, node, fmt::format("expected tables ([[{}]] with their keys)", dotted));
  if (count > most) {
    const std::string first = fmt::format("host.{}[1]", key);
    r.fail(first, nullptr, fmt::format("{} tables: at most {}", count, most));
  }
  for (std::size_t i = 0; i < count; ++i) read(fmt::format("host.{}[{}]", key, i + 1));
}

}  // namespace

// Moves each table of the array of tables `parent.key` to a top-level table
// `parent.key[N]` (N from 1), with its --set origins; returns their number.
static std::size_t hoist_array(toml::table& root, toml::table& parent,
                               const std::string& parent_name, const char* key,
                               std::map<std::string, std::string>& origins,
                               std::vector<std::string>& names) {
  toml::array* array = parent.get_as<toml::array>(key);
  if (!array || array->empty() || !array->is_array_of_tables()) return 0;
  const auto set = origins.find(fmt::format("{}.{}", parent_name, key));
  std::size_t count = 0;
  for (toml::node& element : *array) {
    const std::string name = fmt::format("{}.{}[{}]", parent_name, key, ++count);
    // Moved, not copied: a copy forgets its place in the file.
    toml::table& table = *element.as_table();
    if (set != origins.end())
      for (const auto& [item, value] : table)
        origins[name + "." + std::string(item.str())] = set->second;
    root.insert_or_assign(name, std::move(table));
    names.push_back(name);
  }
  if (set != origins.end()) origins.erase(set);
  parent.erase(key);
  return count;
}

// A top-level array of tables `from` ([[namespace]]) kept as `parent.key`
// (host.namespaces), where the echo writes it, unless that is given too.
static void move_top_array(toml::table& root, const char* from, const char* parent,
                           const char* key) {
  toml::node* tables = root.get(from);
  if (!tables) return;
  toml::table* table = root[parent].as_table();
  if (!table) table = root.insert_or_assign(parent, toml::table{}).first->second.as_table();
  if (!table->contains(key)) table->insert(key, std::move(*tables));
  root.erase(from);
}

HoistedArrays hoist_table_arrays(toml::table& root, std::map<std::string, std::string>& origins) {
  HoistedArrays hoisted;
  move_top_array(root, "placement", "ftl", "placement_map");
  move_top_array(root, "namespace", "host", "namespaces");
  if (toml::table* ftl = root["ftl"].as_table())
    hoisted.placement_ranges =
        hoist_array(root, *ftl, "ftl", "placement_map", origins, hoisted.tables);
  toml::table* host = root["host"].as_table();
  if (!host) return hoisted;
  for (const char* key : {"queues", "namespaces"}) {
    const std::size_t count = hoist_array(root, *host, "host", key, origins, hoisted.tables);
    if (count == 0) continue;
    (std::string_view(key) == "queues" ? hoisted.queues : hoisted.namespaces) = count;
  }
  return hoisted;
}

void read_host_queues(KeyReader& r, std::size_t count, HostQueuesConfig& c) {
  read_tables(r, "queues", count, 65535, [&](const std::string& table) {
    SubmissionQueueConfig queue;
    r.integer(table.c_str(), "depth", queue.depth, 0, 65536);
    r.named(table.c_str(), "priority", queue.priority, queue_priority_name(queue.priority),
            parse_priority, "a priority class (allowed: urgent, high, medium, low)");
    c.queues.push_back(queue);
  });
  r.named(
      "host", "arbitration", c.arbitration, arbitration_name(c.arbitration),
      [](std::string_view name, Arbitration& out) {
        if (name != "round-robin" && name != "weighted") return false;
        out = name == "weighted" ? Arbitration::kWeighted : Arbitration::kRoundRobin;
        return true;
      },
      "an arbitration (allowed: round-robin, weighted)");
  r.integer("host", "arbitration_burst", c.burst, 1, 65536);
  r.integer("host", "weight_high", c.weight_high, 1, 256);
  r.integer("host", "weight_medium", c.weight_medium, 1, 256);
  r.integer("host", "weight_low", c.weight_low, 1, 256);
  if (c.arbitration == Arbitration::kRoundRobin)
    for (const SubmissionQueueConfig& queue : c.queues)
      if (queue.priority != QueuePriority::kMedium) {
        const auto [node, dotted] = r.find("host", "arbitration");
        r.fail(dotted, node,
               "a queue has a priority class, which only weighted arbitration uses: set "
               "host.arbitration = \"weighted\"");
      }
}

void read_namespaces(KeyReader& r, std::size_t count, std::uint32_t logical_page,
                     std::vector<NamespaceConfig>& out) {
  read_tables(r, "namespaces", count, 1024, [&](const std::string& table) {
    NamespaceConfig ns;
    r.size(table.c_str(), "size", ns.size, 1, std::uint64_t{1} << 56);
    const auto [node, dotted] = r.find(table.c_str(), "size");
    if (!node) r.fail(dotted, node, "a namespace needs a size (e.g. \"4GiB\")");
    if (ns.size % logical_page)
      r.fail(
          dotted, node,
          fmt::format("{} is not a whole number of {}-byte logical pages", ns.size, logical_page));
    r.real(table.c_str(), "overprovisioning", ns.overprovisioning, 0.0, 0.9);
    out.push_back(ns);
  });
}

void read_placement_map(KeyReader& r, std::size_t count, ftl::FtlConfig& f) {
  ftl::PlacementConfig& p = f.placement;
  // Left by hoist_table_arrays: not a non-empty array of tables.
  if (const auto [node, dotted] = r.find("ftl", "placement_map"); node) {
    const toml::array* array = node->as_array();
    r.fail(dotted, node,
           array && array->empty()
               ? "expected at least one range (tables with offset, size and handle)"
               : "expected a list of ranges (tables with offset, size and handle)");
  }
  for (std::size_t i = 0; i < count; ++i) {
    const std::string table = fmt::format("ftl.placement_map[{}]", i + 1);
    ftl::PlacementConfig::Range range;
    r.size(table.c_str(), "offset", range.offset, 0, std::uint64_t{1} << 56);
    r.size(table.c_str(), "size", range.size, 1, std::uint64_t{1} << 56);
    r.integer(table.c_str(), "handle", range.handle, 0, 255);
    const auto fail = [&r, &table](const char* key, const std::string& what) {
      const auto [node, dotted] = r.find(table.c_str(), key);
      r.fail(dotted, node, what);
    };
    if (!p.on())
      fail("handle", "a [[placement]] range needs ftl.placement = \"fdp\" or \"streams\"");
    if (!r.find(table.c_str(), "size").first) fail("size", "a [[placement]] range needs a size");
    if (range.handle >= p.handles)
      fail("handle", fmt::format("the device has handles 0 to {} (ftl.fdp_handles = {})",
                                 p.handles - 1, p.handles));
    for (const char* key : {"offset", "size"})
      if ((key[0] == 'o' ? range.offset : range.size) % f.logical_page_size)
        fail(key, fmt::format("not a whole number of {}-byte logical pages", f.logical_page_size));
    p.ranges.push_back(range);
  }
}

nlohmann::json host_queues_json(const HostQueuesConfig& c) {
  nlohmann::json queues = nlohmann::json::array();
  for (const SubmissionQueueConfig& q : c.queues)
    queues.push_back({{"depth", q.depth}, {"priority", queue_priority_name(q.priority)}});
  return {{"queues", queues},
          {"arbitration", arbitration_name(c.arbitration)},
          {"arbitration_burst", c.burst},
          {"weight_high", c.weight_high},
          {"weight_medium", c.weight_medium},
          {"weight_low", c.weight_low}};
}

nlohmann::json namespaces_json(const std::vector<NamespaceConfig>& namespaces) {
  nlohmann::json out = nlohmann::json::array();
  for (const NamespaceConfig& ns : namespaces)
    out.push_back({{"size", ns.size}, {"overprovisioning", ns.overprovisioning}});
  return out;
}

std::string describe_host_queues(const ControllerConfig& c) {
  const HostQueuesConfig& h = c.host_queues;
  if (h.queues.empty()) return "";
  std::string text =
      fmt::format("  host queues {} submission queue{}, {} arbitration", h.queues.size(),
                  h.queues.size() == 1 ? "" : "s", arbitration_name(h.arbitration));
  if (h.arbitration == Arbitration::kWeighted)
    text += fmt::format(" (weights high {}, medium {}, low {})", h.weight_high, h.weight_medium,
                        h.weight_low);
  text += fmt::format(", burst {}; depths", h.burst);
  for (const SubmissionQueueConfig& q : h.queues)
    text += q.depth ? fmt::format(" {}", q.depth) : std::string(" -");
  if (h.arbitration == Arbitration::kWeighted) {
    text += "; classes";
    for (const SubmissionQueueConfig& q : h.queues)
      text += fmt::format(" {}", queue_priority_name(q.priority));
  }
  return text + "\n";
}

std::string describe_namespaces(const std::vector<NamespaceConfig>& namespaces,
                                std::uint32_t logical_page) {
  std::string text;
  std::uint64_t base = 0;
  for (std::size_t i = 0; i < namespaces.size(); ++i) {
    const NamespaceConfig& ns = namespaces[i];
    text += fmt::format("  namespace {} {} from byte {}", i + 1, format_size(ns.size), base);
    if (ns.overprovisioning > 0)
      text += fmt::format(", {:.0f}% over-provisioning behind it", ns.overprovisioning * 100);
    text += "\n";
    base += namespace_span(ns, logical_page);
  }
  return text;
}

}  // namespace config_detail

std::uint64_t namespace_span(const NamespaceConfig& ns, std::uint32_t logical_page) {
  const auto reserve =
      static_cast<std::uint64_t>(static_cast<double>(ns.size) * ns.overprovisioning);
  return ns.size + reserve / logical_page * logical_page;
}

}  // namespace ssdlab::sim
