#include "sim/engine/host_path.h"

namespace ssdlab::sim {

HostPath::HostPath(Ssd& ssd)
    : firmware_ns_(ssd.config().controller.firmware_ns), limits_(ssd.limits()) {
  if (ssd.config().controller.link.on()) link_.emplace(ssd.config().controller.link);
  on_ = link_ || firmware_ns_ > 0 || limits_;
}

std::optional<HostPath::Step> HostPath::send(const HostIo& io, TimeNs now) {
  TimeNs at = now;
  const bool data_in = carries_data_in(io.mode);
  if (link_) at = link_->to_device(now, data_in ? io.size : 0);
  if (limits_) at = limits_->serve(at, io.mode);
  at += firmware_ns_;
  const bool to_data_path = data_in && limits_ && limits_->moves_data();
  if (at == now && !to_data_path) return std::nullopt;
  return Step{at, to_data_path ? Stage::kDataIn : Stage::kToFlash};
}

std::optional<HostPath::Step> HostPath::after(Stage stage, const HostIo& io, bool refused,
                                              TimeNs now) {
  const IoMode mode = io.mode;
  const std::uint32_t size = io.size;
  switch (stage) {
    case Stage::kDataIn:  // a write's data into the controller's DRAM
      return Step{limits_->move(now, size), Stage::kToFlash};
    case Stage::kDevice:
      if (mode != IoMode::kRead || refused || !limits_ || !limits_->moves_data())
        return to_host(mode, size, now);
      // A read's data out of the controller's DRAM.
      return Step{limits_->move(now, size), Stage::kDataOut};
    case Stage::kDataOut:
      return to_host(mode, size, now);
    case Stage::kToFlash:  // (the loop's: Ssd::start)
    case Stage::kAtHost:
      break;
  }
  return std::nullopt;
}

std::optional<HostPath::Step> HostPath::to_host(IoMode mode, std::uint32_t size, TimeNs now) {
  if (!link_) return std::nullopt;
  return Step{link_->to_host(now, mode == IoMode::kRead ? size : 0), Stage::kAtHost};
}

}  // namespace ssdlab::sim
