// The host loop's side of the host link and firmware time (host_link.h,
// host_link_config.h; docs/model.md "The host link and firmware time").
// Without them none of this runs: Simulator::dispatch starts each request at
// once, and its flash completion is its completion.
//
// With them an I/O goes: its command (and a write's data) host-to-device
// over the link from its dispatch, where it already holds its device slot;
// the firmware time; Ssd::start; the flash; its completion (and a read's
// data) device-to-host over the link; then it completes for the host. Each
// stage is the I/O's Completion event (Stage), so that a power cut treats
// one waiting on the link like any in flight: resubmitted after the mount.
#include "sim/engine/simulator.h"

namespace ssdlab::sim {

Simulator::Simulator(Ssd& ssd, IoLog* log)
    : ssd_(ssd),
      log_(log),
      host_queue_(ssd.config().controller),
      firmware_ns_(ssd.config().controller.firmware_ns) {
  if (ssd.config().controller.link.on()) link_.emplace(ssd.config().controller.link);
  on_the_way_ = link_ || firmware_ns_ > 0;
}

bool Simulator::send_command(const QueuedRequest& r) {
  const HostIo& io = r.request;
  TimeNs at = now_;
  if (link_) at = link_->to_device(now_, carries_data_in(io.mode) ? io.size : 0);
  at += firmware_ns_;
  if (at == now_) return false;
  ++outstanding_;  // the device holds it from now (its slot is taken)
  queue_.push(at, Completion{r.stream, io.size, r.io, io.offset, r.arrived, io.mode,
                             Stage::kToFlash, io.flow, r.resubmitted});
  return true;
}

bool Simulator::on_the_way(const Completion& event) {
  switch (event.stage) {
    case Stage::kToFlash: {
      --outstanding_;  // start() counts it again
      HostIo io{event.offset, event.size, event.mode};
      io.flow = event.flow;
      // (Identifiers come from the stream: no source carries its own.)
      io.placement = streams_[event.stream].spec.placement;
      start(QueuedRequest{event.stream, event.io, event.submitted, io, event.resubmitted,
                          streams_[event.stream].spec.queue});
      return true;
    }
    case Stage::kDevice: {
      if (!link_) return false;
      Completion sent = event;
      sent.stage = Stage::kAtHost;
      queue_.push(link_->to_host(now_, event.mode == IoMode::kRead ? event.size : 0), sent);
      return true;
    }
    case Stage::kAtHost:
      return false;
  }
  return false;
}

}  // namespace ssdlab::sim
