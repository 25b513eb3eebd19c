// What every FTL's checkpoint shares: the refusal of FTLs that cannot save,
// and the counters.
#include "ftl/ftl.h"

#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>

#include "records/pairwise.h"

namespace ssdlab::ftl {

void Ftl::save_state(StateWriter& /*out*/) const {
  throw make_error("the {} FTL cannot save its state (it does not implement save_state)", name());
}

void Ftl::load_state(StateReader& /*in*/) {
  throw make_error("the {} FTL cannot load a state (it does not implement load_state)", name());
}


namespace {

// The section STAT through the counters' field list
// (records/ftl_counters.h): its scalar counters in the list's order, then
// its per-pool lists, as `Scalar` and `List` read or write each.
template <typename Scalar, typename List>
class StatVisitor {
 public:
  StatVisitor(Scalar scalar, List list) : scalar_(scalar), list_(list) {}
  template <typename T>
  void operator()(const char* key, T& value) {
    if constexpr (std::is_same_v<std::remove_const_t<T>, std::uint64_t>) {
      if (lists_) throw std::logic_error(std::string("STAT: a counter after the lists: ") + key);
      scalar_(value);
    } else {
      lists_ = true;
      list_(key, value);
    }
  }
  template <typename T>
  void unreported(const char*, T&) {}
  template <typename T>
  void derived(const char*, const T&) {}

 private:
  Scalar scalar_;
  List list_;
  bool lists_ = false;
};

template <typename Stats, typename Scalar, typename List>
void visit_stat(Stats& stats, Scalar scalar, List list) {
  StatVisitor<Scalar, List> visitor(scalar, list);
  records::fields(visitor, stats);
}

// What a corrupt checkpoint's error calls each per-pool list.
const char* list_name(std::string_view key) {
  return key == "blocks_cleaned_per_pool" ? "the per-pool cleaning counts"
                                          : "the per-pool migration counts";
}

}  // namespace

void save_stats(StateWriter& out, const FtlStats& stats) {
  out.section("STAT", 2);
  visit_stat(
      stats, [&out](const std::uint64_t& counter) { out.u64(counter); },
      [&out](const char*, const std::vector<std::uint64_t>& list) { out.vector(list); });
}

void load_stats(StateReader& in, FtlStats& stats) {
  in.section("STAT", 2);
  visit_stat(
      stats, [&in](std::uint64_t& counter) { counter = in.u64(); },
      [&in](const char* key, std::vector<std::uint64_t>& list) {
        in.vector(list, list.size(), list_name(key));
      });
}

void add_counters(FtlStats& into, const FtlStats& from) {
  records::pairwise(into, from, [](auto& sum, const auto& more) {
    if constexpr (std::is_same_v<std::decay_t<decltype(sum)>, std::vector<std::uint64_t>>) {
      if (sum.size() < more.size()) sum.resize(more.size(), 0);  // pools: element by element
      for (std::size_t pool = 0; pool < more.size(); ++pool) sum[pool] += more[pool];
    } else {
      sum += more;
    }
  });
}

}  // namespace ssdlab::ftl
