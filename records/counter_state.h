// A counter block in a checkpoint (common/state_io.h) through its field list
// (records/walk.h: each_counter), so that a part saves and loads its
// counters without a second list of them: every counter as a u64, in the
// list's order. Every counter is a std::uint64_t or a TimeNs.
#pragma once

#include <cstdint>
#include <type_traits>

#include "common/error.h"
#include "common/state_io.h"
#include "records/walk.h"

namespace ssdlab::records {

template <typename Record>
void save_counters(StateWriter& out, const Record& record) {
  each_counter(record, [&out](const char*, const auto& value) {
    out.u64(static_cast<std::uint64_t>(value));
  });
}

// `what` names the part in the error a corrupt counter gives ("the
// controller's").
template <typename Record>
void load_counters(StateReader& in, Record& record, const char* what) {
  each_counter(record, [&in, what](const char* key, auto& value) {
    const std::uint64_t saved = in.u64();
    if (saved > (std::uint64_t{1} << 62))
      throw make_error("corrupt: {} {} is {}", what, key, saved);
    value = static_cast<std::decay_t<decltype(value)>>(saved);
  });
}

}  // namespace ssdlab::records
