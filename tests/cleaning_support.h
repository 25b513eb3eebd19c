// A random mix of host writes (some partial), reads and trims driven through
// an FTL and the verifier, for the cleaning tests and the long verification.
#pragma once

#include <cstdint>

#include "common/rng.h"
#include "ftl/ftl.h"
#include "ftl/verifier.h"

namespace ssdlab::testing {

struct MixCounts {
  std::uint64_t writes = 0, reads = 0, trims = 0;
};

// Runs `operations` random operations of 1..max_pages logical pages.
inline MixCounts run_random_mix(ftl::Ftl& ftl, ftl::Verifier& verifier, std::uint64_t operations,
                                std::uint64_t seed, std::uint32_t max_pages = 4) {
  Rng rng(seed);
  MixCounts counts;
  ftl::CommandList out;
  for (std::uint64_t i = 0; i < operations; ++i) {
    const auto count = static_cast<std::uint32_t>(1 + rng.uniform(max_pages));
    const auto first = static_cast<ftl::Lpn>(rng.uniform(ftl.logical_pages() - count));
    const ftl::PageRange range{first, count, rng.uniform(4) == 0, rng.uniform(4) == 0};
    out.clear();
    const auto action = rng.uniform(20);
    if (action < 12) {
      ftl.write(range, out);
      verifier.host_write(range, out);
      ++counts.writes;
    } else if (action < 19) {
      ftl.read(range, out);
      verifier.host_read(range, out);
      ++counts.reads;
    } else {
      ftl.trim(range, out);
      verifier.host_trim(range, out);
      ++counts.trims;
    }
  }
  return counts;
}

}  // namespace ssdlab::testing
