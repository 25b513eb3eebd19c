#include "ftl/pools.h"

#include <algorithm>
#include <tuple>

namespace ssdlab::ftl {

std::uint32_t PoolLayout::pool_count(const flash::Geometry& g, PoolScope scope) {
  switch (scope) {
    case PoolScope::kSsd:
      return 1;
    case PoolScope::kChannel:
      return g.channels;
    case PoolScope::kPackage:
      return g.packages();
    case PoolScope::kDie:
      return g.dies();
    case PoolScope::kPlane:
      return g.planes();
  }
  return 1;
}

PoolLayout::PoolLayout(const flash::Geometry& g, PoolScope scope)
    : pools_(pool_count(g, scope)),
      planes_per_pool_(g.planes() / pools_.divisor()),
      order_(pools()) {
  // Flat plane numbers are channel-major, so a pool's planes are contiguous.
  for (std::uint32_t pool = 0; pool < pools(); ++pool) {
    auto& order = order_[pool];
    for (std::uint32_t i = 0; i < planes_per_pool(); ++i)
      order.push_back(pool * planes_per_pool() + i);
    // Fastest-varying first: channel, package, die, then plane in die.
    auto key = [&g](std::uint32_t plane) {
      const std::uint32_t die = g.die_of_plane(plane);
      const std::uint32_t package = g.package_of_die(die);
      return std::make_tuple(g.plane_in_die(plane), die % g.dies_per_package,
                             package % g.packages_per_channel, g.channel_of_package(package));
    };
    std::stable_sort(order.begin(), order.end(),
                     [&key](std::uint32_t a, std::uint32_t b) { return key(a) < key(b); });
  }
}

namespace {

bool joinable(const flash::Command& command, bool erases) {
  // (A summary page, ftl.summary_page, is at a block's last offset, where no
  // data page ever is: it pairs only with another summary page, as one
  // two-plane program of two sectors.)
  // (Map units: a page's flash command pairs; the units riding on it follow.)
  return (command.op == flash::Op::kProgram || command.op == flash::Op::kRead ||
          (erases && command.op == flash::Op::kErase)) &&
         !command.two_plane() && !command.cleaning && !command.rides;
}

}  // namespace

void merge_two_plane(const flash::FastGeometry& g, flash::CommandList& commands, std::size_t from,
                     bool erases, bool page_order) {
  const auto mergeable = [erases](const flash::Command& c) { return joinable(c, erases); };
  // Fast path (speed, not semantics): with fewer than two candidates nothing
  // can merge. That is every single-page request, whatever cleaning it
  // carries, so the common case pays one scan and no allocation.
  const auto candidates = std::count_if(commands.begin() + static_cast<std::ptrdiff_t>(from),
                                        commands.end(), mergeable);
  if (candidates < 2) return;
  // Index of a command still waiting for a partner, per die; few dies are
  // touched by one request, so a short linear list is enough.
  struct Waiting {
    std::uint32_t die;
    std::size_t index;
  };
  std::vector<Waiting> waiting;
  // Per plane, where its last program kept in place went: a program joins
  // only a partner after it, never ahead of an earlier page of its plane
  // (few planes: a short list).
  struct Kept {
    std::uint32_t plane;
    std::size_t index;
  };
  std::vector<Kept> kept;
  const auto programs = [page_order](const flash::Command& c) {
    return page_order && c.ppn != flash::kNoPage &&
           (c.op == flash::Op::kProgram || c.op == flash::Op::kMove ||
            c.op == flash::Op::kCopyBack);
  };
  const auto kept_after = [&kept](std::uint32_t plane, std::size_t index) {
    return std::any_of(kept.begin(), kept.end(),
                       [&](const Kept& k) { return k.plane == plane && k.index > index; });
  };
  const auto keep = [&kept](std::uint32_t plane, std::size_t index) {
    const auto it =
        std::find_if(kept.begin(), kept.end(), [plane](const Kept& k) { return k.plane == plane; });
    if (it == kept.end())
      kept.push_back({plane, index});
    else
      it->index = index;
  };
  std::size_t out = from;
  for (std::size_t i = from; i < commands.size(); ++i) {
    flash::Command command = commands[i];
    // A merged command takes its first half's place, so it must not jump over
    // cleaning work in between (an erase of the very block it programs, say).
    if (command.cleaning) waiting.clear();
    if (mergeable(command)) {
      const std::uint32_t die = g.die_of(command.ppn);
      auto partner = std::find_if(waiting.begin(), waiting.end(), [&](const Waiting& w) {
        const flash::Command& other = commands[w.index];
        return w.die == die && other.op == command.op && other.stage == command.stage &&
               g.is_two_plane_pair(g.plane_of(other.ppn), g.plane_of(command.ppn)) &&
               g.page_in_block(other.ppn) == g.page_in_block(command.ppn);
      });
      if (partner != waiting.end() &&
          !(programs(command) && kept_after(g.plane_of(command.ppn), partner->index))) {
        flash::Command& first = commands[partner->index];
        first.ppn2 = command.ppn;
        first.lpn2 = command.lpn;
        if (programs(command)) keep(g.plane_of(command.ppn), partner->index);
        waiting.erase(partner);
        continue;  // absorbed into its partner
      }
      waiting.push_back({die, out});
    }
    if (programs(command)) keep(g.plane_of(command.ppn), out);
    if (out != i) commands[out] = command;
    ++out;
  }
  commands.resize(out);
}

}  // namespace ssdlab::ftl
