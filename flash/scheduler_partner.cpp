// The flash scheduler's two-plane partner (flash/scheduler.h, plane
// interleaving): which queued command joins the one a unit takes, found
// through the pairing slots of its queues (flash/command_queues.h).
#include <array>
#include <initializer_list>

#include "flash/scheduler.h"

namespace ssdlab::flash {

namespace {

// The pairing slot of `command` were its page on `plane` (flash/
// command_queues.h): a key of what a partner must share with it, so that a
// walk of a slot's list meets few entries that do not pair
// (FlashScheduler::pairs_with): its plane and page offset, its op (a read
// and a program at one offset would share a list otherwise) and, for a
// copy-back or a move, its source's offset too (the cleaning blocks of a
// plane pair fill at the same pace, so queued copy-backs often share their
// targets' offset and not their sources'). A move's source plane is not in
// it: pairs_with() checks it. With independent plane reads a read's slot
// is its plane's (any offset pairs).
std::uint64_t slot_of(const FastGeometry& g, const Command& command, std::uint32_t plane,
                      bool independent_reads) {
  constexpr std::uint64_t kOps = 5;
  const bool copies = command.op == Op::kCopyBack || command.op == Op::kMove;
  const std::uint64_t source = copies ? g.page_in_block(command.src) : 0;
  const std::uint64_t offset =
      independent_reads && command.op == Op::kRead ? 0 : g.page_in_block(command.ppn);
  const std::uint64_t page = std::uint64_t{plane} * g.pages_per_block + offset;
  return ((page * kOps + static_cast<std::uint64_t>(command.op)) * g.pages_per_block) + source;
}

// A two-plane command's slot on a four-plane die: its first page's, apart
// from the single-plane commands' (which never join it into a pair).
constexpr std::uint64_t kTwoPlaneSlot = std::uint64_t{1} << 62;

// Can `other` join `command` into one two-plane command (pairs_with()), or,
// `kAcross`, into one four-plane operation from the die's other plane pair
// (pairs_across(), where `other` may be a two-plane command itself: its
// pair is then the other pair whole)? Agrawal et al. §2.2: a two-plane
// operation needs an allowed plane pair of one die and the same page offset
// in both blocks. Two copy-backs "may themselves be interleaved on
// different planes" (§2.2): their sources and their targets each form such
// a pair (a copy-back stays in its plane); so do a move's sources (one
// two-plane read) and its targets (one two-plane program). An erase pairs
// any two blocks of a plane pair. (A summary page sits at a block's last
// offset, where no data page is: it pairs only with another summary page.)
template <bool kAcross>
bool plane_partners(const FastGeometry& g, bool independent_reads, const Command& command,
                    const Command& other) {
  if (other.op != command.op || (!kAcross && other.two_plane()) ||
      other.cleaning != command.cleaning || other.host_data)
    return false;
  auto planes = [&g](Ppn a, Ppn b) {
    return kAcross ? g.joins_across_pairs(g.plane_of(a), g.plane_of(b))
                   : g.is_two_plane_pair(g.plane_of(a), g.plane_of(b));
  };
  auto paired = [&](Ppn a, Ppn b) {
    return g.page_in_block(a) == g.page_in_block(b) && planes(a, b);
  };
  switch (command.op) {
    case Op::kRead:
      // Independent plane reads: each plane reads at its own offset.
      if (independent_reads) return planes(command.ppn, other.ppn);
      [[fallthrough]];
    case Op::kProgram:
    case Op::kErase:
      return paired(command.ppn, other.ppn);
    case Op::kCopyBack:
    case Op::kMove:
      return paired(command.ppn, other.ppn) && paired(command.src, other.src);
  }
  return false;
}

}  // namespace

std::uint64_t FlashScheduler::pairing_slot(const Entry& entry, const Command& command) const {
  if (!join_planes_ || program_half(entry) || command.host_data) return CommandQueues::kNoSlot;
  const FastGeometry& g = timeline_.geometry();
  if (!command.two_plane()) return slot_of(g, command, g.plane_of(command.ppn), independent_reads_);
  // (Four-plane dies: a two-plane command may join one of the other pair.)
  if (!four_plane_) return CommandQueues::kNoSlot;
  return slot_of(g, command, g.plane_of(command.ppn), independent_reads_) | kTwoPlaneSlot;
}

template <bool kAcross>
void FlashScheduler::oldest_partners(std::uint32_t node, const Command& command,
                                     std::array<std::uint32_t, kWorkClasses>& oldest) const {
  // (A slot's list holds only entries that may pair: no program halves, no
  // two-plane or host-data commands. A move queues on its source's die, and
  // pairs_with() asks its source to pair too, so a match is on `command`'s
  // unit, as every other op's is by its page.) The list is in arrival
  // order over its classes: the first match of a class here is its oldest
  // here, and one of class 0 ends the walk (the lowest class wins). A
  // cleaning command pairs only with cleaning commands, all of class
  // kCleaning: its first match ends the walk. (Under a cleaning list's
  // millions of queued moves, nine in ten nodes walked came after that
  // match, each a cache miss.)
  const auto enough =
      static_cast<std::size_t>(command.cleaning ? WorkClass::kCleaning : WorkClass::kHostRead);
  std::array<bool, kWorkClasses> found{};
  for (; node != CommandQueues::kNil && !found[enough]; node = queues_.slot_next(node)) {
    const std::uint32_t work = queues_.work(node);
    if (found[work]) continue;
    const Entry& other = queues_.entry(node);
    const Command& candidate = jobs_[other.job].commands[index_of(other)];
    if (!(kAcross ? pairs_across(command, candidate) : pairs_with(command, candidate))) continue;
    found[work] = true;
    if (oldest[work] == CommandQueues::kNil || other.seq < queues_.entry(oldest[work]).seq)
      oldest[work] = node;
  }
}

std::optional<FlashScheduler::Entry> FlashScheduler::take_partner(std::uint32_t unit,
                                                                  Command& command) {
  const std::uint32_t found = oldest_partner<false>(command);
  if (found == CommandQueues::kNil) return std::nullopt;
  const Entry partner = take_node(unit, found);
  join_into(command, jobs_[partner.job].commands[index_of(partner)]);
  return partner;
}

template <bool kAcross>
std::uint32_t FlashScheduler::oldest_partner(const Command& command) const {
  // The first match in queue order: the lowest class that has one, in it the
  // oldest (lowest seq) over the slots of the planes that join the command's,
  // at its page offset.
  const FastGeometry& g = timeline_.geometry();
  const std::uint32_t plane = g.plane_of(command.ppn);
  const std::uint32_t first_plane = plane - g.plane_in_die(plane);
  std::array<std::uint32_t, kWorkClasses> oldest;
  oldest.fill(CommandQueues::kNil);
  for (std::uint32_t other = first_plane; other < first_plane + g.planes_per_die; ++other) {
    if (!(kAcross ? g.joins_across_pairs(plane, other) : g.is_two_plane_pair(plane, other)))
      continue;
    const std::uint64_t slot = slot_of(g, command, other, independent_reads_);
    oldest_partners<kAcross>(queues_.slot_front(slot), command, oldest);
    // (The other pair's two-plane commands, which join it whole.)
    if constexpr (kAcross)
      oldest_partners<true>(queues_.slot_front(slot | kTwoPlaneSlot), command, oldest);
  }
  for (const std::uint32_t found : oldest)
    if (found != CommandQueues::kNil) return found;
  return CommandQueues::kNil;
}

FlashScheduler::Entry FlashScheduler::take_node(std::uint32_t unit, std::uint32_t node) {
  const Entry entry = queues_.entry(node);
  if (flin_.on() && flin_.queued(node)) flin_.erase(node);
  queues_.remove(node);
  if (order_.fewest_queued) flow_partner_taken(unit, entry);
  return entry;
}

void FlashScheduler::join_into(Command& command, const Command& other) const {
  // Reads that move only their read units (member pages, codewords) move both's.
  if (command.read_units || other.read_units) {
    const std::uint32_t per_page = timeline_.read_units_per_page();
    command.read_units = static_cast<std::uint16_t>(read_units_moved(command, per_page) +
                                                    read_units_moved(other, per_page));
  }
  command.ppn2 = other.ppn;
  command.lpn2 = other.lpn;
  command.src2 = other.src;
}

std::optional<FlashScheduler::Entry> FlashScheduler::take_across(std::uint32_t unit,
                                                                 const Command& command) {
  // As take_partner(), over the slots of the other pair's planes: their
  // single-plane commands' and their two-plane commands'.
  const std::uint32_t found = oldest_partner<true>(command);
  if (found == CommandQueues::kNil) return std::nullopt;
  return take_node(unit, found);
}

template <bool kAcross>
bool FlashScheduler::joins_ready(const Entry& entry, const Command& command,
                                 const Entry& other) const {
  const Command& o = jobs_[other.job].commands[index_of(other)];
  if (program_half(other) != program_half(entry)) return false;
  if (!program_half(entry)) return kAcross ? pairs_across(command, o) : pairs_with(command, o);
  // Two moves' program halves: their data is out, one program of their targets.
  const FastGeometry& g = timeline_.geometry();
  const std::uint32_t a = g.plane_of(command.ppn), b = g.plane_of(o.ppn);
  return !o.two_plane() && o.cleaning == command.cleaning &&
         g.page_in_block(o.ppn) == g.page_in_block(command.ppn) &&
         (kAcross ? g.joins_across_pairs(a, b) : g.is_two_plane_pair(a, b));
}
template bool FlashScheduler::joins_ready<false>(const Entry&, const Command&, const Entry&) const;

bool FlashScheduler::start_joined(std::uint32_t unit, const Entry& entry, const Command& command,
                                  const Entry* partner, bool held, TimeNs t) {
  auto command_of = [this](const Entry& e) -> const Command& {
    return jobs_[e.job].commands[index_of(e)];
  };
  Entry second{};
  const bool half = program_half(entry);
  if (held) {
    const auto joins = [&](const Entry& o) { return joins_ready<true>(entry, command, o); };
    if (!latches_.take_ready_if(unit, joins, second)) return false;
  } else if (const std::optional<Entry> found = take_across(unit, command)) {
    second = *found;
  } else {
    return false;
  }
  queued_command_ns_ += static_cast<std::uint64_t>(t);  // (taken too)
  Command other = command_of(second);
  std::optional<Entry> other_partner;
  if (!other.two_plane()) {
    if (!held) {
      other_partner = take_partner(unit, other);
    } else if (Entry p{}; latches_.take_ready_if(
                   unit, [&](const Entry& o) { return joins_ready<false>(second, other, o); }, p)) {
      other_partner = p;
      join_into(other, command_of(p));
    }
    if (other_partner) queued_command_ns_ += static_cast<std::uint64_t>(t);
  }
  const Entry* second_partner = other_partner ? &*other_partner : nullptr;
  if (latches_.on() && command.op != Op::kRead && command.op != Op::kErase) {
    latch_programmed(command, entry, partner, t);
    latch_programmed(other, second, second_partner, t);
  }
  const TimeNs end = timeline_.schedule_joined(command, other, t, half);
  for (const Entry* e :
       std::initializer_list<const Entry*>{&entry, partner, &second, second_partner})
    if (e) dispatched(*e, end);
  return true;
}

bool FlashScheduler::pairs_with(const Command& command, const Command& other) const {
  return plane_partners<false>(timeline_.geometry(), independent_reads_, command, other);
}

bool FlashScheduler::pairs_across(const Command& command, const Command& other) const {
  return plane_partners<true>(timeline_.geometry(), independent_reads_, command, other);
}

}  // namespace ssdlab::flash
