// uFLIP's state enforcement (Bouganim et al. §4), device-agnostic: which
// state to bring a device to before measuring (the --precondition argument or
// a plan's `state`) and the writes that bring it there. The simulator runs
// them functionally (sim/state/precondition.h), `probe` on a real target.
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
#include <string>
#include <string_view>

namespace ssdlab::workloads {

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

}  // namespace ssdlab::workloads
