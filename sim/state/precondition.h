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
// written by the host and the flash, wall time, pages per second), nothing
// for none. Unless
// `quiet`, shows its progress on a terminal (common/progress.h): logical
// pages written of those the state writes.
std::optional<StateRecord> precondition(Ssd& ssd, const PreconditionSpec& spec, std::uint64_t seed,
                                       bool quiet = true);

}  // namespace ssdlab::sim
