// Walks over a record's counters through its field list (field_list.h),
// with no list of the members but the record's own: each counter alone (a
// checkpoint's order), and two records of one type member by member (what
// a difference of two snapshots and a sum over runs,
// sim/results/device_counters.cpp, or over an FTL's pools,
// ftl::add_counters, are made of).
#pragma once

#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace ssdlab::records {
namespace detail {

template <typename Visit>
class EachCounter {
 public:
  explicit EachCounter(Visit& visit) : visit_(visit) {}
  template <typename T>
  void operator()(const char* key, T& value) {
    visit_(key, value);
  }
  template <typename T>
  void time_us(const char* key, T& ns) { visit_(key, ns); }
  template <typename T>
  void thousandths(const char* key, T& value) {
    visit_(key, value);
  }
  template <typename T>
  void unreported(const char*, T&) {}
  template <typename T>
  void derived(const char*, const T&) {}

 private:
  Visit& visit_;
};

// The members of a record in the order of its field list, as pointers; a
// group's std::optional itself, then its members if it holds a record.
class CollectMembers {
 public:
  template <typename T>
  void operator()(const char*, const T& value) {
    members.push_back(&value);
  }
  template <typename T>
  void time_us(const char* key, const T& ns) { (*this)(key, ns); }
  template <typename T>
  void thousandths(const char* key, const T& value) {
    (*this)(key, value);
  }
  template <typename T>
  void unreported(const char* key, const T& value) {
    (*this)(key, value);
  }
  template <typename T>
  void nonzero(const char* key, const T& value) {
    (*this)(key, value);
  }
  template <typename T>
  void derived(const char*, const T&) {}
  template <typename T>
  void group(const char*, const std::optional<T>& record) {
    members.push_back(&record);
    if (record) fields(*this, *record);
  }

  std::vector<const void*> members;
};

// op(member of a, the same member of b) for each member of a's list.
template <typename Op>
class PairMembers {
 public:
  PairMembers(const std::vector<const void*>& others, Op& op) : others_(others), op_(op) {}

  template <typename T>
  void operator()(const char*, T& value) {
    op_(value, other<T>());
  }
  template <typename T>
  void time_us(const char* key, T& ns) { (*this)(key, ns); }
  template <typename T>
  void thousandths(const char* key, T& value) {
    (*this)(key, value);
  }
  template <typename T>
  void unreported(const char* key, T& value) {
    (*this)(key, value);
  }
  template <typename T>
  void nonzero(const char* key, T& value) {
    (*this)(key, value);
  }
  template <typename T>
  void derived(const char*, const T&) {}
  template <typename T>
  void group(const char* key, std::optional<T>& record) {
    if (record.has_value() != other<std::optional<T>>().has_value())
      throw std::logic_error(std::string("records of different devices: one has no ") + key);
    if (record) fields(*this, *record);
  }

 private:
  template <typename T>
  const T& other() {
    return *static_cast<const T*>(others_.at(next_++));
  }

  const std::vector<const void*>& others_;
  Op& op_;
  std::size_t next_ = 0;
};

}  // namespace detail

// Calls visit(key, member) for each member of `record`'s field list that
// a checkpoint saves, in the list's order: its counters (v(...), v.time_us
// and v.thousandths), not its derived values nor its unreported counters.
// For a record without groups (v.group); `visit` is generic and sees each
// member's type (const where `record` is).
template <typename Record, typename Visit>
void each_counter(Record& record, Visit visit) {
  detail::EachCounter<Visit> each(visit);
  fields(each, record);
}

// Calls op(a's member, b's member) for each member of the field list of
// `a`'s type: counters, times and unreported counters, and the members of
// each group both hold (a group one holds and the other lacks is a
// std::logic_error); derived values are skipped. `op` is generic (a lambda
// with auto parameters): it sees each member's type.
template <typename Record, typename Op>
void pairwise(Record& a, const Record& b, Op op) {
  detail::CollectMembers collect;
  fields(collect, b);
  detail::PairMembers<Op> pair(collect.members, op);
  fields(pair, a);
}

}  // namespace ssdlab::records
