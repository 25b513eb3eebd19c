// The controller's DRAM write buffer (controller.write_buffer): its
// bookkeeping, read hits, coalescing, flush-on-full timing, write-through, and
// verified runs on every FTL with the buffer on.
#include "sim/controller/write_buffer.h"

#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "block_ftl_support.h"
#include "sim/engine/simulator.h"
#include "sim/controller/ssd.h"
#include "test_support.h"
#include "workloads/plan.h"

namespace ssdlab {
namespace {

constexpr std::uint32_t kPage = 4096;

sim::DeviceConfig buffered(std::uint64_t pages, const std::string& policy = "write-back") {
  auto config = testing::load_preset("tiny");
  config.controller.write_buffer_bytes = pages * kPage;
  config.controller.write_through = policy == "write-through";
  return config;
}

HostIo write_page(std::uint64_t lpn) {
  return {lpn * kPage, kPage, IoMode::kWrite};
}
HostIo read_page(std::uint64_t lpn) {
  return {lpn * kPage, kPage, IoMode::kRead};
}

TEST(WriteBuffer, KeepsPagesOldestFirstAndCoalescesOverwrites) {
  sim::WriteBuffer buffer(4);
  EXPECT_TRUE(buffer.put(7));
  EXPECT_TRUE(buffer.put(3));
  EXPECT_FALSE(buffer.put(7));  // coalesced: 7 is now the newest
  EXPECT_TRUE(buffer.put(5));
  EXPECT_EQ(buffer.held(), 3u);
  EXPECT_EQ(buffer.stats().coalesced_pages, 1u);
  std::vector<ftl::Lpn> out;
  buffer.take_oldest(2, out);
  EXPECT_EQ(out, (std::vector<ftl::Lpn>{3, 7}));
  EXPECT_FALSE(buffer.contains(3));
  EXPECT_TRUE(buffer.contains(5));
}

TEST(WriteBuffer, SpaceOfAFlushFreesWhenItCompletes) {
  sim::WriteBuffer buffer(4);
  for (ftl::Lpn lpn = 0; lpn < 4; ++lpn) buffer.put(lpn);
  std::vector<ftl::Lpn> out;
  buffer.take_oldest(2, out);
  buffer.flushing(1000, 1);
  buffer.flushing(3000, 1);
  EXPECT_EQ(buffer.occupied(), 4u);
  EXPECT_EQ(buffer.room_for(1, 0), 1000);  // the first flush frees one page
  EXPECT_EQ(buffer.room_for(2, 1000), 3000);
  EXPECT_EQ(buffer.occupied(), 2u);
}

TEST(WriteBufferSsd, ReadsThatHitNeverReachTheFlash) {
  sim::Ssd ssd(buffered(16), {.verify = true});
  ssd.prefill(0, 16 * kPage);
  const auto prefilled = ssd.ftl().stats().host_pages_written;
  const TimeNs written = *ssd.start(write_page(5), 0);
  // Acknowledged at host-link speed: 4096 B x 3.333 ns/B, no flash program.
  EXPECT_EQ(written, (4096 * 3333 + 500) / 1000);
  EXPECT_EQ(ssd.ftl().stats().host_pages_written, prefilled);
  const TimeNs read = *ssd.start(read_page(5), 1'000'000) - 1'000'000;
  EXPECT_EQ(read, written);
  EXPECT_EQ(ssd.ftl().stats().host_pages_read, 0u);
  EXPECT_EQ(ssd.write_buffer()->stats().read_hit_pages, 1u);
  // A miss goes to flash and costs a flash read.
  const TimeNs miss = *ssd.start(read_page(6), 2'000'000) - 2'000'000;
  EXPECT_EQ(ssd.write_buffer()->stats().read_miss_pages, 1u);
  EXPECT_EQ(ssd.ftl().stats().host_pages_read, 1u);
  EXPECT_GT(miss, read);
}

TEST(WriteBufferSsd, ReadHalfInTheBufferReadsOnlyTheOtherHalfFromFlash) {
  sim::Ssd ssd(buffered(16), {.verify = true});
  ssd.prefill(0, 16 * kPage);
  ssd.start(write_page(2), 0);
  ssd.start({0, 4 * kPage, IoMode::kRead}, 1'000'000);  // pages 0..3, page 2 buffered
  EXPECT_EQ(ssd.ftl().stats().host_pages_read, 3u);
  EXPECT_EQ(ssd.write_buffer()->stats().read_hit_pages, 1u);
}

TEST(WriteBufferSsd, OverwritesCoalesceAndReachTheFlashOnce) {
  sim::Ssd ssd(buffered(16), {.verify = true});
  for (int i = 0; i < 10; ++i) *ssd.start(write_page(3), i * 1'000'000);
  EXPECT_EQ(ssd.write_buffer()->stats().coalesced_pages, 9u);
  ssd.idle(20'000'000, 40'000'000);  // idle: the buffer drains
  EXPECT_EQ(ssd.ftl().stats().host_pages_written, 1u);
  EXPECT_EQ(ssd.write_buffer()->held(), 0u);
}

TEST(WriteBufferSsd, AWriteThatFindsTheBufferFullWaitsForTheFlush) {
  auto config = buffered(8);
  sim::Ssd ssd(config, {.verify = true});
  const TimeNs fast = *ssd.start(write_page(0), 0);
  for (std::uint64_t lpn = 1; lpn < 8; ++lpn) EXPECT_EQ(*ssd.start(write_page(lpn), 0), fast);
  EXPECT_EQ(ssd.write_buffer()->stats().flushes, 0u);
  // The ninth page: the oldest half is flushed and the write waits for the
  // first page of it to be programmed.
  const TimeNs full = *ssd.start(write_page(8), 0);
  const auto& stats = ssd.write_buffer()->stats();
  EXPECT_EQ(stats.flushed_pages, 4u);
  EXPECT_EQ(stats.full_waits, 1u);
  EXPECT_GE(full, config.timing.page_program_latency(config.geometry) + fast);
  EXPECT_EQ(ssd.ftl().stats().host_pages_written, 4u);
}

TEST(WriteBufferSsd, HighWaterMarkFlushesBeforeTheBufferFills) {
  auto config = buffered(8);
  config.controller.flush_high_water = 0.5;
  config.controller.flush_low_water = 0.25;
  sim::Ssd ssd(config, {.verify = true});
  TimeNs slowest = 0;
  for (std::uint64_t lpn = 0; lpn < 8; ++lpn)
    slowest = std::max(slowest, *ssd.start(write_page(lpn), 0));
  EXPECT_GT(ssd.write_buffer()->stats().flushes, 0u);
  EXPECT_EQ(ssd.write_buffer()->stats().full_waits, 0u);
  EXPECT_LT(slowest, config.timing.page_program_latency(config.geometry));
}

TEST(WriteBufferSsd, WriteThroughWaitsForFlashButServesReadsFromDram) {
  auto config = buffered(16, "write-through");
  sim::Ssd ssd(config, {.verify = true});
  const TimeNs written = *ssd.start(write_page(4), 0);
  EXPECT_GE(written, config.timing.page_program_latency(config.geometry));
  EXPECT_EQ(ssd.ftl().stats().host_pages_written, 1u);
  ssd.start(read_page(4), 10'000'000);
  EXPECT_EQ(ssd.write_buffer()->stats().read_hit_pages, 1u);
  EXPECT_TRUE(ssd.ftl().is_mapped(4));  // on flash as well: nothing unflushed to lose
}

TEST(WriteBufferSsd, PartialPageWriteReadsTheRestOfThePageFirst) {
  sim::Ssd ssd(buffered(16), {.verify = true});
  ssd.prefill(0, 16 * kPage);
  const TimeNs done = *ssd.start({kPage + 512, 1024, IoMode::kWrite}, 0);
  EXPECT_EQ(ssd.ftl().stats().host_pages_read, 1u);  // the fill
  EXPECT_GT(done, 25'000);                           // after a flash read
  EXPECT_TRUE(ssd.write_buffer()->contains(1));
  EXPECT_EQ(ssd.write_buffer()->contents(), (std::vector<ftl::Lpn>{1}));
}

TEST(WriteBufferSsd, BuffersBurstsOfWritesAtHostLinkSpeed) {
  auto measure = [](std::uint64_t buffer_pages) {
    sim::Ssd ssd(buffered(buffer_pages));
    sim::Simulator simulator(ssd, nullptr);
    return simulator.run(
        workloads::parse_inline("RW:count=2000,burst=32,pause_us=20000").experiments.front(), 0, 1);
  };
  const auto off = measure(0), on = measure(64);
  EXPECT_LT(on.stats.mean_ns * 5, off.stats.mean_ns);
  EXPECT_GT(on.device.buffer->flushed_pages, 0u);
}

// --verify with the buffer on, on every FTL: reads that hit are the latest
// write, and flushed data reaches the flash in a form the verifier accepts.
TEST(WriteBufferVerification, MixedWorkloadLosesNothingOnEveryFtl) {
  for (const std::string type : {"page-mapped", "block-mapped", "bast", "fast"}) {
    for (const std::string policy : {"write-back", "write-through"}) {
      auto config =
          type == "page-mapped" ? testing::load_preset("tiny") : testing::block_ftl_config(type, 4);
      config.controller.write_buffer_bytes = 24 * kPage;
      config.controller.write_through = policy == "write-through";
      sim::Ssd ssd(config, {.verify = true, .invariants_every = 200});
      sim::Simulator simulator(ssd, nullptr);
      const auto spec =
          workloads::parse_inline("RR:count=3000,io_size=8192,mix_pattern=RW,mix_ratio=1")
              .experiments.front();
      ASSERT_NO_THROW(simulator.run(spec, 0, 3)) << type << " " << policy;
      EXPECT_GT(ssd.core().observers().verified_pages(), 0u) << type;
      EXPECT_GT(ssd.write_buffer()->stats().read_hit_pages, 0u) << type << " " << policy;
      EXPECT_NO_THROW(ssd.ftl().check_invariants()) << type;
    }
  }
}

// Each page keeps its write's placement identifier until its flush (an
// overwrite takes the newer one's; a drop forgets it), and a checkpoint
// carries them: in a section of their own, so that a buffer without any
// saves as before.
// The buffer as a part of the controller (sim/controller/ssd_part.h): a
// trim and a functional write drop its copies of their pages, and a Reclaim
// Unit Handle Update sends what it holds to flash before the update closes
// the handle's reclaim units.
TEST(WriteBufferSsd, ItsHooksDropTrimmedAndOverwrittenPagesAndFlushBeforeAHandleUpdate) {
  sim::Ssd ssd(
      sim::load_config(testing::preset("tiny"), {"ftl.placement=\"fdp\"", "ftl.fdp_handles=3",
                                                 "controller.write_buffer=\"64KiB\""}),
      {.verify = true});
  TimeNs now = 0;
  const auto at = [&] { return now += 1'000'000; };
  for (std::uint64_t lpn = 1; lpn <= 5; ++lpn) {
    HostIo write = write_page(lpn);
    write.placement = 1;
    *ssd.start(write, at());
  }
  *ssd.start({3 * kPage, kPage, IoMode::kTrim}, at());
  EXPECT_FALSE(ssd.write_buffer()->contains(3));
  ssd.write_functionally(4 * kPage, kPage);
  EXPECT_FALSE(ssd.write_buffer()->contains(4));
  EXPECT_EQ(ssd.ftl().stats().host_pages_written, 1u);  // the functional write's
  ASSERT_TRUE(ssd.write_buffer()->contains(5));
  HostIo update = write_page(6);
  update.placement = 1 | kRuhUpdate;
  *ssd.start(update, at());
  // Pages 1, 2 and 5 reached flash before the update; page 6, after it, waits.
  EXPECT_EQ(ssd.ftl().stats().host_pages_written, 4u);
  EXPECT_FALSE(ssd.write_buffer()->contains(5));
  EXPECT_TRUE(ssd.write_buffer()->contains(6));
  ssd.idle(at(), at());
  EXPECT_EQ(ssd.ftl().stats().host_pages_written, 5u);
  for (std::uint64_t lpn = 1; lpn <= 6; ++lpn) *ssd.start(read_page(lpn), at());  // verified
}

TEST(WriteBufferPlacement, PagesKeepTheirIdentifierThroughACheckpoint) {
  sim::WriteBuffer saved(8);
  saved.put(1, 2);
  saved.put(2);
  saved.put(3, 1);
  saved.put(3, 3);  // coalesced: the newer write's
  saved.put(4, 1);
  saved.drop(4);
  EXPECT_EQ(saved.placement(1), 2);
  EXPECT_EQ(saved.placement(2), 0);
  EXPECT_EQ(saved.placement(3), 3);
  EXPECT_EQ(saved.placement(4), 0);
  const auto bytes_of = [](const sim::WriteBuffer& buffer) {
    std::ostringstream bytes;
    StateWriter out(&bytes);
    buffer.save_state(out);
    return bytes.str();
  };
  const std::string bytes = bytes_of(saved);
  std::istringstream in_bytes(bytes);
  StateReader in(in_bytes);
  sim::WriteBuffer loaded(8);
  loaded.load_state(in);
  EXPECT_EQ(loaded.placement(1), 2);
  EXPECT_EQ(loaded.placement(3), 3);
  EXPECT_EQ(bytes_of(loaded), bytes);
  // Without identifiers: no section of them.
  sim::WriteBuffer plain(8);
  plain.put(1);
  EXPECT_EQ(bytes_of(plain).find("WBPL"), std::string::npos);
  EXPECT_NE(bytes.find("WBPL"), std::string::npos);
}

}  // namespace
}  // namespace ssdlab
