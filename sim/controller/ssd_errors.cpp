// What the controller's flash read error part (read_errors.h) asks of the
// core: read reclaim's rewrite of a block's pages.
#include "sim/controller/ssd_core.h"

namespace ssdlab::sim {

void SsdCore::rewrite(const flash::CommandList& reads, ftl::PageRuns runs, TimeNs now) {
  commands_.assign(reads.begin(), reads.end());
  ftl_->media_reallocated(reads.size());
  // All of it is background work (cleaning's class): the writes a stage
  // after the reads.
  flash::CommandList writes;
  ftl_->write_runs(runs, writes);
  ftl_->close_wordlines(writes);
  for (flash::Command command : writes) {
    command.stage = static_cast<std::uint8_t>(command.stage + 1);
    command.cleaning = true;
    commands_.push_back(command);
  }
  emit(CommandSource::kBackground, nullptr);
  schedule_background(now);
}

}  // namespace ssdlab::sim
