// A checkpoint of a one-shot TLC device with an SLC cache and a write
// buffer keeps where each pool's last host write went (PageMappedFtl's
// host_wordline_pages(), section "HSLC"): a run from the saved state packs
// its first flushes as the run that saved it would (before, a run from the
// state cache padded TLC wordlines the fresh run did not: its io.csv
// differed from the fresh run's after a few thousand writes on
// configs/tlc-client.toml at a tenth).
#include <gtest/gtest.h>

#include <string>

#include "sim/config/config.h"
#include "sim/controller/ssd.h"
#include "state_support.h"
#include "test_support.h"

namespace ssdlab::sim {
namespace {

TEST(SlcWordlineState, ACheckpointKeepsWhereEachPoolsLastHostWriteWent) {
  const DeviceConfig config = load_config(
      testing::preset("tiny-tlc"), {"controller.write_buffer=\"256KiB\"",
                                    "slc_cache.mode=\"dynamic\"", "slc_cache.size_gib=0.004"});
  Ssd ssd(config);
  TimeNs now = 0;
  const std::uint64_t pages = ssd.logical_bytes() / 4096;
  for (std::uint64_t page = 0; page < pages / 2; ++page)
    now = *ssd.start(HostIo{page * 4096, 4096, IoMode::kWrite}, now);
  ssd.idle(now, now + 1'000'000'000);
  // Past the cache's end: the last host writes went to TLC blocks.
  ASSERT_EQ(ssd.ftl().host_wordline_pages(0), 3u);
  Ssd loaded(config);
  testing::load_bytes(loaded, testing::saved_bytes(ssd));
  EXPECT_EQ(loaded.ftl().host_wordline_pages(0), 3u);
  EXPECT_EQ(testing::saved_bytes(loaded), testing::saved_bytes(ssd));
}

}  // namespace
}  // namespace ssdlab::sim
