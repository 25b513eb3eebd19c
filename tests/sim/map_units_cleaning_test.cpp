// Cleaning with map units smaller than the flash page (docs/model.md, "Map
// units"; ftl/page_mapped/page_mapped_cleaning.cpp): a victim's erase waits
// until the units moved out of it are on flash, so that the next victim's
// units fill its last page instead of padding; and DFTL, whose translation
// blocks leave victims nearly full, cleans a full drive with units.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "ftl/ftl.h"
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

// The FTL of preset GetParam() with 16 KiB pages mapped in 4 KiB units, its
// commands checked by a verifier that follows units.
class MapUnitCleaning : public ::testing::TestWithParam<std::string>, public support::VerifiedFtl {
 protected:
  MapUnitCleaning()
      : VerifiedFtl(sim::load_config(
            support::preset(GetParam()),
            {"geometry.page_size=16KiB", "ftl.stripe_size=16KiB", "ftl.logical_page_size=4KiB"})) {}
};

using support::count_if;

// The Ssd of `preset` with 16 KiB pages mapped in 4 KiB units and the keys
// `extra`, every command verified (the FTL's invariants every
// `invariants_every` requests), randomly preconditioned (seed `seed`).
std::unique_ptr<sim::Ssd> preconditioned_in_units(const std::string& preset,
                                                  const std::vector<std::string>& extra,
                                                  std::uint64_t invariants_every,
                                                  std::uint64_t seed) {
  std::vector<std::string> keys = {"geometry.page_size=16KiB", "ftl.stripe_size=16KiB",
                                   "ftl.logical_page_size=4KiB"};
  keys.insert(keys.end(), extra.begin(), extra.end());
  auto ssd = std::make_unique<sim::Ssd>(sim::load_config(support::preset(preset), keys),
                                        sim::SsdChecks{true, invariants_every});
  sim::precondition(*ssd, workloads::parse_precondition("random"), seed);
  return ssd;
}

// A cleaned victim is erased once the pages (one-shot cells: wordlines) its
// units went to are programmed, not after padding its last page: one call
// that cleans many victims (a 2 MiB write on a full device) pads only the
// pages its cleaning left open, and each erase comes after every move out
// of its block. Padding before each erase (the mutation) padded 189 units
// on tiny-tlc.
TEST_P(MapUnitCleaning, PacksTheUnitsOfSuccessiveVictimsIntoOnePage) {
  const std::uint32_t wordline = GetParam() == "tiny" ? 1 : 3;  // pages
  const auto units = static_cast<ftl::Lpn>(ftl_->logical_pages());
  write(0, units);
  std::mt19937_64 rng(11);
  for (int i = 0; i < 4 * static_cast<int>(units); ++i) write(rng() % units, 1);
  const CommandList out = write(0, 512);
  const auto erases = count_if(out, [](const Command& c) { return c.op == Op::kErase; });
  const auto cleaning_padding = count_if(out, [](const Command& c) {
    return c.cleaning && c.op == Op::kProgram && c.lpn == flash::kNoLpn;
  });
  EXPECT_GE(erases, 8u);
  // At most the last wordline of each plane's cleaning block (8 planes).
  EXPECT_LE(cleaning_padding, 8u * (wordline * kUnits - 1));
  const std::uint32_t block_units = ftl_->nand().geometry().pages_per_block;
  for (std::size_t i = 0; i < out.size(); ++i) {
    if (out[i].op != Op::kErase) continue;
    for (std::size_t j = i + 1; j < out.size(); ++j)
      EXPECT_FALSE(out[j].op == Op::kMove && out[j].src >= out[i].ppn &&
                   out[j].src < out[i].ppn + block_units)
          << "a move out of a block after its erase";
  }
  ftl_->check_invariants();
}

INSTANTIATE_TEST_SUITE_P(Presets, MapUnitCleaning, ::testing::Values("tiny", "tiny-tlc"));

// DFTL maps units too. On a full drive its translation blocks leave
// victims with few invalid units (61 of 64 on tiny): padding each one's
// last page before its erase freed nothing net, and cleaning ran until the
// blocks wore out. Random preconditioning, then random unit writes, every
// read checked.
TEST(MapUnitCleaningDftl, MapsUnitsThroughCleaningOnAFullDrive) {
  const auto made = preconditioned_in_units("tiny", {"ftl.type=dftl"}, 500, 7);
  sim::Ssd& ssd = *made;
  ASSERT_EQ(ssd.core().map_units_per_page(), 4u);
  const std::uint64_t units = ssd.logical_bytes() / 4096;
  std::mt19937_64 rng(5);
  TimeNs now = 0;
  const ftl::FtlStats before = ssd.ftl().stats();
  for (int i = 0; i < 8000; ++i) {
    const IoMode mode = i % 4 == 3 ? IoMode::kRead : IoMode::kWrite;
    now = *ssd.start({(rng() % units) * 4096, 4096, mode}, now);
  }
  const ftl::FtlStats& s = ssd.ftl().stats();
  EXPECT_GT(s.translation_pages_written, before.translation_pages_written);
  EXPECT_GT(s.blocks_cleaned, before.blocks_cleaned);
  // Each 4 KiB write pads its page (no write buffer) and cleans: a few flash
  // units per host unit, not the thousands of a cleaning that frees nothing.
  const double wa = static_cast<double>(s.flash_pages_written - before.flash_pages_written) /
                    static_cast<double>(s.host_pages_written - before.host_pages_written);
  EXPECT_LT(wa, 40.0);
  EXPECT_EQ(s.rmw_pages_read, 0u);
}

// With an SLC cache and little over-provisioning the FTL exported more than
// fits beside its open blocks (DFTL's translation block and the cache's
// block per plane were not counted): cleaning could not get back to its
// mark, and on the TLC preset at a fortieth ran until memory ran out (17 GB,
// bad_alloc); here it ended with "full of valid data" (4 seeds of 4 in
// 100,000 writes with `ssdlab sim`).
TEST(MapUnitCleaningDftl, CleansAFullDriveWithAnSlcCacheAndLittleSpare) {
  const auto made = preconditioned_in_units(
      "tiny-tlc",
      {"ftl.type=dftl", "slc_cache.mode=\"dynamic\"", "slc_cache.size_gib=0.02",
       "slc_cache.static_gib=0.004", "ftl.overprovisioning=0.02", "geometry.pe_cycles=100000"},
      2000, 7);
  sim::Ssd& ssd = *made;
  const std::uint64_t units = ssd.logical_bytes() / 4096;
  std::mt19937_64 rng(5);
  TimeNs now = 0;
  const std::uint64_t cleaned = ssd.ftl().stats().blocks_cleaned;
  for (int i = 0; i < 60000; ++i)
    now = *ssd.start({(rng() % units) * 4096, 4096, i % 8 == 7 ? IoMode::kRead : IoMode::kWrite},
                     now);
  EXPECT_GT(ssd.ftl().stats().blocks_cleaned, cleaned + 100);
}

// Incremental cleaning with map units (GetParam(): "FTL budget", the budget
// in unit moves per page written). A victim in progress keeps its moves in
// an open page between writes: a host write superseding one of them in the
// same call (preconditioning's batches of runs) programmed its new version
// before the move of the old one reached the flash (the verifier's "move
// ... finds version", budgets 1 and 2 here); and victims of the pool's
// planes cleaned under the emergency floor each left their last page open,
// waiting for their erase, until the moves found no room ("cleaning found
// no room for the valid pages it moves", budgets 1 to 8 here). Random
// preconditioning, then writes of 32 KiB and 4 KiB, every command checked.
class IncrementalMapUnits : public ::testing::TestWithParam<std::string> {};

TEST_P(IncrementalMapUnits, KeepsEveryWriteAndFindsRoomForTheMoves) {
  std::istringstream words(GetParam());
  std::string type, budget;
  words >> type >> budget;
  const auto made =
      preconditioned_in_units("tiny",
                              {"ftl.type=" + type, "ftl.clean_granularity=\"incremental\"",
                               "ftl.clean_incremental_pages=" + budget},
                              1000, 1);
  sim::Ssd& ssd = *made;
  const std::uint64_t units = ssd.logical_bytes() / 4096;
  std::mt19937_64 rng(3);
  TimeNs now = 0;
  const std::uint64_t cleaned = ssd.ftl().stats().blocks_cleaned;
  for (int i = 0; i < 6000; ++i) {
    const std::uint64_t size = i % 2 == 0 ? 8 : 1;
    now = *ssd.start({(rng() % (units - size)) * 4096, size * 4096, IoMode::kWrite}, now);
  }
  EXPECT_GT(ssd.ftl().stats().blocks_cleaned, cleaned + 50);
  ssd.ftl().check_invariants();
}

INSTANTIATE_TEST_SUITE_P(Budgets, IncrementalMapUnits,
                         ::testing::Values("page-mapped 1", "page-mapped 2", "page-mapped 4",
                                           "page-mapped 8", "dftl 1", "dftl 4", "dftl 8"),
                         support::WordsParamName());

// The same through the FTL alone, each call's commands checked in list
// order: writes of 8 units (two pages and more), calls of 32 runs of a unit
// (a write buffer's flush) and trims, whose later units the cleaning before
// a later page may move.
TEST(IncrementalMapUnitsOrder, MovesReachTheFlashBeforeTheHostRewritesOrTrimsTheirUnits) {
  for (const char* budget : {"12", "16", "6"}) {
    SCOPED_TRACE(budget);
    support::VerifiedFtl ftl(sim::load_config(
        support::preset("tiny"),
        {"geometry.page_size=16KiB", "ftl.stripe_size=16KiB", "ftl.logical_page_size=4KiB",
         "ftl.copy_back=false", "ftl.clean_granularity=\"incremental\"",
         std::string("ftl.clean_incremental_pages=") + budget}));
    const auto units = static_cast<ftl::Lpn>(ftl.logical_pages());
    for (ftl::Lpn lpn = 0; lpn < units; lpn += 64)
      ftl.write(lpn, std::min<ftl::Lpn>(64, units - lpn));
    std::mt19937_64 rng(9);
    std::vector<ftl::PageRange> runs;
    for (int i = 0; i < 4000; ++i) {
      const ftl::Lpn first = rng() % (units - 8);
      if (i % 4 == 0) {
        std::vector<ftl::Lpn> lpns(32);
        for (ftl::Lpn& lpn : lpns) lpn = rng() % units;
        std::sort(lpns.begin(), lpns.end());  // (a flush's runs: ascending, apart)
        lpns.erase(std::unique(lpns.begin(), lpns.end()), lpns.end());
        runs.clear();
        for (const ftl::Lpn lpn : lpns) runs.push_back({lpn, 1, false, false});
        ftl.write_runs(runs);
      } else if (i % 4 == 1) {
        ftl.trim(first, 4);
      } else {
        ftl.write(first, 8);
      }
    }
    EXPECT_GT(ftl.stats().blocks_cleaned, 500u);
    ftl.check_invariants();
  }
}

}  // namespace
}  // namespace ssdlab
