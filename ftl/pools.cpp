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

// One-shot wordlines (merge_two_plane's `wordline_previous`; off without):
// the order of programs a merge keeps, so that a die's latches take each
// page in turn.
class WordlineOrder {
 public:
  WordlineOrder(const flash::FastGeometry& g, const flash::CommandList& commands,
                const std::function<flash::Ppn(flash::Ppn)>& previous)
      : g_(g), commands_(commands), previous_(previous) {}

  // May `command` join the command at `at` (of the output so far,
  // commands[..out])? Not if a page of its plane was kept after `at`, nor
  // if the pages before theirs in their wordlines are in different commands.
  bool may_join(const flash::Command& command, std::size_t at, std::size_t out) const {
    if (!programs(command)) return true;
    const std::uint32_t plane = g_.plane_of(command.ppn);
    const bool kept_after = std::any_of(kept_.begin(), kept_.end(), [&](const Kept& k) {
      return k.plane == plane && k.index > at;
    });
    return !kept_after && previous_at(commands_[at].ppn, out) == previous_at(command.ppn, out);
  }
  // `command`'s page went to the output's `index`.
  void keep(const flash::Command& command, std::size_t index) {
    if (!programs(command)) return;
    Kept* kept = of_plane(g_.plane_of(command.ppn));
    if (kept == nullptr) {
      kept_.push_back({g_.plane_of(command.ppn), index, command.ppn});
      return;
    }
    kept->before_index = kept->index;
    kept->before_ppn = kept->ppn;
    kept->index = index;
    kept->ppn = command.ppn;
  }

 private:
  static constexpr std::size_t kNone = static_cast<std::size_t>(-1);
  // Per plane, where its last two programs kept in place went (few planes:
  // a short list).
  struct Kept {
    std::uint32_t plane;
    std::size_t index;
    flash::Ppn ppn;
    std::size_t before_index = kNone;
    flash::Ppn before_ppn = flash::kNoPage;
  };
  Kept* of_plane(std::uint32_t plane) {
    const auto it = std::find_if(kept_.begin(), kept_.end(),
                                 [plane](const Kept& k) { return k.plane == plane; });
    return it == kept_.end() ? nullptr : &*it;
  }
  bool programs(const flash::Command& c) const {
    return previous_ && c.ppn != flash::kNoPage &&
           (c.op == flash::Op::kProgram || c.op == flash::Op::kMove ||
            c.op == flash::Op::kCopyBack);
  }
  // Where in commands[..out] the page before `page` in its wordline is
  // programmed; kNone if `page` begins its wordline, or its wordline began
  // in an earlier list. (Mostly one of its plane's last two programs; else
  // a walk back.)
  std::size_t previous_at(flash::Ppn page, std::size_t out) const {
    const flash::Ppn before = previous_(page);
    if (before == flash::kNoPage) return kNone;
    const std::uint32_t plane = g_.plane_of(before);
    for (const Kept& k : kept_) {
      if (k.plane != plane) continue;
      if (k.ppn == before) return k.index;
      if (k.before_ppn == before) return k.before_index;
    }
    for (std::size_t j = out; j-- > 0;) {
      const flash::Command& c = commands_[j];
      if (!c.rides && programs(c) && (c.ppn == before || c.ppn2 == before)) return j;
    }
    return kNone;
  }

  const flash::FastGeometry& g_;
  const flash::CommandList& commands_;
  const std::function<flash::Ppn(flash::Ppn)>& previous_;
  std::vector<Kept> kept_;
};

}  // namespace

void merge_two_plane(const flash::FastGeometry& g, flash::CommandList& commands, std::size_t from,
                     bool erases, const std::function<flash::Ppn(flash::Ppn)>& wordline_previous) {
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
  WordlineOrder order(g, commands, wordline_previous);
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
      if (partner != waiting.end() && order.may_join(command, partner->index, out)) {
        flash::Command& first = commands[partner->index];
        first.ppn2 = command.ppn;
        first.lpn2 = command.lpn;
        order.keep(command, partner->index);
        waiting.erase(partner);
        continue;  // absorbed into its partner
      }
      waiting.push_back({die, out});
    }
    order.keep(command, out);
    if (out != i) commands[out] = command;
    ++out;
  }
  commands.resize(out);
}

}  // namespace ssdlab::ftl
