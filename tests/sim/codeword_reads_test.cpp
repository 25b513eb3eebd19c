// Codeword reads (timing.read_transfer = "codeword"): a host read takes the
// whole page into the register (tR), then moves over the bus only the ECC
// codewords that hold its bytes, each with its share of the OOB.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "flash/timeline.h"
#include "sim/controller/read_units.h"
#include "sim/controller/ssd.h"
#include "test_support.h"

namespace ssdlab {
namespace {

namespace support = testing;
using flash::Op;

constexpr TimeNs kApart = 100'000'000;  // between requests: the device is idle again

// The tiny TLC device with 16 KiB pages and logical pages, and its reads
// as `transfer` says.
sim::DeviceConfig tiny_16k(const std::string& transfer) {
  return sim::load_config(support::preset("tiny-tlc"),
                          {"geometry.page_size=16KiB", "ftl.logical_page_size=16KiB",
                           "ftl.stripe_size=16KiB", "timing.read_transfer=" + transfer,
                           "timing.codeword_bytes=4KiB"});
}

// One request alone on an idle device (its `nth`).
TimeNs alone(sim::Ssd& ssd, std::uint64_t offset, std::uint32_t size, IoMode mode, int nth) {
  const TimeNs start = nth * kApart;
  return *ssd.start({offset, size, mode}, start) - start;
}

TEST(CodewordReads, AUnitIsACodewordWithItsShareOfTheOob) {
  const auto config = tiny_16k("codeword");
  const auto& g = config.geometry;
  const auto& t = config.timing;
  EXPECT_EQ(t.read_units_per_page(g), 4u);
  // (16384 + 128) / 4 bytes at 25 ns a byte.
  EXPECT_EQ(t.read_unit_transfer_ns(g), 4128 * 25);
  EXPECT_EQ(t.page_transfer_ns(g), 4 * t.read_unit_transfer_ns(g));
  EXPECT_EQ(tiny_16k("page").timing.read_units_per_page(g), 1u);
}

// Each read, the same page read on the same device with whole-page reads
// and with codeword reads: the array read is the same, the transfer is the
// codewords the bytes touch.
TEST(CodewordReads, AReadMovesOnlyTheCodewordsItsBytesTouch) {
  const auto whole = tiny_16k("page"), codewords = tiny_16k("codeword");
  const auto& g = whole.geometry;
  const TimeNs page = whole.timing.page_transfer_ns(g);
  const TimeNs unit = codewords.timing.read_unit_transfer_ns(g);
  sim::Ssd a(whole, {.verify = true}), b(codewords, {.verify = true});
  a.prefill(0, 8 * g.page_size);
  b.prefill(0, 8 * g.page_size);
  struct Read {
    std::uint64_t offset;
    std::uint32_t size;
    std::uint32_t units;
  };
  const std::uint64_t p = g.page_size;
  const std::vector<Read> reads = {
      {p + 4096, 4096, 1},      // one codeword
      {2 * p, 512, 1},          // one sector of one
      {3 * p + 2048, 8192, 3},  // from the middle of the first to the middle of the third
      {4 * p + 12288, 4096, 1}, // the last
      {5 * p, 16384, 4},        // the whole page
  };
  int nth = 1;
  for (const Read& read : reads) {
    SCOPED_TRACE(read.offset);
    const TimeNs before = alone(a, read.offset, read.size, IoMode::kRead, nth);
    const TimeNs after = alone(b, read.offset, read.size, IoMode::kRead, nth++);
    EXPECT_EQ(before - after, page - read.units * unit);
  }
  // Writes, and the flash work the reads did, are the same.
  EXPECT_EQ(a.ftl().stats().flash_pages_read, b.ftl().stats().flash_pages_read);
}

// The units of each logical page the bytes touch; a two-plane read moves
// the units of both its pages; cleaning's reads move whole pages.
TEST(CodewordReads, UnitsCoverTheRequestsBytesOfEachLogicalPage) {
  const std::uint64_t page = 16384;  // 4 codewords of 4 KiB
  flash::CommandList commands;
  commands.push_back(flash::page_command(Op::kRead, 10, 0));
  commands.push_back(flash::page_command(Op::kRead, 11, 1));
  commands.back().ppn2 = 12;
  commands.back().lpn2 = 2;
  flash::Command cleaning = flash::page_command(Op::kRead, 13, 1);
  cleaning.cleaning = true;
  commands.push_back(cleaning);
  flash::Command translation = flash::page_command(Op::kRead, 14, 7);  // not the request's
  commands.push_back(translation);
  // The last 1 KiB of page 0, all of page 1, the first 5 KiB of page 2.
  sim::select_read_units(4, page, page - 1024, 1024 + page + 5120, commands);
  EXPECT_EQ(commands[0].read_units, 1u);
  EXPECT_EQ(commands[1].read_units, 4u + 2u);
  EXPECT_EQ(commands[2].read_units, 0u);
  EXPECT_EQ(commands[3].read_units, 0u);
  EXPECT_EQ(flash::read_units_moved(commands[2], 4), 4u);
  EXPECT_EQ(flash::read_units_moved(commands[1], 4), 6u);
}

// A two-plane read moves the units of both its reads: the scheduler joins
// them (flash/scheduler), the timeline charges them.
TEST(CodewordReads, ATwoPlaneReadMovesBothReadsCodewords) {
  const auto config = tiny_16k("codeword");
  const auto& g = config.geometry;
  const auto& t = config.timing;
  flash::FlashTimeline timeline(g, t);
  EXPECT_EQ(timeline.read_units_per_page(), 4u);
  flash::Command read = flash::page_command(Op::kRead, g.first_page(0), 0);
  read.ppn2 = g.first_page(g.blocks_per_plane);  // the same offset on plane 1
  read.read_units = 3;
  const TimeNs unit = t.read_unit_transfer_ns(g);
  const TimeNs done = timeline.schedule(read, 0);
  flash::FlashTimeline whole(g, t);
  read.read_units = 0;
  EXPECT_EQ(whole.schedule(read, 0) - done, 2 * t.page_transfer_ns(g) - 3 * unit);
}

TEST(CodewordReads, KeysThatCannotHoldAreRefused) {
  EXPECT_NE(support::preset_error("tiny-tlc", {"timing.read_transfer=sector"})
                .find("timing.read_transfer: 'sector' is not a read transfer (page, codeword)"),
            std::string::npos);
  EXPECT_NE(support::preset_error("tiny-tlc", {"timing.read_transfer=codeword",
                                               "timing.codeword_bytes=3KiB"})
                .find("timing.codeword_bytes: 3072 does not divide the 4096-byte page"),
            std::string::npos);
  EXPECT_NE(support::preset_error("agrawal-gang8-shared-bus-sync",
                                  {"timing.read_transfer=codeword", "timing.codeword_bytes=1KiB"})
                .find("a shared-bus-sync gang moves its member pages"),
            std::string::npos);
  EXPECT_NE(support::preset_error("tiny-tlc", {"geometry.page_size=2KiB",
                                               "timing.read_transfer=codeword",
                                               "timing.codeword_bytes=1KiB"})
                .find("'codeword' needs ftl.logical_page_size equal to the 2048-byte page"),
            std::string::npos);
}

// Off, nothing is echoed (a run without it echoes as before); on, the echo
// loads back as the same timing.
TEST(CodewordReads, TheEchoNamesThemOnlyWhenOn) {
  const auto off = sim::to_json(tiny_16k("page"));
  EXPECT_FALSE(off["timing"].contains("read_transfer"));
  const auto on = sim::to_json(tiny_16k("codeword"));
  EXPECT_EQ(on["timing"]["read_transfer"], "codeword");
  EXPECT_EQ(on["timing"]["codeword_bytes"], 4096);
}

}  // namespace
}  // namespace ssdlab
