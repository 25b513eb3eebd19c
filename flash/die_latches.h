// The dies' latches under one-shot wordlines (issue 54 item 1): the flash
// scheduler's record of which planes hold a wordline's staged pages, and the
// commands that may pass a die while they do.
//
// A one-shot cell (flash/cell.h) programs a wordline once its last page has
// come in; until then its earlier pages wait in the plane's page buffer
// (the data latches). A die whose latches hold staged pages serves no other
// array operation: a read or an erase would sense through the same latches.
// So, where the FTL makes the wordline the unit of durability
// (ftl::FtlConfig::wordline_pages > 1: every command list it emits ends the
// wordlines it begins, padded where the data ran out), a unit with a staged
// wordline takes only:
//  - the next page of a wordline staged on it, once the page before it is
//    programmed (a page of a block is programmed in order): the `ready`
//    commands; until then such a command waits here, not in the unit's
//    queues (`waiting`), so that the unit's dispatch order never meets it
//    before it may run;
//  - a cleaning move's read whose target is a later page of a wordline
//    already begun (`reads`), on any unit, first: the controller reads the
//    sources of a wordline it has begun before other work on their dies, so
//    that the die whose latches wait for them is held no longer than it
//    must be (the reads for a wordline not yet begun wait here, and take no
//    place ahead of anything). Firmware reads a wordline's sources before
//    it transfers any; the model reads each when its move's turn comes, so
//    such a read may pass a die's latches (the die's work and the
//    wordline's end are the same).
// Everything else on a unit waits until its staged wordlines are programmed.
// The ready commands of two planes of a pair at one page offset are joined
// into one two-plane command (scheduler.cpp), as the unit's queued ones are.
//
// A wordline whose next page is in a later stage of its list (which the
// FTLs do not emit) would hold its die across stages and could deadlock:
// when a stage ends with a wordline it staged still open, the latch is let
// go and counted (released_open(); the tests hold it at 0).
#pragma once

#include <cstdint>
#include <deque>
#include <string>
#include <unordered_map>
#include <vector>

#include "flash/command.h"
#include "flash/command_queues.h"

namespace ssdlab::flash {

class FlashTimeline;  // flash/timeline.h

class DieLatches {
 public:
  using Entry = CommandQueues::Entry;
  // Off: nothing is ever latched, every command goes to the unit's queues.
  DieLatches() = default;
  explicit DieLatches(const FlashTimeline& timeline);

  bool on() const { return timeline_ != nullptr; }
  // What holds the dies (a deadlock's report): each staged wordline (plane,
  // its next page, the chain that staged it) and the pages commands wait for.
  std::string describe() const;
  // Does `unit` hold a staged wordline (and take only what this holds)?
  bool latched(std::uint32_t unit) const { return staged_[unit] != 0; }
  // Does this hold a command `unit` may take now (ready, or a move's read)?
  bool holds(std::uint32_t unit) const { return !ready_[unit].empty() || !reads_[unit].empty(); }

  // Is `page` a later page of a one-shot wordline (not its first, not in a
  // block in SLC mode)?
  bool later_page(Ppn page) const;

  // The chain of a job whose list stages a wordline: the FTL ends every
  // wordline it begins within one list (one job's host or cleaning chain).
  struct Owner {
    std::uint32_t job = 0;
    std::uint8_t chain = 0;  // 0 host, 1 cleaning
    bool operator==(const Owner&) const = default;
  };

  // Where a command of `owner` arriving for `unit` goes, by the pages it
  // programs (`second`: a two-plane command's second, or kNoPage): false,
  // the unit's queues (no page is a later one: later_page()); true, here: a
  // move's read (`read`) of a later page, ready once its wordline is begun,
  // a ready command, or a waiting one. A page continues only a wordline its
  // own chain staged: the same pages of a block erased and written again by
  // a later list are another wordline, which waits for its own first page
  // (before, such a page ran as the old wordline's next and the die waited
  // for it ever after: a deadlock, docs/model.md).
  bool hold(const Entry& entry, Ppn page, Ppn second, bool read, std::uint32_t unit, Owner owner);

  // The pages `page` (and a two-plane command's `second`, kNoPage if none)
  // were reserved on `unit` to be programmed: stages or ends their
  // wordlines (owned by `owner`'s and `owner2`'s chains `chain`/`chain2`),
  // and readies what waited for them. True if something became ready.
  bool programmed(Ppn page, Owner owner, Ppn second, Owner owner2, std::uint32_t unit);
  // The planes programmed() staged anew (the scheduler keeps them per job
  // for stage_ended()), and the other units whose moves' reads it readied
  // (to wake); both cleared by each programmed().
  const std::vector<std::uint32_t>& newly_staged() const { return newly_staged_; }
  const std::vector<std::uint32_t>& readied_units() const { return readied_units_; }

  // The next command `unit` takes of what this holds: a ready one first,
  // else a move's read (`read` set).
  Entry take(std::uint32_t unit, bool& read);
  // A ready command of `unit` for which `joins` holds (a two-plane partner),
  // taken out; false if none.
  template <typename Joins>
  bool take_ready_if(std::uint32_t unit, Joins joins, Entry& out) {
    std::vector<Entry>& ready = ready_[unit];
    for (std::size_t i = 0; i < ready.size(); ++i) {
      if (!joins(ready[i])) continue;
      out = ready[i];
      ready.erase(ready.begin() + static_cast<std::ptrdiff_t>(i));
      return true;
    }
    return false;
  }

  // `owner`'s stage ended: the wordlines on `planes` it staged and left
  // open are let go (counted in released_open()); `on_unit` gets the unit
  // of each.
  template <typename OnUnit>
  void stage_ended(Owner owner, const std::vector<std::uint32_t>& planes, OnUnit on_unit) {
    for (const std::uint32_t plane : planes) {
      if (!staged_by(plane, owner)) continue;
      ++released_open_;
      on_unit(unstage(plane));
    }
  }
  // Does `plane` hold a wordline `owner` staged?
  bool staged_by(std::uint32_t plane, Owner owner) const {
    return next_[plane] != kNoPage && owner_[plane].job == owner.job &&
           owner_[plane].chain == owner.chain;
  }
  // Wordlines let go open by stage_ended(): 0 unless an FTL's list leaves a
  // wordline's pages to a later stage.
  std::uint64_t released_open() const { return released_open_; }

 private:
  // A command waiting for the pages before its own (by its first page; a
  // two-plane one also by its second), or a move's read (`read`, of `unit`)
  // waiting for its target's wordline to begin.
  struct Waiting {
    Entry entry;
    Ppn page = kNoPage, second = kNoPage;
    std::uint32_t unit = 0;
    bool read = false;
    Owner owner;
  };
  // Ends the staged wordline of `plane`; returns its unit.
  std::uint32_t unstage(std::uint32_t plane);
  void program(Ppn page, Owner owner, std::uint32_t unit);
  // Was the page before `page` programmed (or staged) last on its plane?
  bool follows(Ppn page) const;
  // Is `page` its plane's staged wordline's next page?
  bool staged_next(Ppn page) const;
  // Is `page` the next page of a wordline `owner` staged on its plane?
  bool continues(Ppn page, Owner owner) const;
  // Readies the command of `owner` that waits for the page after `page`,
  // if it may run now.
  bool ready_after(Ppn page, Owner owner, std::uint32_t unit);
  // Has the wordline of `page` (a later page) begun, by `owner`: is an
  // earlier page of it staged on its plane by that chain?
  bool begun(Ppn page, Owner owner) const;
  // `page` staged its wordline for `owner`: the moves' reads of its later
  // pages are ready on their units.
  void ready_reads_after(Ppn page, Owner owner);
  // The waiting entry for `page` of the command `entry` (a two-plane one
  // waits under both its pages), or end().
  std::unordered_multimap<Ppn, Waiting>::iterator find_waiting(Ppn page, const Entry& entry);

  const FlashTimeline* timeline_ = nullptr;
  std::uint32_t bits_ = 1;
  std::vector<Ppn> next_;                  // per plane: its staged wordline's next page, or kNoPage
  std::vector<Ppn> last_;                  // per plane: the page it last programmed (or staged)
  std::vector<Owner> owner_;               // per plane: the chain that staged its wordline
  std::vector<std::uint16_t> staged_;      // per unit: its planes with a staged wordline
  std::vector<std::vector<Entry>> ready_;  // per unit: next pages that may run, in arrival order
  std::vector<std::deque<Entry>> reads_;   // per unit: moves' reads of later pages
  std::unordered_multimap<Ppn, Waiting> waiting_;  // by the page each waits for
  std::vector<std::uint32_t> newly_staged_;
  std::vector<std::uint32_t> readied_units_;
  std::uint64_t released_open_ = 0;
};

}  // namespace ssdlab::flash
