// The host loop on a zoned device: where the device served a request (an
// append's address is the device's choice) and what it refused.
#include "sim/engine/simulator.h"

namespace ssdlab::sim {

std::uint64_t Simulator::zone_outcome(const QueuedRequest& r) {
  const Ssd::ZoneOutcome& outcome = ssd_.zone_outcome();
  if (outcome.status != ftl::ZoneStatus::kSuccess && refusal_log_) {
    const Stream& stream = streams_[r.stream];
    const RunGroup& group = groups_[stream.spec.group];
    refusal_log_->row(group.name, group.run, stream.spec.process, r.io, r.request.mode,
                      r.request.offset, r.request.size, ftl::zone_status_name(outcome.status),
                      static_cast<unsigned>(outcome.status));
  }
  return outcome.offset;
}

workloads::ExperimentSpec with_device_zones(const workloads::ExperimentSpec& spec, const Ssd& ssd) {
  workloads::ExperimentSpec out = spec;
  const ZoneFront* zones = ssd.zones();
  if (!spec.zone.on() || !zones || ssd.host_log()) return out;
  if (!out.zone.zone_size) out.zone.zone_size = zones->zone_bytes();
  if (!out.zone.zone_capacity) out.zone.zone_capacity = zones->capacity_bytes();
  return out;
}

}  // namespace ssdlab::sim
