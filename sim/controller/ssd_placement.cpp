// The controller's side of host-guided placement's host commands
// (docs/fdp.md, "Reclaim Unit Handle Update").
#include "sim/controller/ssd_core.h"

namespace ssdlab::sim {

void SsdCore::update_reclaim_unit_handle(std::uint8_t id, TimeNs now) {
  // What a part holds of the host's writes was written before the update:
  // it goes to the reclaim units the update closes (the write buffer flushes).
  each_part(&SsdPart::before_handle_update, now);
  commands_.clear();
  ftl_->update_reclaim_unit_handle(id, commands_);
  if (commands_.empty()) return;
  // The padding that completes the closed blocks' open wordlines (and
  // their summary pages): background work, as cleaning's.
  emit(CommandSource::kBackground, nullptr);
  schedule_background(now);
}

}  // namespace ssdlab::sim
