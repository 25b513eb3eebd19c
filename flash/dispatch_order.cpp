// The names of the flash scheduler's settings (flash/scheduler.h): work
// classes, host waits and dispatch orders, as the config writes them.
#include <algorithm>
#include <string>

#include "flash/scheduler.h"

namespace ssdlab::flash {

namespace {

constexpr std::array<const char*, kWorkClasses> kClassNames = {"read", "write", "cleaning"};
constexpr std::array<const char*, 3> kHostWaitNames = {"none", "package", "request"};

}  // namespace

const char* work_class_name(WorkClass work) {
  return kClassNames[static_cast<std::size_t>(work)];
}

std::string dispatch_order_name(const DispatchOrder& order) {
  if (order.fifo) return "fifo";
  if (order.fewest_queued) return "fewest-queued";
  if (order.flin) return "flin";
  std::string name;
  for (const WorkClass work : order.order) {
    if (!name.empty()) name += '>';
    name += work_class_name(work);
  }
  return name;
}

const char* host_wait_name(HostWait wait) {
  return kHostWaitNames[static_cast<std::size_t>(wait)];
}

bool parse_host_wait(std::string_view name, HostWait& out) {
  const auto it = std::find(kHostWaitNames.begin(), kHostWaitNames.end(), name);
  if (it == kHostWaitNames.end()) return false;
  out = static_cast<HostWait>(it - kHostWaitNames.begin());
  return true;
}

bool parse_dispatch_order(std::string_view name, DispatchOrder& out) {
  // (FLIN's settings are [controller.flin]'s, not the name's: kept.)
  DispatchOrder order;
  order.flin_settings = out.flin_settings;
  if (name == "fifo") {
    out = order;
    return true;
  }
  order.fifo = false;
  // ("fair": its name until it was told apart from FLIN, which it is not;
  // configs and echoes written before still load.)
  if (name == "fewest-queued" || name == "fair" || name == "flin") {
    order.fewest_queued = name != "flin";
    order.flin = name == "flin";
    out = order;
    return true;
  }
  std::size_t filled = 0;
  std::array<bool, kWorkClasses> seen{};
  for (;;) {
    const std::size_t end = std::min(name.find('>'), name.size());
    const auto it = std::find(kClassNames.begin(), kClassNames.end(), name.substr(0, end));
    if (it == kClassNames.end() || filled == kWorkClasses) return false;
    const auto index = static_cast<std::size_t>(it - kClassNames.begin());
    if (seen[index]) return false;
    seen[index] = true;
    order.order[filled++] = static_cast<WorkClass>(index);
    if (end == name.size()) break;
    name.remove_prefix(end + 1);
  }
  if (filled != kWorkClasses) return false;
  out = order;
  return true;
}

}  // namespace ssdlab::flash
