// Independent plane reads (timing.independent_plane_reads): the key, and a
// whole device's random reads at depth, where they join across page offsets.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "sim/controller/ssd.h"
#include "test_support.h"

namespace ssdlab {
namespace {

namespace support = testing;

TEST(IndependentPlaneReads, NeedPlaneInterleavingAndAreEchoedWhenOn) {
  EXPECT_NE(support::preset_error("tiny-tlc", {"geometry.interleaving=dies",
                                               "timing.independent_plane_reads=true"})
                .find("timing.independent_plane_reads: joins the reads of a die's planes, which "
                      "needs geometry.interleaving = \"planes\" (it is \"dies\")"),
            std::string::npos);
  const auto on = sim::load_config(support::preset("tiny-tlc"),
                                   {"geometry.interleaving=planes",
                                    "timing.independent_plane_reads=true"});
  EXPECT_TRUE(on.timing.independent_plane_reads);
  EXPECT_EQ(sim::to_json(on)["timing"]["independent_plane_reads"], true);
  const auto off = sim::load_config(support::preset("tiny-tlc"), {"geometry.interleaving=planes"});
  EXPECT_FALSE(sim::to_json(off)["timing"].contains("independent_plane_reads"));
}

// 4 KiB random reads over the tiny TLC device, 32 at a time, on a bus ten
// times the preset's speed (so that the dies, not the bus, limit them):
// with independent plane reads more of them join into multi-plane reads
// (same offsets only join without), and the reads end sooner; every read
// still returns its page (--verify's check). (On the preset's slow bus a
// joined read, which waits for its slower page, gains nothing.)
TEST(IndependentPlaneReads, RandomReadsAtDepthJoinAcrossOffsetsAndEndSooner) {
  TimeNs end[2];
  std::uint64_t joined[2];
  for (const bool independent : {false, true}) {
    SCOPED_TRACE(independent);
    std::vector<std::string> sets = {"geometry.interleaving=planes", "timing.bus_ns_per_byte=2.5"};
    if (independent) sets.push_back("timing.independent_plane_reads=true");
    const auto config = sim::load_config(support::preset("tiny-tlc"), sets);
    sim::Ssd ssd(config, {.verify = true});
    const std::uint64_t bytes = std::uint64_t{16} << 20;
    ssd.prefill(0, bytes);
    const std::uint64_t before = ssd.timeline().stats().two_plane_commands;
    // 32 reads at once, at pseudo-random pages, each its own request.
    TimeNs last = 0;
    std::uint64_t x = 12345;
    for (int i = 0; i < 32; ++i) {
      x = x * 6364136223846793005ULL + 1442695040888963407ULL;
      const std::uint64_t offset = ((x >> 33) % (bytes / 4096)) * 4096;
      const auto done = ssd.start({offset, 4096, IoMode::kRead}, 0, static_cast<std::uint64_t>(i));
      if (done) last = std::max(last, *done);
    }
    ssd.settle();
    for (const auto& completed : ssd.completions()) last = std::max(last, completed.at);
    end[independent] = last;
    joined[independent] = ssd.timeline().stats().two_plane_commands - before;
  }
  EXPECT_GT(joined[1], joined[0]);
  EXPECT_LT(end[1], end[0]);
}

}  // namespace
}  // namespace ssdlab
