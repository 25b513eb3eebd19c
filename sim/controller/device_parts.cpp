#include "sim/controller/device_parts.h"

#include <string_view>
#include <vector>

#include "common/error.h"

namespace ssdlab::sim {
namespace {

std::vector<const DevicePart*>& registered() {
  static std::vector<const DevicePart*> parts;
  return parts;
}

}  // namespace

void register_device_part(const DevicePart& part) {
  if (!part.name || std::string_view(part.name).empty() || !part.make)
    throw Error("register_device_part: a device part needs a name and a maker");
  for (const DevicePart* other : registered())
    if (std::string_view(other->name) == part.name)
      throw make_error("register_device_part: the name \"{}\" is taken", part.name);
  registered().push_back(&part);
  if (part.keys) register_config_part(*part.keys);
}

std::span<const DevicePart* const> device_parts() {
  return registered();
}

}  // namespace ssdlab::sim
