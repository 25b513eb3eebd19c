// The host loop running one run of a plan's experiment: its uFLIP processes
// as streams of one group.
#include <memory>
#include <vector>

#include "sim/engine/plan_process.h"
#include "sim/engine/plan_zones.h"
#include "sim/engine/simulator.h"

namespace ssdlab::sim {

RunResult Simulator::run(const workloads::ExperimentSpec& spec, std::uint32_t run,
                         std::uint64_t seed) {
  if (spec.run_pause_ns > 0) {  // uFLIP §4.3: let earlier work settle
    const TimeNs end = later(now_, spec.run_pause_ns, "run_pause_us");
    idle(now_, end);
    now_ = end;
  }
  std::vector<std::unique_ptr<PlanProcess>> processes;
  std::vector<HostStream> streams;
  // Its submission queue: `queue`, 1-based (checked by the caller); 0: the first.
  HostStream place;
  place.queue = static_cast<std::uint16_t>(spec.queue ? spec.queue - 1 : 0);
  add_plan_streams(with_device_zones(spec, ssd_), run, seed, 0, ssd_.logical_bytes(), place,
                   processes, streams);
  const RunGroup group{spec.name, run, spec.count * spec.processes, spec.io_ignore,
                       spec.io_ignore_auto};
  return std::move(this->run(streams, std::span(&group, 1)).front());
}

}  // namespace ssdlab::sim
