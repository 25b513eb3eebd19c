#include "ftl/slc_cache_config.h"

#include <algorithm>
#include <array>
#include <string>
#include <vector>

#include "ftl/register.h"

namespace ssdlab::ftl {
namespace {

template <typename Enum, std::size_t N>
bool parse_name(std::string_view name, const std::array<const char*, N>& names, Enum& out) {
  for (std::size_t i = 0; i < N; ++i)
    if (name == names[i]) return out = static_cast<Enum>(i), true;
  return false;
}

constexpr std::array<const char*, 3> kModes = {"none", "static", "dynamic"};
constexpr std::array<const char*, 2> kWhenFull = {"native", "fold"};
constexpr std::array<const char*, 2> kFoldOrders = {"fifo", "greedy"};

}  // namespace

const char* slc_cache_mode_name(SlcCacheMode mode) { return kModes[static_cast<std::size_t>(mode)]; }
bool parse_slc_cache_mode(std::string_view name, SlcCacheMode& out) {
  return parse_name(name, kModes, out);
}
const char* slc_when_full_name(SlcWhenFull when) {
  return kWhenFull[static_cast<std::size_t>(when)];
}
bool parse_slc_when_full(std::string_view name, SlcWhenFull& out) {
  return parse_name(name, kWhenFull, out);
}
std::string slc_fold_order_name(const SlcCacheConfig& config) {
  return config.fold_order == SlcFoldOrder::kRegistered
             ? registered_slc_fold_order_names().at(config.fold_registered)
             : kFoldOrders[static_cast<std::size_t>(config.fold_order)];
}
bool parse_slc_fold_order(std::string_view name, SlcCacheConfig& config) {
  if (parse_name(name, kFoldOrders, config.fold_order)) {
    config.fold_registered = 0;
    return true;
  }
  const std::vector<std::string> registered = registered_slc_fold_order_names();
  const auto it = std::find(registered.begin(), registered.end(), name);
  if (it == registered.end()) return false;
  config.fold_order = SlcFoldOrder::kRegistered;
  config.fold_registered = static_cast<std::uint8_t>(it - registered.begin());
  return true;
}
std::string slc_fold_order_names() {
  std::string names = "fifo, greedy";
  for (const std::string& name : registered_slc_fold_order_names()) names += ", " + name;
  return names;
}

double SlcCacheConfig::size_at_fill(double fill) const {
  const auto& t = size_by_fill;
  if (fill <= t.front().first) return t.front().second;
  for (std::size_t i = 1; i < t.size(); ++i)
    if (fill <= t[i].first) {
      const double at = (fill - t[i - 1].first) / (t[i].first - t[i - 1].first);
      return t[i - 1].second + at * (t[i].second - t[i - 1].second);
    }
  return t.back().second;
}

}  // namespace ssdlab::ftl
