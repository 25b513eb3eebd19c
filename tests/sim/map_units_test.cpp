// Map units smaller than the flash page (ftl.logical_page_size dividing the
// page; ftl/page_mapped/page_mapped_units.h, sim/controller/map_units.h): the FTL maps
// 4 KiB units in 16 KiB pages, programs whole pages (padding the rest of a
// page a call leaves open), never reads a page to write a unit of it, and
// the flash gets one command per page.
#include "sim/controller/map_units.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "ftl/ftl.h"
#include "ftl/page_mapped/page_mapped_units.h"
#include "sim/controller/ssd.h"
#include "sim/state/precondition.h"
#include "test_support.h"
#include "verified_ftl.h"
#include "workloads/state_enforcement.h"

namespace ssdlab {
namespace {

namespace support = testing;
using flash::Command;
using flash::CommandList;
using flash::Op;

constexpr std::uint32_t kUnits = 4;  // 4 KiB units in 16 KiB pages
constexpr TimeNs kApart = 100'000'000;

// The tiny TLC device with 16 KiB flash pages, mapped in `unit`s.
sim::DeviceConfig tiny_16k(const std::string& unit, std::vector<std::string> more = {}) {
  std::vector<std::string> overrides{"geometry.page_size=16KiB", "ftl.stripe_size=16KiB",
                                     "ftl.logical_page_size=" + unit};
  overrides.insert(overrides.end(), more.begin(), more.end());
  return sim::load_config(support::preset("tiny-tlc"), overrides);
}

// An FTL on the 4 KiB-unit device, its commands checked by a verifier
// that follows units.
class MapUnitFtl : public ::testing::Test, public support::VerifiedFtl {
 protected:
  MapUnitFtl() : VerifiedFtl(tiny_16k("4KiB")) {}
};

using support::count_if;

TEST(MapUnitPages, APageGoesToTheFlashWhenItsLastUnitIsWritten) {
  ftl::page_mapped::UnitPages pages(kUnits);
  CommandList out;
  for (flash::Ppn unit = 8; unit < 11; ++unit)
    pages.add(flash::page_command(Op::kProgram, unit, unit), out);
  EXPECT_TRUE(out.empty());
  EXPECT_TRUE(pages.next_padding().has_value());  // a page is open
  EXPECT_EQ(pages.next_padding()->ppn, 11u);
  EXPECT_EQ(pages.next_padding()->lpn, flash::kNoLpn);
  EXPECT_FALSE(pages.next_padding(true).has_value());  // a host page: no erase waits for it
  pages.add(*pages.next_padding(), out);
  ASSERT_EQ(out.size(), 4u);
  EXPECT_FALSE(out[0].rides);
  for (std::size_t i = 1; i < 4; ++i) EXPECT_TRUE(out[i].rides) << i;
  EXPECT_FALSE(pages.next_padding().has_value());  // none open
  // A unit must follow the one before it in its page.
  EXPECT_THROW(pages.add(flash::page_command(Op::kProgram, 13, 1), out), std::logic_error);
}

TEST_F(MapUnitFtl, TheDeviceExportsUnitsAndAWholePageWriteIsOneProgram) {
  EXPECT_EQ(ftl_->logical_page_size(), 4096u);
  EXPECT_EQ(ftl_->nand().geometry().pages_per_block, config_.geometry.pages_per_block * kUnits);
  const CommandList out = write(0, kUnits);
  ASSERT_EQ(out.size(), kUnits);
  EXPECT_EQ(count_if(out, [](const Command& c) { return !c.rides; }), 1u);
  for (const Command& c : out) {
    EXPECT_EQ(c.op, Op::kProgram);
    EXPECT_EQ(c.ppn / kUnits, out[0].ppn / kUnits);  // one flash page
    EXPECT_NE(c.lpn, flash::kNoLpn);
  }
  EXPECT_EQ(ftl_->stats().padding_pages, 0u);
}

TEST_F(MapUnitFtl, AUnitWriteIsPaddedToItsPageAndAnOverwriteReadsNothing) {
  write(5, 1);
  const CommandList again = write(5, 1);  // an overwrite of the whole unit
  EXPECT_EQ(count_if(again, [](const Command& c) { return c.op == Op::kRead; }), 0u);
  ASSERT_EQ(again.size(), kUnits);
  EXPECT_EQ(count_if(again, [](const Command& c) { return c.lpn == flash::kNoLpn; }), 3u);
  const ftl::FtlStats& s = ftl_->stats();
  EXPECT_EQ(s.rmw_pages_read, 0u);
  EXPECT_EQ(s.padding_pages, 6u);
  EXPECT_EQ(s.host_pages_written, 2u);
  EXPECT_EQ(s.flash_pages_written, 8u);  // the padding is programmed too
}

TEST_F(MapUnitFtl, APartialUnitWriteReadsThatUnitOnly) {
  write(8, kUnits);
  CommandList out;
  const ftl::PageRange range{9, 1, true, false};
  ftl_->write(range, out);
  verifier_.host_write(range, out);
  ASSERT_EQ(count_if(out, [](const Command& c) { return c.op == Op::kRead; }), 1u);
  EXPECT_EQ(out.front().lpn, 9u);
  EXPECT_EQ(ftl_->stats().rmw_pages_read, 1u);
}

TEST_F(MapUnitFtl, ReadsOfUnitsOfOnePageRideOnOneReadOfIt) {
  write(0, kUnits);
  CommandList out = read(0, kUnits);
  ASSERT_EQ(out.size(), kUnits);
  EXPECT_EQ(count_if(out, [](const Command& c) { return !c.rides; }), 1u);
  CommandList codewords = out;
  sim::MapUnitFlash(kUnits, 1).to_flash(codewords);
  ASSERT_EQ(codewords.size(), 1u);
  EXPECT_EQ(codewords[0].ppn, out[0].ppn / kUnits);
  EXPECT_EQ(codewords[0].read_units, kUnits);  // one codeword per unit
  sim::MapUnitFlash(kUnits, 0).to_flash(out);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].read_units, 0u);  // the whole page
}

TEST(MapUnitFlash, AMoveAlsoReadsTheOtherSourcePagesOfItsUnits) {
  CommandList units;
  const auto move = [&](flash::Ppn to, flash::Ppn from, bool rides) {
    Command c = flash::page_command(Op::kMove, to, to, 0, from);
    c.cleaning = true;
    c.rides = rides;
    units.push_back(c);
  };
  move(40, 0, false);  // its own source page 0
  move(41, 5, true);   // page 1
  move(42, 6, true);   // page 1 again: one read of it
  Command padding = flash::page_command(Op::kProgram, 43, flash::kNoLpn);
  padding.cleaning = padding.rides = true;
  units.push_back(padding);
  sim::MapUnitFlash(kUnits, 1).to_flash(units);
  ASSERT_EQ(units.size(), 2u);
  EXPECT_EQ(units[0].op, Op::kMove);
  EXPECT_EQ(units[0].ppn, 10u);
  EXPECT_EQ(units[0].src, 0u);
  EXPECT_EQ(units[1].op, Op::kRead);
  EXPECT_EQ(units[1].ppn, 1u);
  EXPECT_TRUE(units[1].cleaning);
  EXPECT_EQ(units[1].read_units, 1u);
}

// Random unit writes and reads over the whole device, through cleaning,
// every read checked against the latest write.
TEST(MapUnits, RandomWritesAndReadsVerifyThroughCleaning) {
  for (const char* transfer : {"page", "codeword"}) {
    sim::Ssd ssd(tiny_16k("4KiB", {std::string("timing.read_transfer=") + transfer,
                                   "timing.codeword_bytes=4KiB"}),
                 {.verify = true, .invariants_every = 500});
    const std::uint64_t units = ssd.logical_bytes() / 4096;
    std::mt19937_64 rng(7);
    TimeNs now = 0;
    for (int i = 0; i < 3 * static_cast<int>(units); ++i) {
      const std::uint64_t unit = rng() % units;
      const IoMode mode = i % 4 == 3 ? IoMode::kRead : IoMode::kWrite;
      const std::uint32_t size = rng() % 8 == 0 ? 16384 : 4096;
      if (unit * 4096 + size > ssd.logical_bytes()) continue;
      now = *ssd.start({unit * 4096, size, mode}, now);
    }
    const ftl::FtlStats& s = ssd.ftl().stats();
    EXPECT_GT(s.blocks_cleaned, 0u) << transfer;
    EXPECT_GT(s.padding_pages, 0u) << transfer;
    EXPECT_EQ(s.rmw_pages_read, 0u) << transfer;
  }
}

// Wear migration (Agrawal et al. §5) refills a worn block with a cold
// block's units, padding the last flash page it writes: the device written
// once (cold everywhere), then hot unit writes over its first 2 MiB.
TEST(MapUnits, WearMigrationMovesUnitsAndVerifies) {
  sim::Ssd ssd(tiny_16k("4KiB", {"ftl.wear_leveling=migration", "geometry.pe_cycles=50",
                                 "ftl.overprovisioning=0.3"}),
               {.verify = true, .invariants_every = 1000});
  ssd.prefill(0, ssd.logical_bytes());
  std::mt19937_64 rng(3);
  TimeNs now = 0;
  for (int i = 0; i < 60000; ++i)
    now = *ssd.start({(rng() % 512) * 4096, 4096, IoMode::kWrite}, now);
  EXPECT_GT(ssd.ftl().stats().wear_migrations, 0u);
}

// One 4 KiB read on an idle device: the array read, then the transfer of
// the whole page or of the unit's codeword.
TEST(MapUnits, AUnitReadMovesItsCodewordOnly) {
  const auto whole = tiny_16k("4KiB"),
             codeword =
                 tiny_16k("4KiB", {"timing.read_transfer=codeword", "timing.codeword_bytes=4KiB"});
  sim::Ssd a(whole, {.verify = true}), b(codeword, {.verify = true});
  a.prefill(0, 64 * 4096);
  b.prefill(0, 64 * 4096);
  const auto alone = [](sim::Ssd& ssd) {
    return *ssd.start({5 * 4096, 4096, IoMode::kRead}, kApart) - kApart;
  };
  const auto& g = whole.geometry;
  EXPECT_EQ(alone(a) - alone(b),
            whole.timing.page_transfer_ns(g) - codeword.timing.read_unit_transfer_ns(g));
}

TEST(MapUnits, OnlyThePageLevelFtlsTakeThem) {
  for (const char* type : {"block-mapped", "bast", "fast"})
    EXPECT_NE(support::preset_error("tiny-tlc",
                                    {"geometry.page_size=16KiB", "ftl.stripe_size=16KiB",
                                     "ftl.logical_page_size=4KiB", std::string("ftl.type=") + type})
                  .find("map units smaller than a page are the page-mapped FTL's and DFTL's"),
              std::string::npos)
        << type;
  EXPECT_NE(support::preset_error("tiny-tlc", {"geometry.page_size=16KiB", "ftl.stripe_size=48KiB",
                                               "ftl.logical_page_size=6KiB"})
                .find("does not divide it"),
            std::string::npos);
  sim::Ssd ssd(tiny_16k("4KiB"), {});
  EXPECT_NO_THROW(ssd.enable_power_cuts());
}

// One FTL call of several runs (a write buffer's flush): the units of one
// pool fill a page together, wherever their logical addresses are. On the
// tiny device a stripe is one 16 KiB page of 4 units and stripes go round
// its 2 pools (packages): units 0, 8, 16 and 24 are all the first pool's.
TEST_F(MapUnitFtl, RunsOfOnePoolFillOnePageTogether) {
  const std::vector<ftl::PageRange> runs{{0, 1, false, false},
                                         {8, 1, false, false},
                                         {16, 1, false, false},
                                         {24, 1, false, false}};
  CommandList out;
  ftl_->write_runs(runs, out);
  verifier_.host_write(ftl::PageRuns{runs}, out);
  ASSERT_EQ(out.size(), kUnits);
  EXPECT_EQ(count_if(out, [](const Command& c) { return !c.rides; }), 1u);
  for (const Command& c : out) EXPECT_EQ(c.ppn / kUnits, out[0].ppn / kUnits);
  EXPECT_EQ(ftl_->stats().padding_pages, 0u);
  // Two runs of different pools: two pages, each padded.
  const std::vector<ftl::PageRange> two{{1, 1, false, false}, {5, 1, false, false}};
  CommandList more;
  ftl_->write_runs(two, more);
  verifier_.host_write(ftl::PageRuns{two}, more);
  EXPECT_EQ(count_if(more, [](const Command& c) { return !c.rides; }), 2u);
  EXPECT_EQ(ftl_->stats().padding_pages, 6u);
  // A run of 3 then one of 2 in one pool: the second fills the first's page
  // and opens the next (not a page each): 8 slots, 3 of them padding.
  const std::vector<ftl::PageRange> uneven{{32, 3, false, false}, {41, 2, false, false}};
  CommandList third;
  ftl_->write_runs(uneven, third);
  verifier_.host_write(ftl::PageRuns{uneven}, third);
  EXPECT_EQ(third.size(), 2 * kUnits);
  EXPECT_EQ(ftl_->stats().padding_pages, 6u + 3u);
  ftl_->check_invariants();
}

// A write-back buffer over 4 KiB units packs them: random unit writes on an
// empty device (no cleaning) program whole pages only, until an idle period
// writes what is left and pads its last pages; without a buffer every unit
// write pads its page. Reads, from DRAM or flash, are verified throughout.
// (The cells are one-shot TLC: the buffer packs whole wordlines, a chunk of
// one on each of a pool's 4 planes, 48 units, and without it each write
// pads its wordline, 3 pages of 4 units.)
TEST(MapUnits, AWriteBufferPacksUnitsIntoWholePages) {
  const auto run = [](const std::vector<std::string>& buffer) {
    sim::Ssd ssd(tiny_16k("4KiB", buffer), {.verify = true, .invariants_every = 200});
    std::mt19937_64 rng(11);
    TimeNs now = 0;
    for (int i = 0; i < 2000; ++i) {
      const std::uint64_t unit = rng() % 2048;  // the first 8 MiB
      now = *ssd.start({unit * 4096, 4096, i % 5 == 4 ? IoMode::kRead : IoMode::kWrite}, now);
    }
    const ftl::FtlStats before_idle = ssd.ftl().stats();
    ssd.idle(now, now + kApart);
    return std::pair{before_idle, ssd.ftl().stats()};
  };
  const auto [buffered, after_idle] = run({"controller.write_buffer=1MiB"});
  EXPECT_EQ(buffered.blocks_cleaned, 0u);
  EXPECT_GT(buffered.host_pages_written, 0u);
  EXPECT_EQ(buffered.padding_pages, 0u);
  EXPECT_EQ(buffered.flash_pages_written, buffered.host_pages_written);
  // The idle flush writes everything: at most a chunk less one unit padded
  // per pool (a wordline on each of its planes).
  constexpr std::uint32_t kChunk = 4 * 3 * kUnits;
  EXPECT_GT(after_idle.host_pages_written, buffered.host_pages_written);
  EXPECT_GT(after_idle.padding_pages, 0u);
  EXPECT_LE(after_idle.padding_pages, 2u * (kChunk - 1));
  const auto [direct, direct_idle] = run({});
  EXPECT_EQ(direct.padding_pages, (3 * kUnits - 1) * direct.host_pages_written);
}

// Preconditioning with map units gathers its writes into whole pages too:
// host units pad only the last batch's pages (at most 3 slots in each of the
// 2 pools); what else is padded is the last page of each victim's moves
// (at most 3 slots a victim). Without gathering, every unit write pads 3.
// The cells are one-shot TLC: the pages are padded to whole wordlines, each
// victim's moves before its erase and each plane's host wordline at the
// end (at most 3 pages less a unit each); on these 48-page blocks, under a
// tenth of what the host wrote.
TEST(MapUnits, PreconditioningFillsWholePages) {
  sim::Ssd ssd(tiny_16k("4KiB"), {.verify = true});
  sim::precondition(ssd, workloads::parse_precondition("random"), 7);
  const ftl::FtlStats& s = ssd.ftl().stats();
  EXPECT_GT(s.host_pages_written, ssd.logical_bytes() / 4096);
  EXPECT_GT(s.blocks_cleaned, 0u);
  EXPECT_LE(s.padding_pages, (3 * kUnits - 1) * (s.blocks_cleaned + 8));
  EXPECT_LT(s.padding_pages, s.host_pages_written / 10);
  ssd.ftl().check_invariants();
}

// Prefill (what reads of never-written pages find first) writes runs of
// consecutive units, which fill whole pages and (the cells are one-shot
// TLC) whole wordlines: 1.5 MiB aligned, 4 wordlines on each of the 8
// planes, pads nothing; 1 MiB leaves one plane of each pool a page short of
// its last wordline, padded when the prefill ends (with no flash time).
TEST(MapUnits, PrefillWritesWholePages) {
  sim::Ssd ssd(tiny_16k("4KiB"), {.verify = true});
  EXPECT_EQ(ssd.prefill(0, 3 << 19), 384u);
  EXPECT_EQ(ssd.ftl().stats().padding_pages, 0u);
  EXPECT_EQ(ssd.ftl().stats().flash_pages_written, 384u);
  sim::Ssd short_of_wordlines(tiny_16k("4KiB"), {.verify = true});
  EXPECT_EQ(short_of_wordlines.prefill(0, 1 << 20), 256u);
  EXPECT_EQ(short_of_wordlines.ftl().stats().padding_pages, 8u);
  EXPECT_EQ(ssd.prefill(4096, 2 * 4096), 0u);  // written already
  ssd.ftl().check_invariants();
}

}  // namespace
}  // namespace ssdlab
