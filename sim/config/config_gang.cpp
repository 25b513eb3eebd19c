// The gang keys of [geometry] (flash/geometry.h, Gang; Agrawal et al. §3.3),
// read apart from the rest of the geometry (config.cpp).
#include <fmt/format.h>

#include "flash/geometry.h"
#include "sim/config/config_reader.h"

namespace ssdlab::sim::config_detail {

// Ganging (Agrawal et al. §3.3, Figures 4 and 5): checks that the gang fits
// the channels and, for a synchronous gang, turns the geometry into its
// lockstep view (flash/geometry.h, Gang::kSharedControlSync and
// Gang::kSharedBusSync; flash::as_written() undoes it).
void read_gang(KeyReader& r, flash::Geometry& g) {
  std::string name = flash::gang_name(g.gang);
  r.string("geometry", "gang", name);
  if (!flash::parse_gang(name, g.gang)) {
    const auto [node, dotted] = r.find("geometry", "gang");
    r.fail(dotted, node,
           fmt::format("'{}' is not a gang organisation (none, shared-bus, shared-bus-sync, "
                       "shared-control-async, shared-control-sync)",
                       name));
  }
  const toml::node* size_node = r.find("geometry", "gang_size").first;
  const bool shared_bus = g.gang == flash::Gang::kSharedBus || g.gang == flash::Gang::kSharedBusSync;
  if (shared_bus && !size_node) g.gang_size = g.packages_per_channel;
  r.integer("geometry", "gang_size", g.gang_size, 1, 1024);
  // Points at gang_size, or at gang where the size was left out.
  const auto fail_size = [&r, size_node](const std::string& what) {
    if (size_node) r.fail("geometry.gang_size", size_node, what);
    r.fail("geometry.gang", r.find("geometry", "gang").first, what);
  };
  switch (g.gang) {
    case flash::Gang::kNone:
      if (g.gang_size != 1)
        fail_size(
            fmt::format("{} packages per gang need a gang organisation: set geometry.gang "
                        "(shared-bus, shared-bus-sync, shared-control-async or "
                        "shared-control-sync)",
                        g.gang_size));
      return;
    case flash::Gang::kSharedBus:
    case flash::Gang::kSharedBusSync:
      // The model's channel is a shared bus: the gang is its packages.
      if (g.gang_size < 2 || g.gang_size != g.packages_per_channel)
        fail_size(
            fmt::format("a shared-bus gang is the packages of one bus: gang_size {} must "
                        "equal packages_per_channel {} and be at least 2 (for {} packages "
                        "in gangs of N: channels = {} / N, packages_per_channel = N)",
                        g.gang_size, g.packages_per_channel, g.packages(), g.packages()));
      break;
    case flash::Gang::kSharedControlAsync:
    case flash::Gang::kSharedControlSync:
      if (!size_node)
        fail_size("a shared-control gang needs geometry.gang_size (packages per gang)");
      if (g.packages_per_channel != 1)
        fail_size(
            fmt::format("a shared-control gang's packages each have their own data path: "
                        "packages_per_channel must be 1 (got {})",
                        g.packages_per_channel));
      if (g.gang_size < 2 || g.channels % g.gang_size != 0)
        fail_size(fmt::format("gang_size {} must be at least 2 and divide the {} channels",
                              g.gang_size, g.channels));
      break;
  }
  if (!g.lockstep()) return;
  if (std::uint64_t{g.page_size} * g.gang_size > (1u << 24))
    fail_size(fmt::format("a gang page of {} x {} bytes is over the 16 MiB ssdlab supports",
                          g.gang_size, g.page_size));
  // Lockstep: one unit per gang, its page the members' pages side by side.
  if (g.gang == flash::Gang::kSharedControlSync)
    g.channels /= g.gang_size;  // the members' channels
  else
    g.packages_per_channel = 1;  // the bus's packages
  g.page_size *= g.gang_size;
  g.oob_size *= g.gang_size;
}

}  // namespace ssdlab::sim::config_detail
