// Host reads' response times by the flash page type each waited for in the
// array (flash::FlashTimeline::read_page_class: the slowest of its pages,
// lower / middle / upper / top, or a block in SLC mode): summary.json's
// `read_latency_by_page_type` in each run of a device whose cells hold
// several bits, and `ssdlab plot`'s figure of it. The figure reviews of TLC
// and QLC drives show beside the tail: a read of an upper page senses more
// levels than a read of a lower one (docs/model.md, "Cells of several bits").
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "common/units.h"
#include "sim/results/response_histogram.h"

namespace ssdlab::sim {

// One page class's reads in a run.
struct PageTypeReadRecord {
  std::string page_type;  // "lower", "middle", "upper", "top", or "slc" (a block in SLC mode)
  std::uint64_t reads = 0;
  double mean_us = 0, p50_us = 0, p99_us = 0, max_us = 0;
  bool operator==(const PageTypeReadRecord&) const = default;
};

class PageTypeReads {
 public:
  // Classes 1 .. kClasses - 1 (0, a read of no flash page, is not counted).
  static constexpr std::size_t kClasses = 6;

  void add(std::uint8_t page_class, TimeNs response) {
    if (page_class == 0 || page_class >= kClasses) return;
    Class& c = classes_[page_class];
    c.histogram.add(response);
    c.sum_ns += static_cast<double>(response);
    if (response > c.max_ns) c.max_ns = response;
  }
  bool empty() const;
  // One record per class with reads, in class order; `names[k]` names
  // class k.
  std::vector<PageTypeReadRecord> records(const std::array<std::string, kClasses>& names) const;

 private:
  struct Class {
    ResponseHistogram histogram;
    double sum_ns = 0;
    TimeNs max_ns = 0;
  };
  std::array<Class, kClasses> classes_;
};

}  // namespace ssdlab::sim
