// The controller's side of host-guided placement's host commands
// (docs/fdp.md, "Reclaim Unit Handle Update").
#include "sim/controller/ssd.h"

namespace ssdlab::sim {

void Ssd::update_reclaim_unit_handle(std::uint8_t id, TimeNs now) {
  // What the write buffer holds was written before the update: it goes to
  // the reclaim units the update closes, so it is flushed first.
  if (buffer_) buffer_->flush_all(now);
  commands_.clear();
  ftl_->update_reclaim_unit_handle(id, commands_);
  if (commands_.empty()) return;
  // The padding that completes the closed blocks' open wordlines (and
  // their summary pages): background work, as cleaning's.
  emit(CommandSource::kBackground, nullptr);
  schedule(now, {flash::WorkClass::kCleaning, flash::HostWait::kNone,
                 needs_times_at_once() ? kWait : kBackground});
}

}  // namespace ssdlab::sim
