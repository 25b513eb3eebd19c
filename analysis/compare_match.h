// Which experiment of one side of `ssdlab compare` goes with which of the
// other: by name (the default), by order (the i-th with the i-th, for two
// runs of the same plan under different names), or by an explicit mapping
// (`--map rr4k=RR/io_size=4096`: a fio job against a uFLIP experiment).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/figures.h"

namespace ssdlab::analysis {

enum class MatchBy { kName, kOrder };

// "name" or "order"; throws ssdlab::Error naming --match otherwise.
MatchBy parse_match(std::string_view text);

struct MatchedPair {
  std::size_t a, b;   // indices into each side's experiments
  std::string label;  // the row's name: the shared name, or "A-name ~ B-name"
};

// The pairs to compare, in A's order. `maps` ("A-NAME=B-NAME", names may
// themselves hold '=': the split is the one where both names exist) pair
// those experiments first; the rest pair by `by`. Throws ssdlab::Error for a
// mapping naming an experiment that is not there (with the closest name).
std::vector<MatchedPair> match_experiments(const std::vector<ExperimentFigures>& a,
                                           const std::vector<ExperimentFigures>& b, MatchBy by,
                                           const std::vector<std::string>& maps);

}  // namespace ssdlab::analysis
