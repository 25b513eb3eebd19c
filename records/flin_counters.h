// The FLIN dispatch order's stage 1 (controller.dispatch_order = "flin";
// flash/flin.h), declared once: how often a host command was inserted ahead
// of the high-intensity part, moved forward because its flow was the
// slowest under the fairness threshold (MoveForward), or moved to where its
// queue was fairest (ReorderForFairness). The flash scheduler counts them
// (flash::FlinQueues), and the device counters report them as summary.json's
// flin_* keys through the field list below, with that order only.
#pragma once

#include <cstdint>

#include "records/field_list.h"

namespace ssdlab::records {

struct FlinCounters {
  std::uint64_t low_insertions = 0;
  std::uint64_t moved_forward = 0;
  std::uint64_t reordered = 0;
  bool operator==(const FlinCounters&) const = default;
};

template <typename V, RecordOf<FlinCounters> R>
void fields(V& v, R& s) {
  v("flin_low_insertions", s.low_insertions);
  v("flin_moved_forward", s.moved_forward);
  v("flin_reordered", s.reordered);
}

}  // namespace ssdlab::records
