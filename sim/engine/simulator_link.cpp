// The host loop's side of the host link, the firmware time and the
// controller's limits (host_link.h, host_link_config.h, controller_limits.h;
// docs/model.md "The host link and firmware time", "Controller cores and
// data path", "Energy and thermal throttling"). Without them none of this
// runs: Simulator::dispatch starts each request at once, and its flash
// completion is its completion.
//
// With them an I/O goes: its command (and a write's data) host-to-device
// over the link from its dispatch, where it already holds its device slot;
// a firmware core for its kind's time; the firmware time; a write's data
// across the data path and the thermal throttle; Ssd::start; the flash; a
// read's data across them; its completion (and a read's data)
// device-to-host over the link; then it completes for the host. Each stage
// is the I/O's Completion event (Stage), so that a power cut treats one
// waiting on the link, a core or the data path like any in flight:
// resubmitted after the mount. The cores are asked at each command's link
// arrival, which never decreases (the link is first come, first served),
// and the data path at each event's time: each in the order I/Os reach it.
#include "sim/engine/simulator.h"

namespace ssdlab::sim {

Simulator::Simulator(Ssd& ssd, IoLog* log)
    : ssd_(ssd),
      recorder_(log),
      host_queue_(ssd.config().controller),
      firmware_ns_(ssd.config().controller.firmware_ns),
      limits_(ssd.limits()) {
  if (ssd.config().controller.link.on()) link_.emplace(ssd.config().controller.link);
  on_the_way_ = link_ || firmware_ns_ > 0 || limits_;
}

bool Simulator::send_command(const QueuedRequest& r) {
  const HostIo& io = r.request;
  TimeNs at = now_;
  const bool data_in = carries_data_in(io.mode);
  if (link_) at = link_->to_device(now_, data_in ? io.size : 0);
  if (limits_) at = limits_->serve(at, io.mode);
  at += firmware_ns_;
  const bool to_data_path = data_in && limits_ && limits_->moves_data();
  if (at == now_ && !to_data_path) return false;
  ++outstanding_;  // the device holds it from now (its slot is taken)
  queue_.push(at, Completion{r.stream, io.size, r.io, io.offset, r.arrived, io.mode,
                             to_data_path ? Stage::kDataIn : Stage::kToFlash, io.flow, io.placement,
                             r.resubmitted});
  return true;
}

bool Simulator::on_the_way(const Completion& event) {
  switch (event.stage) {
    case Stage::kToFlash: {
      --outstanding_;  // start() counts it again
      HostIo io{event.offset, event.size, event.mode};
      io.flow = event.flow;
      io.placement = event.placement;
      start(QueuedRequest{event.stream, event.io, event.submitted, io, event.resubmitted,
                          streams_[event.stream].spec.queue});
      return true;
    }
    case Stage::kDataIn: {  // a write's data into the controller's DRAM
      Completion next = event;
      next.stage = Stage::kToFlash;
      queue_.push(limits_->move(now_, event.size), next);
      return true;
    }
    case Stage::kDevice: {
      if (event.mode != IoMode::kRead || event.refused || !limits_ || !limits_->moves_data())
        return to_host(event);
      Completion out = event;  // a read's data out of the controller's DRAM
      out.stage = Stage::kDataOut;
      queue_.push(limits_->move(now_, event.size), out);
      return true;
    }
    case Stage::kDataOut:
      return to_host(event);
    case Stage::kAtHost:
      return false;
  }
  return false;
}

bool Simulator::to_host(const Completion& event) {
  if (!link_) return false;
  Completion sent = event;
  sent.stage = Stage::kAtHost;
  queue_.push(link_->to_host(now_, event.mode == IoMode::kRead ? event.size : 0), sent);
  return true;
}

}  // namespace ssdlab::sim
