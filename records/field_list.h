// The shape every counter block of records/ has, and the ops its field
// list uses. A block is a plain struct of counters (std::uint64_t fields
// incremented on the part's hot path: no maps, no virtual calls) that its
// part fills; next to it, fields(v, block) names each member once under
// its summary.json key, in a fixed order, for every visitor that walks
// it: summary.json's writer and reader (sim/results/summary_json.cpp), the
// difference of two snapshots and the sum over runs
// (sim/results/device_counters.cpp), and a part's checkpoint where it
// saves its block that way (records::each_counter, walk.h: the FTL's
// section STAT, the zoned FTL's and the host log's counters).
//
//   v(key, member)             a counter (or list, or text): written, read,
//                              subtracted and summed
//   v.time_us(key, ns)         a TimeNs counter written in microseconds
//   v.thousandths(key, count)  an integer counter of thousandths of the
//                              key's unit (nanojoules of a key in µJ),
//                              written in that unit
//   v.derived(key, value)      computed from the counters: written, never read
//   v.unreported(key, member)  a counter kept in memory (diff and sum) that
//                              neither summary.json nor a checkpoint holds
//
// Keys are written in nlohmann::json's order (sorted), whatever the order
// here; the order here is the checkpoint's where a part saves its block
// through the list. A new counter added to a block and its list is
// reported, read back, subtracted and summed with no other edit.
#pragma once

#include <type_traits>

namespace ssdlab::records {

// A field list's requires-clause: `R` is the record `Block`, const or not.
template <typename R, typename Block>
concept RecordOf = std::is_same_v<std::remove_const_t<R>, Block>;

}  // namespace ssdlab::records
