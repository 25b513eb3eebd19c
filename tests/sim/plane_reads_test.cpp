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
struct Reads {
  TimeNs end = 0;
  std::uint64_t joined = 0;
};

Reads random_reads_at_depth(bool independent, const std::vector<std::string>& more) {
  std::vector<std::string> sets = {"geometry.interleaving=planes", "timing.bus_ns_per_byte=2.5"};
  if (independent) sets.push_back("timing.independent_plane_reads=true");
  sets.insert(sets.end(), more.begin(), more.end());
  const auto config = sim::load_config(support::preset("tiny-tlc"), sets);
  sim::Ssd ssd(config, {.verify = true});
  const std::uint64_t bytes = std::uint64_t{16} << 20;
  ssd.prefill(0, bytes);
  const std::uint64_t before = ssd.core().timeline().stats().two_plane_commands;
  // 32 reads at once, at pseudo-random pages, each its own request.
  Reads reads;
  std::uint64_t x = 12345;
  for (int i = 0; i < 32; ++i) {
    x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    const std::uint64_t offset = ((x >> 33) % (bytes / 4096)) * 4096;
    const auto done = ssd.start({offset, 4096, IoMode::kRead}, 0, static_cast<std::uint64_t>(i));
    if (done) reads.end = std::max(reads.end, *done);
  }
  ssd.core().settle();
  for (const auto& completed : ssd.core().completions())
    reads.end = std::max(reads.end, completed.at);
  reads.joined = ssd.core().timeline().stats().two_plane_commands - before;
  return reads;
}

TEST(IndependentPlaneReads, RandomReadsAtDepthJoinAcrossOffsetsAndEndSooner) {
  const Reads same_offsets = random_reads_at_depth(false, {});
  const Reads independent = random_reads_at_depth(true, {});
  EXPECT_GT(independent.joined, same_offsets.joined);
  EXPECT_LT(independent.end, same_offsets.end);
}

// Behind a write buffer that holds none of their pages the reads go to the
// flash as on a device without one: queued together, joined alike (a buffer
// used to reserve each request as it came, so that no two reads ever waited
// in a die's queue together and none joined).
TEST(IndependentPlaneReads, JoinBehindAWriteBufferThatHoldsNoneOfTheirPages) {
  for (const bool on : {false, true}) {
    SCOPED_TRACE(on);
    const Reads unbuffered = random_reads_at_depth(on, {});
    const Reads buffered = random_reads_at_depth(on, {"controller.write_buffer=1MiB"});
    EXPECT_EQ(buffered.joined, unbuffered.joined);
    EXPECT_EQ(buffered.end, unbuffered.end);
  }
  EXPECT_GT(random_reads_at_depth(true, {"controller.write_buffer=1MiB"}).joined, 0u);
}

}  // namespace
}  // namespace ssdlab
