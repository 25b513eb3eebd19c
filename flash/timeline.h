// When flash commands run: busy-until timelines of the shared resources.
//
// Constraints are grouped by scope (STYLE.md, after DRAMsim3):
//  - bus (one per channel): command/address cycles and data transfers of every
//    die on the channel are serialised on it (a shared-bus gang is a channel
//    with several packages; a synchronous shared-control gang is a channel
//    whose page crosses gang_size data paths at once, Geometry::lanes(); a
//    synchronous shared-bus gang is a channel whose page crosses as
//    gang_size member pages in turn, and whose host reads move only the
//    member pages asked for, Command::read_units);
//  - control bus (asynchronous shared-control gangs only, one per gang): the
//    command/address cycles of every member, which keep their own data buses
//    (Agrawal et al. §3.3, Figure 5);
//  - die: one array operation at a time, single- or two-plane. A die is held
//    from its first phase to its last (its page registers hold the data), but
//    dies of one package interleave: while one transfers, another's array works
//    (Agrawal et al. §2.2). Without interleaving (Geometry::interleaving) the
//    package is held instead; with a cache register (Timing::cache_register)
//    the array is free for the next command while a page crosses the bus.
// A read is command, array read, transfer out; a program is command plus
// transfer in, then array program (DESIGN.md). The flash scheduler
// (flash/scheduler.h) decides which command a die takes next; once taken, a
// command's phases are reserved here at once, so phases need no events of
// their own; on a bus, each phase takes the earliest gap that holds it
// (flash/bus_timeline.h), so a phase reserved later may run before earlier
// ones.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include "common/state_io.h"
#include "common/units.h"
#include "flash/bus_timeline.h"
#include "flash/command.h"
#include "flash/geometry.h"
#include "flash/nand_power.h"
#include "flash/suspend.h"
#include "flash/timeline_observer.h"
#include "flash/timing.h"
#include "records/suspend_counters.h"

namespace ssdlab::flash {

struct TimelineStats {
  std::array<std::uint64_t, 5> commands{};  // by Op
  std::uint64_t two_plane_commands = 0;
  // Four-plane operations (Geometry::multi_plane 4): two commands joined by
  // schedule_joined(), each also counted as itself above.
  std::uint64_t four_plane_commands = 0;
  TimeNs bus_busy_ns = 0;      // summed over channels
  TimeNs control_busy_ns = 0;  // summed over shared control buses
  TimeNs die_busy_ns = 0;      // summed over dies
  // Commands marked `cleaning` (victims' moves and erases, and wear-leveling
  // migrations): the sum of each one's unloaded_ns(), as if they had run one
  // after another with nothing else on the flash (serial flash time; the
  // controller's cleaning_ns is the wall time of overlapping batches).
  TimeNs cleaning_flash_ns = 0;
  // The host's commands (not `cleaning`), for the flash accesses of DiskSim's
  // "Access time" statistic, which Agrawal et al.'s Table 3 prints
  // (FlashTimeline::host_flash()): whole-page reads and programs counted by
  // kind (single, two-plane), which is all a host request's path pays; any
  // other host command (a summary page, a gang's member reads, a
  // read-modify-write copy-back, a merge's erase) at its unloaded_ns() with
  // its page accesses.
  std::array<std::uint64_t, 2> host_page_reads{}, host_page_programs{};
  TimeNs host_other_read_ns = 0, host_other_write_ns = 0;
  std::uint64_t host_other_read_pages = 0, host_other_write_pages = 0;
  // Cells of several bits only (Geometry::cell_type other than kSlc; all 0
  // for SLC): the pages array reads sensed by page type (reads, and the
  // sources of copy-backs and moves; two-plane: both pages), those in
  // SLC-mode blocks counted in slc_mode_reads instead; the pages programmed
  // in SLC-mode blocks; and the wordlines programmed: every program of a
  // wordline's last page type (one-shot: the wordline's one program), plus
  // every SLC-mode program, whose page is a wordline of its own.
  std::array<std::uint64_t, kMaxPageTypes> page_type_reads{};
  std::uint64_t slc_mode_reads = 0, slc_mode_programs = 0, wordline_programs = 0;
  // Program/erase suspend (flash/suspend.h): suspensions of programs, of erases.
  records::SuspendCounters suspend;
  // Array time by kind, summed over planes (a two-plane command's twice):
  // reads (and the sources of copy-backs and moves), programs (and their
  // targets), erases, each at its page's or block's unloaded array time (a
  // suspension's wait not included). With bus_busy_ns, what the flash's
  // energy is made of (flash/nand_power.h).
  TimeNs array_read_ns = 0, array_program_ns = 0, array_erase_ns = 0;
};

// The host's flash accesses (TimelineStats): page accesses and their
// unloaded time, reads and writes.
struct HostFlash {
  TimeNs read_ns = 0, write_ns = 0;
  std::uint64_t read_pages = 0, write_pages = 0;
};

class NandArray;

class FlashTimeline {
 public:
  FlashTimeline(const Geometry& geometry, const Timing& timing);

  // Reserves what `command` needs, starting no earlier than `ready`; returns
  // the time the command completes.
  TimeNs schedule(const Command& command, TimeNs ready);
  // An inter-plane move (Op::kMove) in its two halves, for the flash
  // scheduler: the read on the source die and the transfer out, then, when
  // the target die takes it, the transfer in and the program. schedule()
  // reserves the second right after the first.
  TimeNs schedule_move_read(const Command& move, TimeNs ready);
  TimeNs schedule_move_program(const Command& move, TimeNs ready);
  // A four-plane operation (Geometry::multi_plane 4): `a` and `b`, of one
  // op, one on each plane pair of a die at one page offset (a move's
  // sources likewise), each single- or two-plane, as one array operation:
  // one command's cycles, the data of both over the bus (a's, then b's),
  // the longer of their array times. Not a copy-back with host data, and
  // not with suspend (the scheduler joins none then). Returns the end.
  // `program_half`: two moves' program halves (schedule_move_program()).
  TimeNs schedule_joined(const Command& a, const Command& b, TimeNs ready,
                         bool program_half = false);

  // How long `command` takes on an idle device: its phases back to back
  // (command cycles, array operations, bus transfers; a move's read then its
  // program; a two-plane command's two transfers and one array operation).
  TimeNs unloaded_ns(const Command& command) const;
  // The host's flash accesses so far, from the counts in stats().
  HostFlash host_flash() const;

  // Program/erase suspend (flash/suspend.h, flash/timeline_suspend.cpp), for
  // the flash scheduler, which owns when an operation's completion is final.
  // Off until enabled.
  void enable_suspend(const SuspendTiming& suspend);
  const SuspendTiming& suspend() const { return suspend_; }
  // The operations a read may suspend.
  static bool suspendable(const Command& command) {
    return command.op == Op::kProgram || command.op == Op::kErase;
  }
  // Reserves a suspendable() command as schedule() does and keeps it as its
  // unit's operation in flight until forget_suspendable(unit): until then a
  // read may suspend it and move its end. Returns its end so far.
  TimeNs schedule_suspendable(const Command& command, TimeNs ready);
  // A read ready at `ready` on a unit whose operation in flight is in its
  // array phase, is the unit's last reservation and has suspensions left:
  // the read's command cycles, then `suspend_ns` until the array is free, its
  // array read and its transfer out as usual; the operation (and the unit's
  // busy-until) ends later by suspend + read array time + resume. Returns the
  // read's end; nothing, with nothing reserved, when it cannot suspend.
  std::optional<TimeNs> suspend_for_read(const Command& read, TimeNs ready);
  // The end of the unit's operation in flight, as suspensions moved it.
  TimeNs suspendable_end(std::uint32_t unit) const { return in_flight_[unit].end; }
  // The unit's operation in flight completed (its end is final).
  void forget_suspendable(std::uint32_t unit) { in_flight_[unit].active = false; }

  // Power cut (sim/controller/power_cut.h): every reservation is abandoned; all
  // resources are next free at `t`.
  void restart_at(TimeNs t);

  const TimelineStats& stats() const { return stats_; }
  // The energy of the flash work scheduled so far, at `power`'s currents.
  records::EnergyCounters energy(const NandPower& power) const {
    return power.energy(stats_.array_read_ns, stats_.array_program_ns, stats_.array_erase_ns,
                        stats_.bus_busy_ns);
  }
  // When every phase reserved on a bus is over.
  TimeNs bus_free_at(std::uint32_t channel) const { return buses_[channel].free_at(); }
  TimeNs control_free_at(std::uint32_t control_bus) const {
    return control_buses_[control_bus].free_at();
  }
  // When `die` can take its next command: its array (with a cache register,
  // the earlier of array and register); without interleaving, its package's.
  TimeNs die_free_at(std::uint32_t die) const { return unit_free_at(unit_of_die(die)); }
  TimeNs unit_free_at(std::uint32_t unit) const {
    return std::min(die_free_[unit], register_free_[unit]);
  }
  // What serves one command at a time: a die, or a package without interleaving.
  std::uint32_t unit_of_die(std::uint32_t die) const { return dies_per_unit_.quotient(die); }
  std::uint32_t units() const { return static_cast<std::uint32_t>(die_free_.size()); }
  const FastGeometry& geometry() const { return geometry_; }
  // Read units a page has (Timing::read_units_per_page(); 1: whole pages).
  std::uint32_t read_units_per_page() const { return read_units_per_page_; }
  // When every reservation on every bus and die has completed (no earlier
  // than `t`).
  TimeNs all_done_at(TimeNs t) const;

  // Reports every phase to `observer` from now on (null: no reports). The
  // observer must outlive the timeline or be detached first.
  void set_observer(TimelineObserver* observer) { observer_ = observer; }
  // Where a cell of several bits finds which blocks run in SLC mode (the
  // FTL's NAND array: NandArray::is_slc, read when a command is booked);
  // null: none does. Unused for SLC cells. `nand` must outlive the timeline
  // or be detached first.
  void attach(const NandArray* nand) { nand_ = nand; }
  // The page type (flash/cell.h) of `ppn`: its offset in the block modulo the
  // bits per cell.
  std::uint32_t page_type(Ppn ppn) const { return bits_.remainder(geometry_.page_in_block(ppn)); }
  // True if `ppn` lies in a block in SLC mode.
  bool in_slc_mode(Ppn ppn) const;
  // What a host read of `commands` waits for in the array: of the pages its
  // reads read, the class of the one whose array read is slowest (the first
  // of equals): 1 + its page type, or kSlcModeReadClass in a block in SLC
  // mode. 0 if it reads no page, or the cells are SLC (one page type).
  static constexpr std::uint8_t kSlcModeReadClass = kMaxPageTypes + 1;
  std::uint8_t read_page_class(const CommandList& commands) const;

  // Checkpoints: when each bus and die is next free (absolute simulated
  // time, so the clock must be restored with it) and the counters, as
  // section "TIME". The timing parameters are not state: they come from the
  // config of the run that loads it.
  void save_state(StateWriter& out) const;
  void load_state(StateReader& in);

 private:
  // Occupies the bus of `channel` for `duration` from no earlier than `t`;
  // returns the end.
  TimeNs use_bus(std::uint32_t channel, TimeNs t, TimeNs duration, Phase phase);
  // Command/address cycles for a die on `channel` from no earlier than `t`;
  // returns their end (`t` if they take no time).
  TimeNs issue_command(std::uint32_t channel, TimeNs t);
  // Counts a command about to be reserved (stats_).
  void count(const Command& command);
  // count() out of line, for the rare paths in other files (a read that
  // suspends an operation, flash/timeline_suspend.cpp).
  void count_elsewhere(const Command& command);
  void count_other_host(const Command& command);
  // Bus time of a read's data out: its pages, or the read units (member
  // pages, codewords) it moves.
  TimeNs read_transfer_ns(const Command& command) const {
    if (command.read_units) return read_unit_transfer_ns_ * command.read_units;
    return page_transfer_ns_ * (command.two_plane() ? 2 : 1);
  }
  // Bus time of a program's data: its pages with their OOB, or its
  // transfer_bytes (a summary page's sector).
  TimeNs program_transfer_ns(const Command& command) const {
    const TimeNs pages = command.two_plane() ? 2 : 1;
    if (command.transfer_bytes != 0) return timing_.transfer_ns(command.transfer_bytes) * pages;
    return page_transfer_ns_ * pages;
  }
  TimeNs read_out(std::uint32_t die, TimeNs ready, TimeNs transfer_ns, TimeNs array_ns);
  TimeNs program_in(std::uint32_t die, TimeNs ready, TimeNs transfer_ns, TimeNs array_ns);
  TimeNs array_only(std::uint32_t die, TimeNs ready, TimeNs array_ns, Phase array_phase);
  TimeNs copy_back_with_data(std::uint32_t die, TimeNs ready);
  // The array time of reading, programming `ppn`, or erasing its block: on
  // SLC cells Timing's, else by page type (Timing::cell) or SLC mode.
  TimeNs read_array_ns(Ppn ppn) const {
    return multi_bit_ ? cell_read_ns(ppn) : timing_.read_ns;
  }
  // A read command's array time: its page's; with independent plane reads
  // (Timing::independent_plane_reads) the longer of its two pages'.
  TimeNs read_command_array_ns(const Command& read) const {
    const TimeNs first = read_array_ns(read.ppn);
    if (!timing_.independent_plane_reads || !read.two_plane()) return first;
    return std::max(first, read_array_ns(read.ppn2));
  }
  TimeNs program_array_ns(Ppn ppn) const {
    return multi_bit_ ? cell_program_ns(ppn) : timing_.program_ns;
  }
  TimeNs erase_array_ns(Ppn ppn) const {
    return multi_bit_ ? cell_erase_ns(ppn) : timing_.erase_ns;
  }
  TimeNs cell_read_ns(Ppn ppn) const;
  TimeNs cell_program_ns(Ppn ppn) const;
  TimeNs cell_erase_ns(Ppn ppn) const;
  // count() of cells of several bits: the page type and SLC-mode counters of
  // TimelineStats, and every host command at its own unloaded_ns()
  // (count_other_host()), since a page's cost depends on its page type.
  void count_cells(const Command& command);
  // count()'s array time of `command` by kind, on `planes` planes.
  void count_array(const Command& command, TimeNs planes);
  // Reports a phase of the command being scheduled, if observed.
  void report(Resource resource, std::uint32_t index, Phase phase, TimeNs start, TimeNs end) {
    if (observer_) observer_->phase(resource, index, phase, start, end, *current_);
  }
  void report_planes(Phase phase, TimeNs start, TimeNs end);
  // Program/erase suspend: a unit's operation in flight.
  struct InFlight {
    Command command;           // (for the observer's reports)
    TimeNs array_start = 0;    // its array phase, from then to `end`
    TimeNs end = 0;            // moved by each suspension
    TimeNs resumed = 0;        // the end of its latest suspension's resume
    std::uint32_t suspensions = 0;
    bool active = false;
  };
  TimeNs array_ns(const Command& command) const;
  // The read's phases once its command cycles reached the die at `issued`,
  // and the suspension of `op` they take; returns the read's end.
  TimeNs suspended_read(const Command& read, InFlight& op, TimeNs start, TimeNs issued);

  FastGeometry geometry_;
  Timing timing_;
  TimeNs page_transfer_ns_;
  // One read unit (Timing::read_units_per_page(): a synchronous shared-bus
  // gang's member page, a codeword; a page otherwise) with its OOB share.
  TimeNs read_unit_transfer_ns_;
  std::uint32_t read_units_per_page_;
  std::vector<BusTimeline> buses_;          // per channel
  std::vector<BusTimeline> control_buses_;  // per shared control bus (empty without)
  FastDiv dies_per_unit_;                   // 1, or a package's dies without interleaving
  std::vector<TimeNs> die_free_;      // per unit: its array (and page register)
  std::vector<TimeNs> register_free_;  // per unit: its cache register (= die_free_ without)
  TimelineStats stats_;
  TimelineObserver* observer_ = nullptr;
  bool multi_bit_;  // a cell of several bits: array times from Timing::cell
  FastDiv bits_;    // bits per cell
  const NandArray* nand_ = nullptr;  // which blocks run in SLC mode (null: none)
  const Command* current_ = nullptr;  // the command schedule() is reserving
  const Command* joined_ = nullptr;   // schedule_joined()'s second command, else null
  SuspendTiming suspend_;
  std::vector<InFlight> in_flight_;  // per unit, with suspend on
};

}  // namespace ssdlab::flash
