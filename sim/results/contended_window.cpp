#include "sim/results/contended_window.h"

#include <algorithm>
#include <limits>
#include <vector>

namespace ssdlab::sim {

std::optional<ContendedWindow> contended_window(std::span<const RunResult> runs) {
  constexpr TimeNs kNever = std::numeric_limits<TimeNs>::max();
  ContendedWindow window{0, kNever};
  std::size_t active = 0;
  for (const RunResult& run : runs) {
    if (run.io_spans.empty()) continue;
    ++active;
    TimeNs first = kNever, last = 0;
    for (const IoSpan& io : run.io_spans) {
      first = std::min(first, io.submitted);
      last = std::max(last, io.completed);
    }
    window.from = std::max(window.from, first);
    window.to = std::min(window.to, last);
  }
  if (active < 2 || window.from >= window.to) return std::nullopt;
  return window;
}

RunStats window_stats(std::span<const IoSpan> spans, ContendedWindow window) {
  std::vector<TimeNs> responses;
  for (const IoSpan& io : spans)
    if (io.submitted >= window.from && io.submitted < window.to)
      responses.push_back(io.completed - io.submitted);
  const std::uint64_t count = responses.size();
  return compute_stats(responses, count, window.to - window.from, 0);
}

}  // namespace ssdlab::sim
