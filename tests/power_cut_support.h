// Shared by the power-cut tests: a run with random cuts, summed over its cuts.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "sim/controller/power_cut.h"
#include "sim/state/power_cut_plan.h"
#include "sim/engine/simulator.h"
#include "sim/controller/ssd.h"
#include "workloads/plan.h"

namespace ssdlab::sim::testing_power {

struct CutTotals {
  std::uint64_t cuts = 0, recovered = 0, buffered_lost = 0, torn = 0, erases_undone = 0;
  std::uint64_t in_flight = 0, checked = 0, mount_commands = 0;
  std::uint64_t lost = 0;  // acknowledged writes lost and trimmed pages back
  TimeNs hold_up = 0;
};

// The cuts `simulator` made, summed.
inline CutTotals totals_of(const Simulator& simulator) {
  CutTotals totals;
  for (const PowerCutReport& cut : simulator.power_cuts()) {
    ++totals.cuts;
    totals.recovered += cut.recovered();
    totals.buffered_lost += cut.buffered_writes_lost;
    totals.torn += cut.torn_pages;
    totals.erases_undone += cut.erases_undone;
    totals.in_flight += cut.writes_in_flight;
    totals.checked += cut.pages_checked;
    totals.mount_commands += cut.mount_commands;
    totals.hold_up += cut.hold_up_ns;
    totals.lost += cut.lost_writes + cut.resurrected_pages;
  }
  return totals;
}

// Runs the inline `workload` on `ssd` with `cuts` random power cuts seeded by
// `seed`; a lost acknowledged write throws. Every planned cut must be reached.
inline CutTotals run_with_cuts(Ssd& ssd, const std::string& workload, std::uint64_t cuts,
                               std::uint64_t seed) {
  Simulator simulator(ssd, nullptr);
  const auto spec = workloads::parse_inline(workload).experiments.front();
  simulator.plan_power_cuts(
      parse_power_cuts({"random:" + std::to_string(cuts)}, spec.count * spec.processes, seed));
  simulator.run(spec, 0, seed);
  EXPECT_EQ(simulator.power_cuts_not_reached(), 0u);
  return totals_of(simulator);
}

}  // namespace ssdlab::sim::testing_power
