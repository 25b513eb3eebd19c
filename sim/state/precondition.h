// Preconditioning: bring a fresh device to a used, steady state before
// measuring, functionally (no simulated time, no events), so that it takes
// seconds rather than the hours a real device needs.
//
//   seq[:N]    write the whole logical space sequentially, then N more
//              sequential passes (the steady state of sequential writes)
//   random[:N] seq, then N x the logical capacity of random single-page
//              overwrites (N defaults to 1, may be fractional)
//   uflip[:N]  seq, then N x the capacity in random writes of random sizes,
//              from 512 B to the flash block size at random sector offsets
//              (uFLIP §4, "random IOs of random size ... on the whole device")
//   none       nothing (overrides the state a uFLIP plan asks for)
#pragma once

#include <cstdint>
#include <functional>
#include <optional>

#include "sim/results/summary_blocks.h"
#include <string>
#include <string_view>

#include "sim/controller/ssd.h"

namespace ssdlab::sim {

struct PreconditionSpec {
  enum class Kind { kNone, kSequential, kRandom, kUflip };
  Kind kind = Kind::kNone;
  double overwrites = 0;  // capacities of random writes after the fill
  std::string text;
};

// Parses the --precondition argument; throws ssdlab::Error naming it.
PreconditionSpec parse_precondition(std::string_view text);

// The sizes the state writes are cut to: the space, the largest write (the
// flash block: uFLIP's random sizes go up to it), the page random overwrites
// use, and the sector offsets are aligned to.
struct StateGeometry {
  std::uint64_t capacity, chunk, page, sector;
};

// The writes of `spec`, in order, as write(offset, size) calls: what the
// simulator does functionally and `probe` does on a real target.
void state_writes(const PreconditionSpec& spec, const StateGeometry& geometry, std::uint64_t seed,
                  const std::function<void(std::uint64_t, std::uint64_t)>& write);

// Runs it on `ssd` with randomness from `seed`; returns what it did (pages
// written by the host and the flash, threads, wall time, pages per second).
// Unless `quiet`, shows its progress on a terminal (common/progress.h):
// logical pages written of those the state writes.
//
// On up to `threads` threads (0: one per hardware thread) where the FTL's
// allocation pools are independent (ftl::Ftl::parallel_pools(): the
// page-mapped FTL with greedy cleaning and no wear leveling) and nothing
// else watches the writes (no --verify, power cuts, teaching views): each
// thread writes the pages of its own pools, in the order of the sequence.
// The state is then byte for byte the one the writes leave one after
// another, whatever the number of threads.
// Nothing for none.
std::optional<StateRecord> precondition(Ssd& ssd, const PreconditionSpec& spec, std::uint64_t seed,
                                       bool quiet = true, unsigned threads = 1);

// The number of threads precondition() uses for `requested` (0: hardware
// concurrency); 0 if the writes go one after another through the controller.
unsigned precondition_threads(Ssd& ssd, const PreconditionSpec& spec, unsigned requested);

}  // namespace ssdlab::sim
