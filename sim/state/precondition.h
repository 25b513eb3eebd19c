// Preconditioning: bring a simulated device to the state a
// workloads::PreconditionSpec names (workloads/state_enforcement.h) before
// measuring, functionally (no simulated time, no events), so that it takes
// seconds rather than the hours a real device needs.
#pragma once

#include <optional>

#include "sim/controller/ssd.h"
#include "common/progress.h"
#include "sim/results/summary_blocks.h"
#include "workloads/state_enforcement.h"

namespace ssdlab::sim {

// Runs it on `ssd` with randomness from `seed`; returns what it did (pages
// written by the host and the flash, threads, wall time, pages per second).
// Unless `quiet`, shows its progress on a terminal (common/progress.h):
// logical pages written of those the state writes; with an `observer`, to
// it instead (a sweep's job).
//
// On up to `threads` threads (0: one per CPU this process may use, usable_cpus()) where the FTL's
// allocation pools are independent (ftl::Ftl::parallel_pools(): the
// page-mapped FTL with greedy cleaning and no wear leveling) and nothing
// else watches the writes (no --verify, power cuts, teaching views): each
// thread writes the pages of its own pools, in the order of the sequence.
// The state is then byte for byte the one the writes leave one after
// another, whatever the number of threads.
// Nothing for none.
std::optional<StateRecord> precondition(Ssd& ssd, const workloads::PreconditionSpec& spec,
                                        std::uint64_t seed, bool quiet = true,
                                        unsigned threads = 1,
                                        const Progress::Observer& observer = {});

// The number of threads precondition() uses for `requested` (0: hardware
// concurrency); 0 if the writes go one after another through the controller.
unsigned precondition_threads(Ssd& ssd, const workloads::PreconditionSpec& spec,
                              unsigned requested);

}  // namespace ssdlab::sim
