// What a zoned device counts (ftl.type = "zoned"; docs/zns.md;
// ftl::ZonedDevice::zone_counters()), declared once: the zone commands it
// served, and those it refused by ZNS status. The zoned FTL increments them
// per command and saves them in its checkpoint in the list's order; the
// summary's "zones" block (sim/results/summary_blocks.h) holds them,
// written and read through the field lists below.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "records/field_list.h"

namespace ssdlab::records {

struct ZoneCounters {
  std::uint64_t resets = 0, finishes = 0, opens = 0, closes = 0;
  std::uint64_t appends = 0;               // zone appends served
  std::uint64_t implicit_closes = 0;       // implicitly open zones the device closed for another
  std::uint64_t finish_padding_pages = 0;  // pages programmed by finish with zone_finish = "pad"
  std::uint64_t blocks_replaced = 0;       // worn blocks a reset replaced from the spare
  // The zone random write area (ftl.zrwa_size): ZRWAs allocated, commits by
  // a write into the implicit flush range and by an explicit flush, pages
  // rewritten in a ZRWA before their commit, and pages committed that the
  // host never wrote there (written as zeros).
  std::uint64_t zrwa_allocations = 0, zrwa_implicit_flushes = 0, zrwa_explicit_flushes = 0;
  std::uint64_t zrwa_overwritten_pages = 0, zrwa_unwritten_pages = 0;
  // Commands refused, by status: every error status the device has
  // (ftl::kZoneErrors; status and code set when it is built), even at 0.
  struct Refusal {
    std::string status;  // ftl::zone_status_name
    std::uint64_t code = 0, count = 0;
    bool operator==(const Refusal&) const = default;
  };
  std::vector<Refusal> refusals;

  std::uint64_t refused() const {
    std::uint64_t sum = 0;
    for (const Refusal& r : refusals) sum += r.count;
    return sum;
  }
  bool operator==(const ZoneCounters&) const = default;
};

template <typename V, RecordOf<ZoneCounters::Refusal> R>
void fields(V& v, R& r) {
  v("status", r.status);
  v("code", r.code);
  v("count", r.count);
}

// The checkpoint's order: the counters, then each refusal's count
// (ftl/zoned_state.cpp).
template <typename V, RecordOf<ZoneCounters> R>
void fields(V& v, R& c) {
  v("resets", c.resets);
  v("finishes", c.finishes);
  v("opens", c.opens);
  v("closes", c.closes);
  v("appends", c.appends);
  v("implicit_closes", c.implicit_closes);
  v("finish_padding_pages", c.finish_padding_pages);
  v("blocks_replaced", c.blocks_replaced);
  v("zrwa_allocations", c.zrwa_allocations);
  v("zrwa_implicit_flushes", c.zrwa_implicit_flushes);
  v("zrwa_explicit_flushes", c.zrwa_explicit_flushes);
  v("zrwa_overwritten_pages", c.zrwa_overwritten_pages);
  v("zrwa_unwritten_pages", c.zrwa_unwritten_pages);
  v.derived("refused", c.refused());
  v("refusals", c.refusals);
}

}  // namespace ssdlab::records
