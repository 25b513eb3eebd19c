// What a cleaning victim was chosen from, for --trace-ftl
// (sim/views/ftl_trace.h): the sealed blocks of the victim's group (its plane,
// or its allocation pool with ftl.cleaning_scope = "pool") with the fewest
// valid pages, and the choice. A student checks greedy cleaning with it: the
// victim is the candidate with the fewest valid pages (Agrawal et al. §3.2).
//
// Only computed while a trace asks (Ftl::explain_victims): a run without
// --trace-ftl pays one pointer test per victim.
#pragma once

#include <cstdint>
#include <vector>

#include "flash/geometry.h"

namespace ssdlab::ftl {

struct VictimCandidate {
  flash::BlockId block = 0;
  std::uint32_t valid = 0;  // valid pages
};

struct VictimExplanation {
  // The candidates listed: the fewest-valid ones, fewest first.
  static constexpr std::size_t kShown = 5;
  VictimCandidate victim;
  std::uint32_t sealed = 0;             // candidates (sealed blocks) of its group
  bool plane_scope = true;              // the group is a plane (else an allocation pool)
  std::uint32_t group = 0;              // the plane or pool number
  const char* policy = "";              // ftl.victim_policy
  std::vector<VictimCandidate> fewest;  // at most kShown, fewest valid pages first
};

// Filled by the FTL while `wanted`; emptied by the trace.
struct VictimExplanations {
  bool wanted = true;
  std::vector<VictimExplanation> chosen;
};

}  // namespace ssdlab::ftl
