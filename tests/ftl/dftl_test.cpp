// DFTL (ftl/dftl.cpp): with a cache holding the whole map it behaves like the
// page-mapped FTL; the hit ratio falls as the cache shrinks under random
// writes and stays high under sequential ones; every translation page read
// and write is a flash command; it passes verification, checkpoints and trim;
// its keys are validated.
#include <gtest/gtest.h>

#include <sstream>

#include "cleaning_support.h"
#include "common/state_io.h"
#include "ftl/dftl_map_cache.h"
#include "ftl/verifier.h"
#include "policy_support.h"

namespace ssdlab::testing {
namespace {

sim::DeviceConfig dftl_tiny(std::vector<std::string> overrides = {}) {
  overrides.insert(overrides.begin(), "ftl.type=\"dftl\"");
  return tiny_with(overrides);
}

ftl::Lpn uniform_lpn(Rng& rng, std::uint64_t pages) {
  return static_cast<ftl::Lpn>(rng.uniform(pages));
}

TEST(Dftl, WholeMapCachedHasThePageMappedWriteAmplification) {
  const auto page_config = tiny_with({});
  auto page_mapped = make_ftl_from(page_config);
  const std::uint64_t pages = page_mapped->logical_pages();
  const auto config = dftl_tiny({"ftl.map_cache_entries=" + std::to_string(pages)});
  auto dftl = make_ftl_from(config);
  ASSERT_EQ(dftl->logical_pages(), pages) << "translation pages come out of the spare space";
  auto draw = [pages](Rng& rng) { return uniform_lpn(rng, pages); };
  const double page_wa = steady_write_amplification(*page_mapped, draw, 2 * pages, 6 * pages);
  const double dftl_wa = steady_write_amplification(*dftl, draw, 2 * pages, 6 * pages);
  EXPECT_DOUBLE_EQ(dftl_wa, page_wa);
  EXPECT_EQ(dftl->stats().translation_pages_written, 0u) << "nothing is ever evicted";
  EXPECT_GT(dftl->stats().map_cache_misses, 0u) << "the cache starts empty";
}

double random_write_hit_ratio(std::uint64_t cache_entries, std::uint64_t* translation_writes) {
  const auto config = dftl_tiny(
      {"ftl.map_cache_entries=" + std::to_string(cache_entries), "ftl.map_cache_prefetch=1"});
  auto ftl = make_ftl_from(config);
  const std::uint64_t pages = ftl->logical_pages();
  steady_write_amplification(
      *ftl, [pages](Rng& rng) { return uniform_lpn(rng, pages); }, 0, 4 * pages);
  *translation_writes = ftl->stats().translation_pages_written;
  EXPECT_NO_THROW(ftl->check_invariants());
  return ftl->stats().map_cache_hit_ratio();
}

// Under uniform random writes the hit ratio is about cache / map: it falls
// with the cache, and write-backs rise.
TEST(Dftl, HitRatioFallsAsTheCacheShrinksUnderRandomWrites) {
  const std::uint64_t pages = make_ftl_from(dftl_tiny())->logical_pages();
  double previous_ratio = 2.0;
  std::uint64_t previous_writes = 0;
  for (const std::uint64_t divisor : {2, 4, 16, 64}) {
    std::uint64_t writes = 0;
    const double ratio = random_write_hit_ratio(pages / divisor, &writes);
    EXPECT_LT(ratio, previous_ratio) << "cache of 1/" << divisor << " of the map";
    EXPECT_GE(writes, previous_writes) << "cache of 1/" << divisor << " of the map";
    // A random lookup hits with about the probability that its entry is cached.
    EXPECT_NEAR(ratio, 1.0 / static_cast<double>(divisor), 0.1) << divisor;
    previous_ratio = ratio;
    previous_writes = writes;
  }
}

TEST(Dftl, HitRatioStaysHighUnderSequentialWrites) {
  const std::uint32_t prefetch = 8;
  const auto config =
      dftl_tiny({"ftl.map_cache_entries=16", "ftl.map_cache_prefetch=" + std::to_string(prefetch)});
  auto ftl = make_ftl_from(config);
  const std::uint64_t pages = ftl->logical_pages();
  std::uint64_t next = 0;
  steady_write_amplification(
      *ftl, [&](Rng&) { return static_cast<ftl::Lpn>(next++ % pages); }, 0, 3 * pages);
  // One miss loads `prefetch` consecutive entries: the next prefetch - 1 hit.
  EXPECT_GE(ftl->stats().map_cache_hit_ratio(), 1.0 - 1.0 / prefetch - 0.01);
}

TEST(Dftl, TranslationTrafficIsFlashCommands) {
  const auto config = dftl_tiny({"ftl.map_cache_entries=32", "ftl.map_cache_prefetch=1"});
  auto ftl = make_ftl_from(config);
  const std::uint64_t pages = ftl->logical_pages();
  Rng rng(3);
  ftl::CommandList out;
  std::uint64_t translation_reads = 0, translation_programs = 0;
  for (int i = 0; i < 5000; ++i) {
    out.clear();
    ftl->write(ftl::PageRange{uniform_lpn(rng, pages), 1}, out);
    for (const auto& command : out) {
      if (command.cleaning || command.lpn < pages || command.lpn == flash::kNoLpn) continue;
      (command.op == flash::Op::kRead ? translation_reads : translation_programs) +=
          command.two_plane() ? 2 : 1;
      EXPECT_LT(command.stage, 2) << "translation work precedes the data (stage 2 on)";
    }
  }
  EXPECT_GT(translation_programs, 0u);
  EXPECT_EQ(translation_programs, ftl->stats().translation_pages_written);
  EXPECT_EQ(translation_reads, ftl->stats().translation_pages_read);
  EXPECT_GT(ftl->stats().translation_blocks_cleaned, 0u);
}

TEST(Dftl, PassesVerificationUnderAMixWithEveryPolicy) {
  for (const char* policy : {"greedy", "cost-benefit", "random", "fifo", "d-choices"}) {
    const auto config = dftl_tiny(
        {"ftl.map_cache_entries=40", std::string("ftl.victim_policy=\"") + policy + "\""});
    auto ftl = make_ftl_from(config);
    ftl::Verifier verifier(config.geometry, ftl->logical_pages(), config.ftl.copy_back);
    const auto counts = run_random_mix(*ftl, verifier, 20000, 9);
    EXPECT_GT(counts.trims, 0u);
    EXPECT_GT(ftl->stats().translation_pages_written, 0u) << policy;
    EXPECT_NO_THROW(ftl->check_invariants()) << policy;
  }
}

// A checkpoint taken mid-run, loaded into a fresh DFTL, gives the same
// commands from then on (cache contents and dirty entries included).
TEST(Dftl, CheckpointResumesWithTheSameCommands) {
  const auto config = dftl_tiny({"ftl.map_cache_entries=50", "ftl.victim_policy=\"cost-benefit\""});
  auto original = make_ftl_from(config);
  const std::uint64_t pages = original->logical_pages();
  auto draw = [pages](Rng& rng) { return uniform_lpn(rng, pages); };
  steady_write_amplification(*original, draw, 0, 3 * pages, 1);
  std::stringstream bytes;
  {
    StateWriter writer(&bytes);
    original->save_state(writer);
  }
  auto restored = make_ftl_from(config);
  {
    StateReader reader(bytes);
    restored->load_state(reader);
  }
  restored->check_invariants();
  Rng a(77), b(77);
  ftl::CommandList out_a, out_b;
  for (int i = 0; i < 3000; ++i) {
    out_a.clear();
    out_b.clear();
    original->write(ftl::PageRange{draw(a), 1}, out_a);
    restored->write(ftl::PageRange{draw(b), 1}, out_b);
    ASSERT_EQ(out_a.size(), out_b.size()) << "request " << i;
    for (std::size_t c = 0; c < out_a.size(); ++c) {
      ASSERT_EQ(out_a[c].ppn, out_b[c].ppn);
      ASSERT_EQ(out_a[c].op, out_b[c].op);
    }
  }
  EXPECT_EQ(original->stats().map_cache_hits, restored->stats().map_cache_hits);
}

// A mount after a cut: the map comes back from the OOB scan, and every
// translation page older than its data (the dirty cache entries the cut lost)
// is rewritten by the mount, once.
TEST(Dftl, MountRewritesTheTranslationPagesTheCutLeftStale) {
  const auto probe = make_ftl_from(dftl_tiny());
  const std::uint64_t pages = probe->logical_pages();
  const auto config = dftl_tiny({"ftl.map_cache_entries=" + std::to_string(pages)});
  auto ftl = make_ftl_from(config);
  ftl->flash_for_power_cut()->record_sequence_numbers();
  // The first half written once: its entries dirty in the cache, none on
  // flash, so its translation pages are stale; no cleaning yet.
  const std::uint64_t written = pages / 2;
  ftl::Lpn next = 0;
  steady_write_amplification(
      *ftl, [&](Rng&) { return next++; }, 0, written);
  ASSERT_EQ(ftl->stats().translation_pages_written, 0u);
  ASSERT_EQ(ftl->stats().blocks_cleaned, 0u);
  std::vector<flash::Ppn> before(pages);
  for (ftl::Lpn lpn = 0; lpn < pages; ++lpn) before[lpn] = ftl->locate(lpn);
  const std::uint64_t entries_per_page = config.geometry.page_size / 4;
  const std::uint64_t translation_pages = (written + entries_per_page - 1) / entries_per_page;
  ftl::CommandList out;
  ftl::RecoveryReport report;
  ftl->recover(ftl::RecoveryPolicy::kSequenceNumbers, out, report);
  EXPECT_EQ(ftl->stats().translation_pages_written, translation_pages);
  std::uint64_t programs = 0;
  for (const auto& command : out)
    programs += command.op == flash::Op::kProgram && command.lpn >= pages ? 1 : 0;
  EXPECT_EQ(programs, translation_pages);
  for (ftl::Lpn lpn = 0; lpn < pages; ++lpn) ASSERT_EQ(ftl->locate(lpn), before[lpn]) << lpn;
  ftl->check_invariants();
  out.clear();
  ftl->recover(ftl::RecoveryPolicy::kSequenceNumbers, out, report);
  EXPECT_EQ(ftl->stats().translation_pages_written, translation_pages) << "nothing stale now";
}

TEST(DftlConfig, KeysAreValidated) {
  EXPECT_THROW(tiny_with({"ftl.map_cache_entries=100"}), Error) << "page-mapped has no map cache";
  EXPECT_THROW(dftl_tiny({"ftl.map_cache_entries=100", "ftl.map_cache_bytes=\"4KiB\""}), Error);
  EXPECT_EQ(
      dftl_tiny({"ftl.map_cache_bytes=\"4KiB\""}).ftl.keys.get<ftl::DftlKeys>().map_cache_entries,
      4096 / ftl::kDftlCacheEntryBytes);
  // 0 is the default (2% of the map), as the config echo writes it: a
  // checkpoint's echo reads back (issue 51, M3).
  EXPECT_EQ(dftl_tiny({"ftl.map_cache_entries=0"}).ftl.keys.get<ftl::DftlKeys>().map_cache_entries,
            0u);
  EXPECT_THROW(dftl_tiny({"ftl.map_cache_entries=-1"}), Error);
  EXPECT_EQ(load_preset("dftl").ftl.type, "dftl");
}

}  // namespace
}  // namespace ssdlab::testing
