#include "flash/geometry.h"

namespace ssdlab::flash {

const char* gang_name(Gang gang) {
  switch (gang) {
    case Gang::kNone:
      return "none";
    case Gang::kSharedBus:
      return "shared-bus";
    case Gang::kSharedControlAsync:
      return "shared-control-async";
    case Gang::kSharedControlSync:
      return "shared-control-sync";
    case Gang::kSharedBusSync:
      return "shared-bus-sync";
  }
  return "?";
}

bool parse_gang(std::string_view name, Gang& out) {
  for (const Gang gang : {Gang::kNone, Gang::kSharedBus, Gang::kSharedControlAsync,
                          Gang::kSharedControlSync, Gang::kSharedBusSync})
    if (name == gang_name(gang)) {
      out = gang;
      return true;
    }
  return false;
}

const char* interleaving_name(Interleaving interleaving) {
  switch (interleaving) {
    case Interleaving::kNone:
      return "none";
    case Interleaving::kDies:
      return "dies";
    case Interleaving::kPlanes:
      return "planes";
  }
  return "?";
}

bool parse_interleaving(std::string_view name, Interleaving& out) {
  for (const Interleaving i : {Interleaving::kNone, Interleaving::kDies, Interleaving::kPlanes})
    if (name == interleaving_name(i)) {
      out = i;
      return true;
    }
  return false;
}

bool Geometry::is_two_plane_pair(std::uint32_t a, std::uint32_t b) const {
  if (a == b || die_of_plane(a) != die_of_plane(b)) return false;
  const std::uint32_t pa = plane_in_die(a), pb = plane_in_die(b);
  for (const auto& [first, second] : two_plane_pairs)
    if ((pa == first && pb == second) || (pa == second && pb == first)) return true;
  return false;
}

FastGeometry::FastGeometry(const Geometry& geometry)
    : Geometry(geometry),
      per_block_(pages_per_block),
      per_plane_(pages_per_plane()),
      per_die_(pages_per_die()),
      blocks_per_plane_(blocks_per_plane),
      planes_per_die_(planes_per_die),
      dies_per_package_(dies_per_package),
      packages_per_channel_(packages_per_channel) {}

Geometry as_written(const Geometry& geometry) {
  Geometry g = geometry;
  if (!g.lockstep()) return g;
  // sim/config/config.cpp folds the gang the other way.
  if (g.gang == Gang::kSharedControlSync)
    g.channels *= g.gang_size;
  else
    g.packages_per_channel *= g.gang_size;
  g.page_size /= g.gang_size;
  g.oob_size /= g.gang_size;
  return g;
}

PageAddress decode(const Geometry& g, Ppn ppn) {
  PageAddress address{};
  address.block = g.block_of(ppn);
  address.page = g.page_in_block(ppn);
  address.plane = g.plane_of_block(address.block);
  address.die = g.die_of_plane(address.plane);
  address.package = g.package_of_die(address.die);
  address.channel = g.channel_of_package(address.package);
  return address;
}

}  // namespace ssdlab::flash
