// What every FTL's checkpoint shares: the refusal of FTLs that cannot save,
// and the counters.
#include "ftl/ftl.h"

namespace ssdlab::ftl {

void Ftl::save_state(StateWriter& /*out*/) const {
  throw make_error("the {} FTL cannot save its state (it does not implement save_state)", name());
}

void Ftl::load_state(StateReader& /*in*/) {
  throw make_error("the {} FTL cannot load a state (it does not implement load_state)", name());
}


void save_stats(StateWriter& out, const FtlStats& stats) {
  out.section("STAT", 2);
  each_counter(stats, [&out](const char*, const std::uint64_t& counter) { out.u64(counter); });
  out.vector(stats.blocks_cleaned_per_pool);
  out.vector(stats.wear_migrations_per_pool);
}

void load_stats(StateReader& in, FtlStats& stats) {
  in.section("STAT", 2);
  each_counter(stats, [&in](const char*, std::uint64_t& counter) { counter = in.u64(); });
  in.vector(stats.blocks_cleaned_per_pool, stats.blocks_cleaned_per_pool.size(),
            "the per-pool cleaning counts");
  in.vector(stats.wear_migrations_per_pool, stats.wear_migrations_per_pool.size(),
            "the per-pool migration counts");
}

void add_counters(FtlStats& into, const FtlStats& from) {
  std::vector<std::uint64_t> values;
  each_counter(from, [&values](const char*, const std::uint64_t& value) { values.push_back(value); });
  std::size_t i = 0;
  each_counter(into, [&values, &i](const char*, std::uint64_t& counter) { counter += values[i++]; });
  auto add = [](std::vector<std::uint64_t>& sums, const std::vector<std::uint64_t>& more) {
    if (sums.size() < more.size()) sums.resize(more.size(), 0);
    for (std::size_t pool = 0; pool < more.size(); ++pool) sums[pool] += more[pool];
  };
  add(into.blocks_cleaned_per_pool, from.blocks_cleaned_per_pool);
  add(into.wear_migrations_per_pool, from.wear_migrations_per_pool);
}

}  // namespace ssdlab::ftl
