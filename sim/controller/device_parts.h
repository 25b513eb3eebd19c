// A device part registered from outside the controller's own code: its
// config keys, how it is built, its hooks and its counters in one place,
// so that a part is its own file (or two) and one registration, with no
// edit of the config's structs, the Ssd, the summary or the checkpoint
// code. The shape of SSDLAB_REGISTER_FTL (ftl/register.h) for the
// controller's parts (docs/layout.md, "Adding a device part").
//
// A registered part:
//   - declares its keys as a ConfigPart (sim/config/config_part.h): its
//     tables, a read hook that stores its values in DeviceConfig::parts
//     (config.parts.emplace(MyKeys{...})), an echo and a description;
//   - is built by its maker for every device whose config switches it on
//     (the maker returns null otherwise), after the controller's core and
//     before the parts above it;
//   - takes the hooks of SsdPart it overrides (ssd_part.h), in the core's
//     list of parts after the built-in ones and before read errors; keeps
//     its state in checkpoints through SsdPart::checkpoint();
//   - reports its counters under summary.json's "parts" object by its name
//     (record(); records/part_record.h), subtracted between snapshots and
//     summed over runs with the device's.
#pragma once

#include <memory>
#include <span>

#include "records/part_record.h"
#include "sim/config/config_part.h"
#include "sim/controller/ssd_part.h"

namespace ssdlab::sim {

class SsdCore;

class RegisteredPart : public SsdPart {
 public:
  virtual ~RegisteredPart() = default;
  // Its counters so far, by key (summary.json's "parts"."NAME"); none by
  // default. Counts only: a run's are the difference of two snapshots.
  virtual records::PartRecord record() const { return {}; }
};

// What a maker gets: the device's config (its own values in
// config.parts) and the controller's core (its FTL, timeline, scheduler).
struct PartContext {
  const DeviceConfig& config;
  SsdCore& core;
};

struct DevicePart {
  // summary.json's key under "parts"; unique among the registered parts.
  const char* name = nullptr;
  // Its config keys (read, echoed, described with the built-in parts'), or
  // null for a part without keys.
  const ConfigPart* keys = nullptr;
  // The part for this device, or null where its config leaves it off.
  std::unique_ptr<RegisteredPart> (*make)(const PartContext& context) = nullptr;
};

// Registers `part` and its keys (register_config_part). Throws
// ssdlab::Error if its name is taken or it has no maker. Call it before
// the first config is read: from main(), from a test before it loads its
// config, or through SSDLAB_REGISTER_PART below. Not thread-safe;
// registrations never go away (`part` must outlive them).
void register_device_part(const DevicePart& part);

// The registered parts, in registration order.
std::span<const DevicePart* const> device_parts();

}  // namespace ssdlab::sim

// One line at namespace scope, in a file compiled into the executable
// itself (not a static library, whose members the linker keeps only where
// something refers to them):
//   SSDLAB_REGISTER_PART(my_part);   // a `const DevicePart my_part`
#define SSDLAB_REGISTER_PART(part)                                        \
  [[maybe_unused]] static const bool ssdlab_registered_part_##part = [] { \
    ::ssdlab::sim::register_device_part(part);                            \
    return true;                                                          \
  }()
