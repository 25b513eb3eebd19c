// The host loop on a zoned device: where the device served a request (an
// append's address is the device's choice) and what it refused.
#include "sim/engine/simulator.h"

#include <fmt/format.h>

#include <iterator>

namespace ssdlab::sim {

std::uint64_t Simulator::zone_outcome(const QueuedRequest& r) {
  const Ssd::ZoneOutcome& outcome = ssd_.zone_outcome();
  if (outcome.status != ftl::ZoneStatus::kSuccess) {
    const Stream& stream = streams_[r.stream];
    const RunGroup& group = groups_[stream.spec.group];
    refusals_.push_back(Refusal{group.name, group.run, stream.spec.process, r.io, r.request.mode,
                                r.request.offset, r.request.size, outcome.status});
  }
  return outcome.offset;
}

}  // namespace ssdlab::sim

namespace ssdlab::sim {

std::string refusals_csv(const std::vector<Simulator::Refusal>& refusals) {
  std::string text = "experiment,run,process,io,mode,offset,size,status,code\n";
  for (const Simulator::Refusal& r : refusals)
    fmt::format_to(std::back_inserter(text), "{},{},{},{},{},{},{},{},0x{:03X}\n", r.experiment,
                   r.run, r.process, r.io, io_mode_letter(r.mode), r.offset, r.size,
                   ftl::zone_status_name(r.status), static_cast<unsigned>(r.status));
  return text;
}

}  // namespace ssdlab::sim

namespace ssdlab::sim {

workloads::ExperimentSpec with_device_zones(const workloads::ExperimentSpec& spec, const Ssd& ssd) {
  workloads::ExperimentSpec out = spec;
  const ZoneFront* zones = ssd.zones();
  if (!spec.zone.on() || !zones || ssd.host_log()) return out;
  if (!out.zone.zone_size) out.zone.zone_size = zones->zone_bytes();
  if (!out.zone.zone_capacity) out.zone.zone_capacity = zones->capacity_bytes();
  return out;
}

}  // namespace ssdlab::sim
