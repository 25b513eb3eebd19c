// What the flash scheduler's tests share: a small device to schedule on.
#pragma once

#include <cstdint>

#include "flash/geometry.h"
#include "flash/timeline.h"

namespace ssdlab::testing {

// One channel, one package of `dies` dies of two planes (die d: planes 2d,
// 2d + 1; pairs {0, 1}), 8 blocks of 16 pages per plane.
inline flash::Geometry small_geometry(
    std::uint32_t dies, flash::Interleaving interleaving = flash::Interleaving::kDies) {
  flash::Geometry g;
  g.channels = 1;
  g.packages_per_channel = 1;
  g.dies_per_package = dies;
  g.planes_per_die = 2;
  g.blocks_per_plane = 8;
  g.pages_per_block = 16;
  g.two_plane_pairs = {{0, 1}};
  g.interleaving = interleaving;
  return g;
}

// A flash timeline with no work scheduled (a part that reads its energy or
// times, with nothing run: the controller's limits).
inline const flash::FlashTimeline& idle_flash() {
  static const flash::FlashTimeline timeline(flash::Geometry{}, flash::Timing{});
  return timeline;
}

}  // namespace ssdlab::testing
