// The window of a run of tenants in which all of them ran: from the latest
// of their first submissions to the earliest of their last completions.
// Outside it a tenant runs with fewer others or alone, so figures over a
// tenant's whole run mix contended and uncontended service (the fidelity
// review's G7: on docs/tenants.md's example the reader's mean slowdown is
// 28.1 over its run and 41.7 while both tenants run). FLIN's slowdown
// (Tavakkol et al., ISCA 2018, §3) compares a flow's response time while it
// shares the device with its response time alone: the window's figures are
// that comparison; the whole run's are kept beside them.
#pragma once

#include <optional>
#include <span>

#include "common/units.h"
#include "sim/results/output.h"
#include "sim/results/run_result.h"

namespace ssdlab::sim {

struct ContendedWindow {
  TimeNs from = 0, to = 0;  // from the run's start
};

// The window of `runs` (one per tenant, with their io_spans): nullopt if
// fewer than two of them served a read or write, or if they never all ran at
// once. A tenant that served none (trims only) does not bound it.
std::optional<ContendedWindow> contended_window(std::span<const RunResult> runs);

// The statistics (compute_stats) of the I/Os of `spans` submitted in
// [window.from, window.to): their count, mean, percentiles and IOPS over the
// window's length.
RunStats window_stats(std::span<const IoSpan> spans, ContendedWindow window);

}  // namespace ssdlab::sim
