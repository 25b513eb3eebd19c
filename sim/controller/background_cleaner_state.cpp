// Checkpoints of background cleaning (sim/state/checkpoint.h): the rounds a
// preemptible cleaner has taken from the FTL but not yet reserved on the
// timelines, so that a run continued from a checkpoint gives the same io.csv
// as one that never stopped.
#include <fmt/format.h>

#include "common/error.h"
#include "sim/controller/background_cleaner.h"

namespace ssdlab::sim {
namespace {

void save_command(StateWriter& out, const flash::Command& command) {
  out.u8(static_cast<std::uint8_t>(command.op));
  out.u8(command.stage);
  out.boolean(command.cleaning);
  out.boolean(command.host_data);
  out.u16(command.transfer_bytes);  // a summary page's sector
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

void BackgroundCleaner::save_state(StateWriter& out) const {
  // Version 2: the number of preemptible pools (it was the controller's).
  out.section("BGCL", 2);
  out.u64(rounds_.size());
  for (const PendingRound& round : rounds_) save_round(out, round);
}

void BackgroundCleaner::save_round(StateWriter& out, const PendingRound& round) const {
  out.u64(round.commands.size());
  for (const flash::Command& command : round.commands) save_command(out, command);
  out.u64(round.next);
  out.u8(round.stage);
  out.i64(round.started);
  out.i64(round.stage_ready);
  out.i64(round.stage_done);
  out.vector(round.blocks);
}

void BackgroundCleaner::load_state(StateReader& in) {
  in.section("BGCL", 2);
  if (const std::uint64_t saved = in.u64(); saved != rounds_.size())
    throw Error(
        fmt::format("it was saved with {} preemptible background cleaning pools, the config "
                    "gives {} (controller.background_cleaning_preempt, "
                    "ftl.clean_high_water)",
                    saved, rounds_.size()));
  for (PendingRound& round : rounds_) load_round(in, round);
}

void BackgroundCleaner::load_round(StateReader& in, PendingRound& round) {
  const std::uint64_t commands = in.count(4 * geometry_.pages(), "background cleaning commands");
  round.commands.clear();
  for (std::uint64_t i = 0; i < commands; ++i)
    round.commands.push_back(load_command(in, geometry_));
  round.next = in.u64();
  if (round.next > round.commands.size())
    throw Error("a background cleaning round is past its last command");
  round.stage = in.u8();
  round.started = in.i64();
  round.stage_ready = in.i64();
  round.stage_done = in.i64();
  const std::uint64_t blocks = in.count(geometry_.blocks(), "blocks of a cleaning round");
  round.blocks.resize(blocks);
  for (flash::BlockId& block : round.blocks) {
    block = in.u32();
    if (block >= geometry_.blocks())
      throw Error(fmt::format("a background cleaning round names block {} of {}", block,
                              geometry_.blocks()));
  }
  if (round.started < 0 || round.stage_ready < 0 || round.stage_done < 0)
    throw Error("a background cleaning round has a negative time");
}

}  // namespace ssdlab::sim
