#include "ftl/fdp_config.h"

#include <array>

namespace ssdlab::ftl {
namespace {

constexpr std::array<const char*, 3> kModes = {"none", "fdp", "streams"};
constexpr std::array<const char*, 2> kIsolations = {"initially", "persistently"};

template <typename Enum, std::size_t N>
bool parse_name(std::string_view name, const std::array<const char*, N>& names, Enum& out) {
  for (std::size_t i = 0; i < N; ++i)
    if (name == names[i]) return out = static_cast<Enum>(i), true;
  return false;
}

}  // namespace

const char* placement_mode_name(PlacementMode mode) {
  return kModes[static_cast<std::size_t>(mode)];
}
bool parse_placement_mode(std::string_view name, PlacementMode& out) {
  return parse_name(name, kModes, out);
}
const char* isolation_name(Isolation isolation) {
  return kIsolations[static_cast<std::size_t>(isolation)];
}
bool parse_isolation(std::string_view name, Isolation& out) {
  return parse_name(name, kIsolations, out);
}

}  // namespace ssdlab::ftl
