#include "sim/controller/power_safe.h"

#include <algorithm>

#include "common/error.h"

namespace ssdlab::sim {

flash::NandArray& PowerSafeScheduling::recoverable_flash(ftl::Ftl& ftl) {
  if (!ftl.flash_for_power_cut())
    throw make_error("FTL '{}' cannot recover from a power cut", ftl.name());
  return *ftl.flash_for_power_cut();
}

PowerSafeScheduling::PowerSafeScheduling(const flash::Geometry& geometry,
                                         std::uint32_t pages_per_lpn, ftl::Ftl& ftl,
                                         flash::FlashTimeline& timeline,
                                         PairedPages paired)
    : ftl_(ftl),
      timeline_(timeline),
      recorder_(geometry, ftl.logical_pages(), pages_per_lpn, paired) {
  recoverable_flash(ftl).record_sequence_numbers();
}

std::uint64_t PowerSafeScheduling::record(ftl::PageRuns ranges,
                                          const flash::CommandList& commands,
                                          Acknowledge acknowledge) {
  return recorder_.apply(ranges, commands, ftl_.flash_for_power_cut()->take_erased_images(),
                         acknowledge);
}

void PowerSafeScheduling::emitted(const EmittedCommands& list) {
  const bool writes =
      list.source == CommandSource::kHostWrite || list.source == CommandSource::kFunctional;
  record(writes ? list.ranges : ftl::PageRuns{}, list.commands, list.acknowledge);
}

TimeNs PowerSafeScheduling::schedule(const flash::CommandList& commands, TimeNs now,
                                     CleaningClock& cleaning, CleaningStart start,
                                     const std::vector<std::uint32_t>* carriers) {
  ends_.clear();
  TimeNs stage_ready = now, list_done = now, done[2] = {now, now};
  bool cleaned = false;
  int stage = -1;
  for (std::uint32_t i = 0; i < commands.size(); ++i) {
    const flash::Command& command = commands[i];
    if (command.stage != stage) {  // a new stage waits for everything before it
      stage_ready = list_done;
      stage = command.stage;
    }
    const TimeNs end = reserve_flash(command, stage_ready);
    ends_.push_back(end);
    list_done = std::max(list_done, end);
    done[command.cleaning ? 1 : 0] = std::max(done[command.cleaning ? 1 : 0], end);
    cleaned = cleaned || command.cleaning;
  }
  // Each command of the list recorded ends with the flash command that
  // carries it: itself, or with map units its page's (all units at once).
  const std::size_t recorded = carriers ? carriers->size() : commands.size();
  for (std::uint32_t i = 0; i < recorded; ++i)
    recorder_.completes(recorder_.batch_id(i), ends_[carriers ? (*carriers)[i] : i]);
  if (cleaned) {
    cleaning.last_end = done[1];
    cleaning.count(now, done[1], start);
  }
  return done[0];
}

TimeNs PowerSafeScheduling::reserve_flash(const flash::Command& command, TimeNs ready) {
  if (command.op == flash::Op::kErase) ready = std::max(ready, programs_done_);
  const TimeNs end = timeline_.schedule(command, ready);
  if (command.op != flash::Op::kRead && command.op != flash::Op::kErase)
    programs_done_ = std::max(programs_done_, end);
  return end;
}

}  // namespace ssdlab::sim
