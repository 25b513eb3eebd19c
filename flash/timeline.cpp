#include "flash/timeline.h"

#include <algorithm>

#include "common/error.h"
#include "flash/nand_array.h"

namespace ssdlab::flash {

FlashTimeline::FlashTimeline(const Geometry& geometry, const Timing& timing)
    : geometry_(geometry),
      timing_(timing),
      page_transfer_ns_(timing.page_transfer_ns(geometry)),
      read_unit_transfer_ns_(timing.read_unit_transfer_ns(geometry)),
      read_units_per_page_(timing.read_units_per_page(geometry)),
      buses_(geometry.channels),
      control_buses_(geometry.shared_control_bus() ? geometry.control_buses() : 0),
      dies_per_unit_(geometry.interleaving == Interleaving::kNone ? geometry.dies_per_package : 1),
      die_free_(geometry.dies() / dies_per_unit_.divisor(), 0),
      register_free_(die_free_.size(), 0),
      multi_bit_(geometry.cell_type != CellType::kSlc),
      bits_(geometry.bits_per_cell()) {}

void FlashTimeline::restart_at(TimeNs t) {
  for (BusTimeline& bus : buses_) bus.restart_at(t);
  for (BusTimeline& bus : control_buses_) bus.restart_at(t);
  std::fill(die_free_.begin(), die_free_.end(), t);
  std::fill(register_free_.begin(), register_free_.end(), t);
  for (InFlight& op : in_flight_) op.active = false;
}

TimeNs FlashTimeline::all_done_at(TimeNs t) const {
  for (const BusTimeline& bus : buses_) t = std::max(t, bus.free_at());
  for (std::uint32_t unit = 0; unit < units(); ++unit)
    t = std::max({t, die_free_[unit], register_free_[unit]});
  return t;
}

TimeNs FlashTimeline::use_bus(std::uint32_t channel, TimeNs t, TimeNs duration, Phase phase) {
  const TimeNs start = buses_[channel].reserve(t, duration);
  stats_.bus_busy_ns += duration;
  report(Resource::kBus, channel, phase, start, start + duration);
  return start + duration;
}

TimeNs FlashTimeline::issue_command(std::uint32_t channel, TimeNs t) {
  if (timing_.command_ns == 0) return t;
  if (!geometry_.shared_control_bus())
    return use_bus(channel, t, timing_.command_ns, Phase::kCommandCycles);
  const std::uint32_t control = geometry_.control_bus_of_channel(channel);
  const TimeNs start = control_buses_[control].reserve(t, timing_.command_ns);
  stats_.control_busy_ns += timing_.command_ns;
  report(Resource::kControlBus, control, Phase::kCommandCycles, start, start + timing_.command_ns);
  return start + timing_.command_ns;
}

// The array phase on the command's plane, and on its pair's in a two-plane
// command; in a four-plane operation, on the joined command's planes too.
void FlashTimeline::report_planes(Phase phase, TimeNs start, TimeNs end) {
  if (!observer_) return;
  for (const Command* command : {current_, joined_}) {
    if (!command) continue;
    // A move reads its source pages, then programs its destinations.
    const bool source = command->op == Op::kMove && phase == Phase::kArrayRead;
    observer_->phase(Resource::kPlane, geometry_.plane_of(source ? command->src : command->ppn),
                     phase, start, end, *command);
    if (command->two_plane())
      observer_->phase(Resource::kPlane, geometry_.plane_of(source ? command->src2 : command->ppn2),
                       phase, start, end, *command);
  }
}

// Command, array read into the page registers, then `transfer_ns` of data out
// over the bus (every page, or on a synchronous shared-bus gang the member
// pages asked for). With a cache register, the page moves to it once the
// previous page has left (cache read): the array is then free for the next
// command while this page crosses the bus.
TimeNs FlashTimeline::read_out(std::uint32_t die, TimeNs ready, TimeNs transfer_ns,
                               TimeNs array_ns) {
  const std::uint32_t channel = geometry_.channel_of_die(die);
  const std::uint32_t unit = unit_of_die(die);
  const TimeNs start = std::max(ready, die_free_[unit]);
  TimeNs t = issue_command(channel, start);
  report_planes(Phase::kArrayRead, t, t + array_ns);
  t += array_ns;
  if (timing_.cache_register) t = std::max(t, register_free_[unit]);
  const TimeNs array_free = t;
  t = use_bus(channel, t, transfer_ns, Phase::kDataOut);
  stats_.die_busy_ns += t - start;
  report(Resource::kDie, die, Phase::kCommand, start, t);
  die_free_[unit] = timing_.cache_register ? array_free : t;
  register_free_[unit] = t;
  return t;
}

// Command and every page (`transfer_ns` of data) in over the bus, then one
// array program for all.
// With a cache register, the data comes in while the previous program still
// runs (cache program); the array takes it once free.
TimeNs FlashTimeline::program_in(std::uint32_t die, TimeNs ready, TimeNs transfer_ns,
                                 TimeNs array_ns) {
  const std::uint32_t channel = geometry_.channel_of_die(die);
  const std::uint32_t unit = unit_of_die(die);
  const TimeNs start = std::max(ready, register_free_[unit]);
  // Command cycles and data are one bus reservation, unless the command goes
  // over a shared control bus first.
  TimeNs t = geometry_.shared_control_bus()
                 ? use_bus(channel, issue_command(channel, start), transfer_ns, Phase::kDataIn)
                 : use_bus(channel, start, timing_.command_ns + transfer_ns, Phase::kDataIn);
  t = std::max(t, die_free_[unit]);  // (only later with a cache register)
  report_planes(Phase::kArrayProgram, t, t + array_ns);
  register_free_[unit] = timing_.cache_register ? t : t + array_ns;
  t += array_ns;
  stats_.die_busy_ns += t - start;
  report(Resource::kDie, die, Phase::kCommand, start, t);
  die_free_[unit] = t;
  return t;
}

// Command cycles, then an array operation that needs no data on the bus.
TimeNs FlashTimeline::array_only(std::uint32_t die, TimeNs ready, TimeNs array_ns,
                                 Phase array_phase) {
  const std::uint32_t channel = geometry_.channel_of_die(die);
  const std::uint32_t unit = unit_of_die(die);
  const TimeNs start = std::max(ready, die_free_[unit]);
  TimeNs t = issue_command(channel, start);
  report_planes(array_phase, t, t + array_ns);
  t += array_ns;
  stats_.die_busy_ns += t - start;
  report(Resource::kDie, die, Phase::kCommand, start, t);
  // (The die is busy, cache register or not: only reads and programs pipeline.)
  die_free_[unit] = register_free_[unit] = t;
  return t;
}

// Command, internal read into the page register, the host's part of the page
// in over the bus, then the program (a read-modify-write by copy-back). The
// host's part is one page time: on a synchronous shared-control gang one
// member page over each data path at once; on a synchronous shared-bus gang
// every member page in turn, DiskSim's rule (ssd_gang.c:336-388: a register
// read, then the whole gang page over the one bus, then one program).
TimeNs FlashTimeline::copy_back_with_data(std::uint32_t die, TimeNs ready) {
  const std::uint32_t channel = geometry_.channel_of_die(die);
  const std::uint32_t unit = unit_of_die(die);
  const TimeNs start = std::max({ready, die_free_[unit], register_free_[unit]});
  const TimeNs read_ns = read_array_ns(current_->src), program_ns = program_array_ns(current_->ppn);
  TimeNs t = issue_command(channel, start);
  report_planes(Phase::kArrayRead, t, t + read_ns);
  t = use_bus(channel, t + read_ns, page_transfer_ns_, Phase::kDataIn);
  report_planes(Phase::kArrayProgram, t, t + program_ns);
  t += program_ns;
  stats_.die_busy_ns += t - start;
  report(Resource::kDie, die, Phase::kCommand, start, t);
  die_free_[unit] = register_free_[unit] = t;
  return t;
}

// A copy-back or move reads at its source's array time and programs at its
// target's (on cells of several bits they differ by page type and SLC mode).
TimeNs FlashTimeline::unloaded_ns(const Command& command) const {
  const TimeNs transfer = page_transfer_ns_ * (command.two_plane() ? 2 : 1);
  const TimeNs cycles = timing_.command_ns;
  switch (command.op) {
    case Op::kRead:
      return cycles + read_command_array_ns(command) + read_transfer_ns(command);
    case Op::kProgram:
      return cycles + program_transfer_ns(command) + program_array_ns(command.ppn);
    case Op::kErase:
      return cycles + erase_array_ns(command.ppn);
    case Op::kCopyBack:
      return cycles + read_array_ns(command.src) + (command.host_data ? page_transfer_ns_ : 0) +
             program_array_ns(command.ppn);
    case Op::kMove:
      return 2 * cycles + read_array_ns(command.src) + 2 * transfer +
             program_array_ns(command.ppn);
  }
  return 0;
}

// (Inlined into its two callers, as before cell types: the SLC path pays
// one well-predicted branch and no call.)
[[gnu::always_inline]] inline void FlashTimeline::count(const Command& command) {
  ++stats_.commands[static_cast<std::size_t>(command.op)];
  const std::size_t two = command.two_plane() ? 1 : 0;
  stats_.two_plane_commands += two;
  count_array(command, static_cast<TimeNs>(two + 1));
  if (multi_bit_) [[unlikely]]
    return count_cells(command);
  if (command.cleaning)
    stats_.cleaning_flash_ns += unloaded_ns(command);
  else if (command.op == Op::kRead && command.read_units == 0)
    ++stats_.host_page_reads[two];
  else if (command.op == Op::kProgram && command.transfer_bytes == 0)
    ++stats_.host_page_programs[two];
  else
    count_other_host(command);
}

void FlashTimeline::count_elsewhere(const Command& command) { count(command); }

void FlashTimeline::count_array(const Command& command, TimeNs planes) {
  switch (command.op) {
    case Op::kRead:
      stats_.array_read_ns += planes * read_command_array_ns(command);
      return;
    case Op::kProgram:
      stats_.array_program_ns += planes * program_array_ns(command.ppn);
      return;
    case Op::kErase:
      stats_.array_erase_ns += planes * erase_array_ns(command.ppn);
      return;
    case Op::kCopyBack:
    case Op::kMove:
      stats_.array_read_ns += planes * read_array_ns(command.src);
      stats_.array_program_ns += planes * program_array_ns(command.ppn);
      return;
  }
}

void FlashTimeline::count_other_host(const Command& command) {
  const std::uint64_t pages = command.two_plane() ? 2 : 1;
  if (command.op == Op::kRead) {
    stats_.host_other_read_ns += unloaded_ns(command);
    stats_.host_other_read_pages += pages;
    return;
  }
  stats_.host_other_write_ns += unloaded_ns(command);
  // A summary page (ftl.summary_page) is part of the write that closes a
  // block, as in DiskSim (ssd_timing.c:360-372): its time, no access; an
  // erase (a merge) is time too.
  if (command.op != Op::kErase && !command.summary()) stats_.host_other_write_pages += pages;
}

HostFlash FlashTimeline::host_flash() const {
  // A whole-page read or program, single or two-plane, at unloaded_ns().
  const auto cost = [this](Op op, std::size_t two) {
    Command command;
    command.op = op;
    if (two) command.ppn2 = 0;  // (any page: only two_plane() is read)
    return unloaded_ns(command);
  };
  HostFlash h{stats_.host_other_read_ns, stats_.host_other_write_ns,
              stats_.host_other_read_pages, stats_.host_other_write_pages};
  for (const std::size_t two : {0, 1}) {
    const auto reads = stats_.host_page_reads[two], programs = stats_.host_page_programs[two];
    h.read_ns += static_cast<TimeNs>(reads) * cost(Op::kRead, two);
    h.write_ns += static_cast<TimeNs>(programs) * cost(Op::kProgram, two);
    h.read_pages += reads * (two + 1);
    h.write_pages += programs * (two + 1);
  }
  return h;
}

TimeNs FlashTimeline::schedule_move_read(const Command& move, TimeNs ready) {
  count(move);
  current_ = &move;
  return read_out(geometry_.die_of(move.src), ready,
                  page_transfer_ns_ * (move.two_plane() ? 2 : 1), read_array_ns(move.src));
}

TimeNs FlashTimeline::schedule_move_program(const Command& move, TimeNs ready) {
  current_ = &move;
  return program_in(geometry_.die_of(move.ppn), ready,
                    page_transfer_ns_ * (move.two_plane() ? 2 : 1), program_array_ns(move.ppn));
}

TimeNs FlashTimeline::schedule(const Command& command, TimeNs ready) {
  // Read on the source die, through the controller, program on the target.
  if (command.op == Op::kMove)
    return schedule_move_program(command, schedule_move_read(command, ready));
  count(command);
  const std::uint32_t die = geometry_.die_of(command.ppn);
  current_ = &command;
  switch (command.op) {
    case Op::kRead:
      return read_out(die, ready, read_transfer_ns(command), read_command_array_ns(command));
    case Op::kProgram:
      return program_in(die, ready, program_transfer_ns(command), program_array_ns(command.ppn));
    case Op::kErase:
      return array_only(die, ready, erase_array_ns(command.ppn), Phase::kArrayErase);
    case Op::kCopyBack:
      if (command.host_data) return copy_back_with_data(die, ready);
      return array_only(die, ready, read_array_ns(command.src) + program_array_ns(command.ppn),
                        Phase::kCopyBack);
    case Op::kMove:
      break;  // (above)
  }
  return ready;
}

void FlashTimeline::save_state(StateWriter& out) const {
  // Version 2: the shared control buses of asynchronous shared-control gangs;
  // 3: per interleaving unit (a package without interleaving), the cache
  // registers, and the serial flash time of cleaning; 4: each bus's
  // reservations (BusTimeline) rather than when it is next free; 6: the
  // host's flash accesses (5, their sums, was never released); 7: program and
  // erase suspensions; 8: the array time by kind (the flash's energy).
  out.section("TIME", 8);
  for (const BusTimeline& bus : buses_) bus.save_state(out);
  out.vector(die_free_);
  out.vector(register_free_);
  out.u64(control_buses_.size());
  for (const BusTimeline& bus : control_buses_) bus.save_state(out);
  out.array(stats_.commands);
  out.u64(stats_.two_plane_commands);
  out.i64(stats_.bus_busy_ns);
  out.i64(stats_.die_busy_ns);
  out.i64(stats_.control_busy_ns);
  out.i64(stats_.cleaning_flash_ns);
  out.array(stats_.host_page_reads);
  out.array(stats_.host_page_programs);
  out.i64(stats_.host_other_read_ns);
  out.i64(stats_.host_other_write_ns);
  out.u64(stats_.host_other_read_pages);
  out.u64(stats_.host_other_write_pages);
  out.u64(stats_.suspend.program_suspensions);  // as the array of two it was
  out.u64(stats_.suspend.erase_suspensions);
  out.i64(stats_.array_read_ns);
  out.i64(stats_.array_program_ns);
  out.i64(stats_.array_erase_ns);
  // Four-plane dies only (Geometry::multi_plane 4): other states are as before.
  if (geometry_.multi_plane == 4) out.u64(stats_.four_plane_commands);
  // Cells of several bits only, so that an SLC device's state is as before.
  if (!multi_bit_) return;
  out.array(stats_.page_type_reads);
  out.u64(stats_.slc_mode_reads);
  out.u64(stats_.slc_mode_programs);
  out.u64(stats_.wordline_programs);
}

void FlashTimeline::load_state(StateReader& in) {
  in.section("TIME", 8);
  for (BusTimeline& bus : buses_) bus.load_state(in, "a bus timeline");
  in.vector(die_free_, die_free_.size(), "the die timelines");
  in.vector(register_free_, register_free_.size(), "the cache register timelines");
  if (const std::uint64_t count = in.u64(); count != control_buses_.size())
    throw make_error("the state has {} control bus timelines; this config has {}", count,
                     control_buses_.size());
  for (BusTimeline& bus : control_buses_) bus.load_state(in, "a control bus timeline");
  in.array(stats_.commands);
  stats_.two_plane_commands = in.u64();
  stats_.bus_busy_ns = in.i64();
  stats_.die_busy_ns = in.i64();
  stats_.control_busy_ns = in.i64();
  stats_.cleaning_flash_ns = in.i64();
  in.array(stats_.host_page_reads);
  in.array(stats_.host_page_programs);
  stats_.host_other_read_ns = in.i64();
  stats_.host_other_write_ns = in.i64();
  stats_.host_other_read_pages = in.u64();
  stats_.host_other_write_pages = in.u64();
  stats_.suspend.program_suspensions = in.u64();
  stats_.suspend.erase_suspensions = in.u64();
  stats_.array_read_ns = in.i64();
  stats_.array_program_ns = in.i64();
  stats_.array_erase_ns = in.i64();
  if (geometry_.multi_plane == 4) stats_.four_plane_commands = in.u64();
  if (multi_bit_) {
    in.array(stats_.page_type_reads);
    stats_.slc_mode_reads = in.u64();
    stats_.slc_mode_programs = in.u64();
    stats_.wordline_programs = in.u64();
  }
  if (stats_.cleaning_flash_ns < 0 || stats_.host_other_read_ns < 0 ||
      stats_.host_other_write_ns < 0 || stats_.array_read_ns < 0 || stats_.array_program_ns < 0 ||
      stats_.array_erase_ns < 0)
    throw Error("a flash time in the state is negative");
}

const char* phase_name(Phase phase) {
  switch (phase) {
    case Phase::kCommandCycles:
      return "CMD";
    case Phase::kDataIn:
      return "DATA IN";
    case Phase::kDataOut:
      return "DATA OUT";
    case Phase::kCommand:
      return "COMMAND";
    case Phase::kArrayRead:
      return "READ";
    case Phase::kArrayProgram:
      return "PROGRAM";
    case Phase::kArrayErase:
      return "ERASE";
    case Phase::kCopyBack:
      return "COPY-BACK";
    case Phase::kSuspended:
      return "SUSPENDED";
  }
  return "?";
}

}  // namespace ssdlab::flash
