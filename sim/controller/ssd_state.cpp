// Checkpoints of the controller (sim/state/checkpoint.h): the FTL and flash
// timelines save themselves; the controller adds its clocks and counters, the
// write buffer's contents and any background cleaning round still under way,
// so that a run continued from a checkpoint gives the same io.csv as one that
// never stopped.
#include <fmt/format.h>

#include <stdexcept>

#include "sim/controller/ssd.h"

namespace ssdlab::sim {
namespace {

void save_command(StateWriter& out, const flash::Command& command) {
  out.u8(static_cast<std::uint8_t>(command.op));
  out.u8(command.stage);
  out.boolean(command.cleaning);
  out.boolean(command.host_data);
  out.u16(command.transfer_bytes);  // a summary page's sector (SSDC 4)
  for (const std::uint32_t value :
       {command.ppn, command.ppn2, command.src, command.lpn, command.lpn2})
    out.u32(value);
}

flash::Command load_command(StateReader& in, const flash::Geometry& geometry) {
  flash::Command command;
  const std::uint8_t op = in.u8();
  if (op > static_cast<std::uint8_t>(flash::Op::kMove))
    throw Error(fmt::format("a background cleaning command has an unknown operation {}", op));
  command.op = static_cast<flash::Op>(op);
  command.stage = in.u8();
  command.cleaning = in.boolean();
  command.host_data = in.boolean();
  command.transfer_bytes = in.u16();
  for (std::uint32_t* value :
       {&command.ppn, &command.ppn2, &command.src, &command.lpn, &command.lpn2})
    *value = in.u32();
  const std::uint64_t pages = geometry.pages();
  for (const flash::Ppn ppn : {command.ppn, command.ppn2, command.src})
    if (ppn != flash::kNoPage && ppn >= pages)
      throw Error(fmt::format("a background cleaning command names page {} of {}", ppn, pages));
  return command;
}

}  // namespace

void Ssd::save_state(StateWriter& out) const {
  // A run settles the scheduler at its end (Simulator::run), so a checkpoint
  // holds no queued command: the busy-until times carry everything queued.
  if (!scheduler_.idle())
    throw std::logic_error("Ssd::save_state() with flash commands queued: settle() first");
  ftl_->save_state(out);
  timeline_.save_state(out);
  // Version 3: host bytes written (byte-based write amplification); 4: a
  // saved command's transfer bytes (a summary page's sector).
  out.section("SSDC", 4);
  out.i64(cleaning_ns_);
  out.i64(background_cleaning_ns_);
  out.u64(host_bytes_written_);
  out.i64(cleaning_done_);
  out.i64(buffer_admit_);
  out.u64(requests_);
  out.boolean(buffer_.has_value());
  if (buffer_) buffer_->save_state(out);
  out.u64(rounds_.size());
  for (const PendingRound& round : rounds_) {
    out.u64(round.commands.size());
    for (const flash::Command& command : round.commands) save_command(out, command);
    out.u64(round.next);
    out.u8(round.stage);
    out.i64(round.started);
    out.i64(round.stage_ready);
    out.i64(round.stage_done);
    out.vector(round.blocks);
  }
}

void Ssd::load_state(StateReader& in) {
  ftl_->load_state(in);
  timeline_.load_state(in);
  in.section("SSDC", 4);
  cleaning_ns_ = in.i64();
  background_cleaning_ns_ = in.i64();
  host_bytes_written_ = in.u64();
  cleaning_done_ = in.i64();
  buffer_admit_ = in.i64();
  requests_ = in.u64();
  if (in.boolean() != buffer_.has_value())
    throw Error(buffer_ ? "it was saved without a write buffer, the config has one"
                        : "it was saved with a write buffer, the config has none");
  if (buffer_) buffer_->load_state(in);
  if (const std::uint64_t rounds = in.u64(); rounds != rounds_.size())
    throw Error(
        fmt::format("it was saved with {} preemptible background cleaning pools, the config "
                    "gives {} (controller.background_cleaning_preempt, "
                    "ftl.clean_high_water)",
                    rounds, rounds_.size()));
  const flash::Geometry& geometry = config_.geometry;
  for (PendingRound& round : rounds_) {
    const std::uint64_t commands = in.count(4 * geometry.pages(), "background cleaning commands");
    round.commands.clear();
    for (std::uint64_t i = 0; i < commands; ++i)
      round.commands.push_back(load_command(in, geometry));
    round.next = in.u64();
    if (round.next > round.commands.size())
      throw Error("a background cleaning round is past its last command");
    round.stage = in.u8();
    round.started = in.i64();
    round.stage_ready = in.i64();
    round.stage_done = in.i64();
    const std::uint64_t blocks = in.count(geometry.blocks(), "blocks of a cleaning round");
    round.blocks.resize(blocks);
    for (flash::BlockId& block : round.blocks) {
      block = in.u32();
      if (block >= geometry.blocks())
        throw Error(fmt::format("a background cleaning round names block {} of {}", block,
                                geometry.blocks()));
    }
    if (round.started < 0 || round.stage_ready < 0 || round.stage_done < 0)
      throw Error("a background cleaning round has a negative time");
  }
  if (cleaning_ns_ < 0 || background_cleaning_ns_ < 0 || cleaning_done_ < 0 || buffer_admit_ < 0)
    throw Error("a controller clock or counter is negative");
  // A file can pass its checksum (recomputed by whoever altered it) and still
  // hold a state no FTL reaches: whatever the flags, find out before any
  // request, rather than crash on it later.
  ftl_->check_invariants();
  if (verifier_) verifier_->adopt(ftl_->nand());
}

}  // namespace ssdlab::sim
