// Shared by the victim-policy and DFTL tests: FTLs built from tiny.toml with
// overrides, steady-state write amplification under a stream of single-page
// writes, and Desnoyers' LRW closed form.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <functional>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "common/rng.h"
#include "common/state_io.h"
#include "ftl/ftl.h"
#include "sim/config/config.h"
#include "test_support.h"

namespace ssdlab::testing {

inline sim::DeviceConfig tiny_with(std::vector<std::string> overrides) {
  return sim::load_config(preset("tiny"), overrides);
}

inline std::unique_ptr<ftl::Ftl> make_ftl_from(const sim::DeviceConfig& config,
                                               std::uint64_t seed = 1) {
  return ftl::make_ftl(ftl::FtlContext{config.geometry, config.ftl, seed});
}

// One pool of one plane, 1,024 blocks of 64 pages, cleaning reserve at its
// minimum (2 blocks): the device Desnoyers' single-frontier model describes.
inline std::vector<std::string> one_pool_device(const std::string& policy) {
  return {"geometry.channels=1",
          "geometry.dies_per_package=1",
          "geometry.planes_per_die=1",
          "geometry.blocks_per_plane=1024",
          "geometry.pages_per_block=64",
          "geometry.two_plane_pairs=[]",
          "ftl.allocation_pool=\"ssd\"",
          "ftl.clean_low_water=0.001",
          "ftl.victim_policy=\"" + policy + "\""};
}

// Writes `warm_up` then `measured` single logical pages drawn by `next_lpn`
// (functionally, no timing); the write amplification of the measured part.
inline double steady_write_amplification(ftl::Ftl& ftl,
                                         const std::function<ftl::Lpn(Rng&)>& next_lpn,
                                         std::uint64_t warm_up, std::uint64_t measured,
                                         std::uint64_t seed = 11) {
  Rng rng(seed);
  ftl::CommandList out;
  auto write = [&](std::uint64_t count) {
    for (std::uint64_t i = 0; i < count; ++i) {
      out.clear();
      ftl.write(ftl::PageRange{next_lpn(rng), 1}, out);
    }
  };
  write(warm_up);
  const ftl::FtlStats before = ftl.stats();
  write(measured);
  const ftl::FtlStats& after = ftl.stats();
  return static_cast<double>(after.flash_pages_written - before.flash_pages_written) /
         static_cast<double>(after.host_pages_written - before.host_pages_written);
}

// An FTL of `config` checkpointed after uniform random writes and one
// loaded from it write the same commands from then on (the victim policy's
// section carries its order, seal times and generator), and clean.
inline void expect_checkpoint_resumes_with_the_same_commands(const sim::DeviceConfig& config) {
  auto original = make_ftl_from(config, 4);
  const auto pages = static_cast<ftl::Lpn>(original->logical_pages());
  auto draw = [pages](Rng& rng) { return static_cast<ftl::Lpn>(rng.uniform(pages)); };
  steady_write_amplification(*original, draw, 0, 3 * pages, 1);
  std::stringstream bytes;
  {
    StateWriter writer(&bytes);
    original->save_state(writer);
  }
  auto restored = make_ftl_from(config, 4);
  {
    StateReader reader(bytes);
    restored->load_state(reader);
  }
  Rng a(9), b(9);
  ftl::CommandList out_a, out_b;
  for (int i = 0; i < 3 * static_cast<int>(pages); ++i) {
    out_a.clear();
    out_b.clear();
    original->write(ftl::PageRange{draw(a), 1}, out_a);
    restored->write(ftl::PageRange{draw(b), 1}, out_b);
    ASSERT_EQ(out_a.size(), out_b.size()) << "request " << i;
    for (std::size_t c = 0; c < out_a.size(); ++c) ASSERT_EQ(out_a[c].ppn, out_b[c].ppn) << i;
  }
  EXPECT_GT(restored->stats().blocks_cleaned, 0u);
}

// Lambert W0 (principal branch) of x in [-1/e, 0) by Newton's method.
inline double lambert_w0(double x) {
  double w = -0.5;
  for (int i = 0; i < 100; ++i) {
    const double e = std::exp(w);
    const double step = (w * e - x) / (e * (w + 1.0));
    w -= step;
    if (std::abs(step) < 1e-15) break;
  }
  return w;
}

// Desnoyers (SYSTOR 2012): write amplification of LRW (FIFO) cleaning under
// uniform random writes, alpha = physical / logical pages = 1 / (1 - spare).
inline double lrw_write_amplification(double alpha) {
  return alpha / (alpha + lambert_w0(-alpha * std::exp(-alpha)));
}

}  // namespace ssdlab::testing
