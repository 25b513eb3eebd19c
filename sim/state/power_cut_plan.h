// `--power-cut-at SPEC` (repeatable): when a `ssdlab sim` run cuts the power.
//   N          during I/O number N (0-based over every I/O the workload
//              issues, in submission order), halfway through its service
//   1.5s, 250ms, 300us, 1000ns
//              at that simulated time from the start of the first run
//   random:K   K distinct random I/Os, each at a random instant of its
//              service (seeded by --seed)
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sim/engine/simulator.h"
#include "sim/results/summary_blocks.h"

namespace ssdlab::sim {

// Throws ssdlab::Error naming the flag and the bad value. `total_ios`: the
// I/Os the workload issues (random:K needs K <= total_ios, N < total_ios).
PowerCutPlan parse_power_cuts(const std::vector<std::string>& specs, std::uint64_t total_ios,
                              std::uint64_t seed);

// summary.json's "power_cuts" section and the printed line.
PowerCutsRecord power_cuts_record(const Simulator& simulator);

}  // namespace ssdlab::sim
