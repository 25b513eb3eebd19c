// The way between the host and the flash, a stage of the host loop
// (simulator.h): the host link, the firmware time and the controller's
// limits (host_link.h, host_link_config.h, controller_limits.h;
// docs/model.md "The host link and firmware time", "Controller cores and
// data path", "Energy and thermal throttling"). Without them it is off:
// the loop starts each request at once, and its flash completion is its
// completion.
//
// With them an I/O goes: its command (and a write's data) host-to-device
// over the link from its dispatch, where it already holds its device slot;
// a firmware core for its kind's time; the firmware time; a write's data
// across the data path and the thermal throttle; Ssd::start; the flash; a
// read's data across them; its completion (and a read's data)
// device-to-host over the link; then it completes for the host. The loop
// keeps each I/O as one event at each stage of its way (Stage), so that a
// power cut treats one waiting on the link, a core or the data path like
// any in flight: resubmitted after the mount. The cores are asked at each
// command's link arrival, which never decreases (the link is first come,
// first served), and the data path at each event's time: each in the order
// I/Os reach it.
#pragma once

#include <cstdint>
#include <optional>

#include "common/host_io.h"
#include "common/units.h"
#include "sim/controller/host_link.h"
#include "sim/controller/ssd.h"

namespace ssdlab::sim {

class HostPath {
 public:
  // Where an I/O the device holds is: a write's data reaching the data path
  // (kDataIn), its command reaching the flash (kToFlash: Ssd::start then),
  // the device done with it (kDevice: a read's data then crosses the data
  // path), a read's data across it (kDataOut: its completion, and a read's
  // data, then cross the link to the host), and done (kAtHost). With the
  // path off, only kDevice, done.
  enum class Stage : std::uint8_t { kDevice, kToFlash, kAtHost, kDataIn, kDataOut };
  struct Step {
    TimeNs at;
    Stage stage;
  };

  // The path of `ssd`'s config and its controller limits (Ssd::limits()).
  explicit HostPath(Ssd& ssd);

  // Whether I/Os take stages at all.
  bool on() const { return on_; }
  // `io`, dispatched at `now`: its next step; none if it reaches the flash
  // now (Ssd::start).
  std::optional<Step> send(const HostIo& io, TimeNs now);
  // An I/O, `io`, at `stage` (not kToFlash) at `now`: its next step; none if
  // it completes for the host now. `refused`: a zoned device refused it (no
  // data comes back).
  std::optional<Step> after(Stage stage, const HostIo& io, bool refused, TimeNs now);

  // The controller limits' accounting of time (ControllerLimits::count_time_to).
  void count_time_to(TimeNs now) {
    if (limits_) limits_->count_time_to(now);
  }
  // The power is cut: what was on the link is lost with the rest.
  void power_lost() {
    if (link_) link_->reset();
  }

 private:
  std::optional<Step> to_host(IoMode mode, std::uint32_t size, TimeNs now);

  std::optional<HostLink> link_;  // host.link (none: the host reaches the device at no cost)
  TimeNs firmware_ns_;            // host.firmware_us
  ControllerLimits* limits_;      // the Ssd's cores and data path, if any
  bool on_;
};

}  // namespace ssdlab::sim
