// A registered device part's counters (sim/controller/device_parts.h), as
// the summary holds them: named counts, under summary.json's "parts"
// object by the part's name ({"parts": {"tally": {"requests": 12}}}), so
// that a part added to the registry reports with no edit of the summary's
// code. A part declares its counter block once, as the built-in parts do
// (a struct and its field list, field_list.h), and hands it over through
// part_record(); the difference of two snapshots and the sum over runs go
// count by count.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <type_traits>

#include "records/walk.h"

namespace ssdlab::records {

// Counts by key (summary.json's order).
using PartRecord = std::map<std::string, std::uint64_t>;

// A counter block's integer counters (its field list's v(...), time_us in
// nanoseconds as held, thousandths as held), by key.
template <typename Block>
PartRecord part_record(const Block& block) {
  PartRecord record;
  each_counter(block, [&record](const char* key, const auto& value) {
    if constexpr (std::is_integral_v<std::remove_cvref_t<decltype(value)>>)
      record[key] = static_cast<std::uint64_t>(value);
  });
  return record;
}

}  // namespace ssdlab::records
