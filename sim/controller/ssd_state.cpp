// Checkpoints of the controller (sim/state/checkpoint.h): the FTL and flash
// timelines save themselves; the controller adds its clocks and counters,
// and each part its own section (the write buffer's contents, background
// cleaning rounds still under way), so that a run continued from a
// checkpoint gives the same io.csv as one that never stopped.
#include <fmt/format.h>

#include <stdexcept>

#include "common/error.h"
#include "sim/controller/ssd.h"

namespace ssdlab::sim {

void SsdCore::save_state(StateWriter& out) const {
  // A run settles the scheduler at its end (Simulator::run), so a checkpoint
  // holds no queued command: the busy-until times carry everything queued.
  if (!scheduler_.idle())
    throw std::logic_error("Ssd::save_state() with flash commands queued: settle() first");
  ftl_->save_state(out);
  timeline_.save_state(out);
  // Version 3: host bytes written (byte-based write amplification); 4: a
  // saved command's transfer bytes (a summary page's sector); 5: the parts'
  // state in sections of their own (WBFR, BGCL).
  out.section("SSDC", 5);
  out.i64(cleaning_.total_ns);
  out.i64(cleaning_.background_ns);
  out.u64(host_bytes_written_);
  out.i64(cleaning_.last_end);
  out.u64(requests_);
}

void SsdCore::load_state(StateReader& in) {
  ftl_->load_state(in);
  timeline_.load_state(in);
  in.section("SSDC", 5);
  cleaning_.total_ns = in.i64();
  cleaning_.background_ns = in.i64();
  host_bytes_written_ = in.u64();
  cleaning_.last_end = in.i64();
  requests_ = in.u64();
  if (cleaning_.total_ns < 0 || cleaning_.background_ns < 0 || cleaning_.last_end < 0)
    throw Error("a controller clock or counter is negative");
}

void Ssd::save_state(StateWriter& out) const {
  core_.save_state(out);
  // (The rest of the controller's section: which parts it has.)
  out.boolean(buffer_ != nullptr);
  out.u64(cleaner_ ? cleaner_->preemptible_pools() : 0);
  if (buffer_) buffer_->save_state(out);
  if (cleaner_ && cleaner_->preemptible()) cleaner_->save_state(out);
  if (zoned_) zoned_->save_state(out);
  // Its own section, after the others, only on a device with the part: a
  // checkpoint without it (older, or saved without the keys) loads, and
  // one with it loads into a device without (ControllerLimits::load_state).
  if (limits_) limits_->save_state(out);
  if (const ReadErrors* errors = core_.read_errors()) errors->save_state(out);
}

void Ssd::load_state(StateReader& in) {
  core_.load_state(in);
  if (in.boolean() != (buffer_ != nullptr))
    throw Error(buffer_ ? "it was saved without a write buffer, the config has one"
                        : "it was saved with a write buffer, the config has none");
  const std::uint64_t pools = cleaner_ ? cleaner_->preemptible_pools() : 0;
  if (const std::uint64_t saved = in.u64(); saved != pools)
    throw Error(
        fmt::format("it was saved with {} preemptible background cleaning pools, the config "
                    "gives {} (controller.background_cleaning_preempt, "
                    "ftl.clean_high_water)",
                    saved, pools));
  if (buffer_) buffer_->load_state(in);
  if (pools) cleaner_->load_state(in);
  if (zoned_) zoned_->load_state(in);
  const DeviceConfig& config = core_.config();
  if (in.at_section(ControllerLimits::kSection)) {
    if (limits_)
      limits_->load_state(in);
    else
      ControllerLimits(ControllerConfig{}, config.power, core_.timeline())
          .load_state(in);  // dropped
  }
  // The read error part's blocks: saved without it, the data on flash is
  // as old as the config's age (ReadErrors::adopt_unstamped).
  ReadErrors* errors = core_.read_errors();
  if (errors) errors->adopt_unstamped();
  if (in.at_section(ReadErrors::kSection)) {
    if (errors)
      errors->load_state(in);
    else
      ReadErrors(config.errors, core_.ftl().nand(), 1).load_state(in);  // read and dropped
  }
  // A file can pass its checksum (recomputed by whoever altered it) and still
  // hold a state no FTL reaches: whatever the flags, find out before any
  // request, rather than crash on it later.
  core_.ftl().check_invariants();
  if (VerifierCheck* verifier = core_.observers().verifier()) verifier->adopt(core_.ftl().nand());
}

}  // namespace ssdlab::sim
