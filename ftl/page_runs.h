// Logical pages gathered from several host writes (a write buffer's flush, a
// batch of preconditioning writes) as the runs one Ftl::write_runs() call
// takes: sorted, each page once, consecutive pages joined. (A call may
// also take several such lists one after another: a write buffer's flush
// with placement handles, sim/controller/write_buffer_front.h.)
#pragma once

#include <algorithm>
#include <vector>

#include "ftl/ftl.h"

namespace ssdlab::ftl {

// Replaces `runs` with the runs of `lpns` (which it sorts and deduplicates).
inline void page_runs(std::vector<Lpn>& lpns, std::vector<PageRange>& runs) {
  std::sort(lpns.begin(), lpns.end());
  lpns.erase(std::unique(lpns.begin(), lpns.end()), lpns.end());
  runs.clear();
  for (std::size_t i = 0; i < lpns.size();) {
    std::size_t j = i + 1;
    while (j < lpns.size() && lpns[j] == lpns[j - 1] + 1) ++j;
    runs.push_back(PageRange{lpns[i], static_cast<std::uint32_t>(j - i), false, false});
    i = j;
  }
}

}  // namespace ssdlab::ftl
