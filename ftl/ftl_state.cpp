// What every FTL's checkpoint shares: the refusal of FTLs that cannot save,
// and the counters.
#include "ftl/ftl.h"

#include <string_view>
#include <type_traits>

#include "records/walk.h"

namespace ssdlab::ftl {

void Ftl::save_state(StateWriter& /*out*/) const {
  throw make_error("the {} FTL cannot save its state (it does not implement save_state)", name());
}

void Ftl::load_state(StateReader& /*in*/) {
  throw make_error("the {} FTL cannot load a state (it does not implement load_state)", name());
}


namespace {

// What a corrupt checkpoint's error calls each per-pool list.
const char* list_name(std::string_view key) {
  return key == "blocks_cleaned_per_pool" ? "the per-pool cleaning counts"
                                          : "the per-pool migration counts";
}

template <typename T>
constexpr bool kIsList = std::is_same_v<std::remove_const_t<T>, std::vector<std::uint64_t>>;

}  // namespace

// Section STAT, through the counters' field list (records/ftl_counters.h):
// each counter in the list's order (the scalars, then the per-pool lists).
void save_stats(StateWriter& out, const FtlStats& stats) {
  out.section("STAT", 2);
  records::each_counter(stats, [&out](const char*, const auto& counter) {
    if constexpr (kIsList<std::remove_reference_t<decltype(counter)>>)
      out.vector(counter);
    else
      out.u64(counter);
  });
}

void load_stats(StateReader& in, FtlStats& stats) {
  in.section("STAT", 2);
  records::each_counter(stats, [&in](const char* key, auto& counter) {
    if constexpr (kIsList<std::remove_reference_t<decltype(counter)>>)
      in.vector(counter, counter.size(), list_name(key));
    else
      counter = in.u64();
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
