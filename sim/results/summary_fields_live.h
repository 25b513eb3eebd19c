// summary.json's fields of a live device's run (sim/live/; LiveRecord:
// summary_fields.h says how a fields() list is read).
#pragma once

#include "sim/results/summary.h"

namespace ssdlab::sim {

template <typename V, typename R>
void fields(V& v, R& l) requires std::is_same_v<std::remove_const_t<R>, LiveRecord> {
  v("server", l.server);
  v("data", l.data);
  v("wall_seconds", l.wall_seconds);
  v("connections", l.connections);
  v("requests", l.requests);
  v("flushes", l.flushes);
  v("failed_requests", l.failed_requests);
  v("reads_after_end_of_life", l.reads_after_end_of_life);
  v("failure", l.failure);
  v("late_replies", l.late_replies);
  v("late_threshold_us", l.late_threshold_us);
  v("mean_lag_us", l.mean_lag_us);
  v("max_lag_us", l.max_lag_us);
}

}  // namespace ssdlab::sim
