// SLC cache fold orders registered by code of one's own (ftl/register.h,
// SSDLAB_REGISTER_SLC_FOLD_ORDER): chosen by slc_cache.fold_order, a key of
// the valid pages folds exactly as the built-in greedy does and a key of the
// seal rank exactly as fifo, another key folds other blocks, and every read
// still returns the latest write.
#include <gtest/gtest.h>

#include <string>

#include "cleaning_support.h"
#include "common/error.h"
#include "ftl/register.h"
#include "ftl/verifier.h"
#include "policy_support.h"

namespace ssdlab::testing {
namespace {

std::uint64_t fewest_valid_key(const ftl::SlcFoldCandidate& c) {
  return c.valid_pages;
}
std::uint64_t seal_rank_key(const ftl::SlcFoldCandidate& c) {
  return c.seal_rank;
}
// The opposite of greedy: the block with the most valid pages first.
std::uint64_t most_valid_key(const ftl::SlcFoldCandidate& c) {
  return c.pages_per_block - c.valid_pages;
}

SSDLAB_REGISTER_SLC_FOLD_ORDER("test-fewest-valid", fewest_valid_key);
SSDLAB_REGISTER_SLC_FOLD_ORDER("test-seal-rank", seal_rank_key);
SSDLAB_REGISTER_SLC_FOLD_ORDER("test-most-valid", most_valid_key);

// tiny-tlc with a dynamic cache of 4 MiB that folds when full.
sim::DeviceConfig cache_with(const std::string& order) {
  return sim::load_config(
      preset("tiny-tlc"),
      {"slc_cache.mode=\"dynamic\"", "slc_cache.size_gib=0.004", "slc_cache.when_full=\"fold\"",
       "slc_cache.fold_order=\"" + order + "\""});
}

// Runs the same random overwrites on FTLs with fold orders `a` and `b`:
// whether every command list was the same; the pages each folded.
struct Compared {
  bool same = true;
  std::uint64_t folded_a = 0, folded_b = 0;
};
Compared compare(const std::string& a, const std::string& b) {
  auto ftl_a = make_ftl_from(cache_with(a), 5), ftl_b = make_ftl_from(cache_with(b), 5);
  const auto pages = static_cast<ftl::Lpn>(ftl_a->logical_pages());
  Rng rng(3);
  ftl::CommandList out_a, out_b;
  Compared result;
  for (int i = 0; i < 6 * static_cast<int>(pages); ++i) {
    const ftl::PageRange range{static_cast<ftl::Lpn>(rng.uniform(pages)), 1};
    out_a.clear();
    out_b.clear();
    ftl_a->write(range, out_a);
    ftl_b->write(range, out_b);
    if (out_a.size() != out_b.size()) result.same = false;
    for (std::size_t c = 0; result.same && c < out_a.size(); ++c)
      result.same = out_a[c].ppn == out_b[c].ppn && out_a[c].src == out_b[c].src;
  }
  result.folded_a = ftl_a->part_records().slc_cache->pages_folded;
  result.folded_b = ftl_b->part_records().slc_cache->pages_folded;
  return result;
}

TEST(RegisteredFoldOrder, AKeyOfTheValidPagesFoldsAsGreedyAndOneOfTheSealRankAsFifo) {
  const Compared greedy = compare("greedy", "test-fewest-valid");
  EXPECT_TRUE(greedy.same);
  EXPECT_GT(greedy.folded_a, 1000u);
  EXPECT_EQ(greedy.folded_a, greedy.folded_b);
  const Compared fifo = compare("fifo", "test-seal-rank");
  EXPECT_TRUE(fifo.same);
  EXPECT_EQ(fifo.folded_a, fifo.folded_b);
  // (The two built-ins differ here, so the sameness above says something.)
  EXPECT_FALSE(compare("greedy", "fifo").same);
}

TEST(RegisteredFoldOrder, AnotherKeyFoldsOtherBlocksAndLosesNoData) {
  const Compared opposite = compare("greedy", "test-most-valid");
  EXPECT_FALSE(opposite.same);
  EXPECT_NE(opposite.folded_b, opposite.folded_a);
  const auto config = cache_with("test-most-valid");
  auto ftl = make_ftl_from(config);
  ftl::Verifier verifier(config.geometry, ftl->logical_pages(), config.ftl.copy_back);
  run_random_mix(*ftl, verifier, 20000, 7);
  EXPECT_GT(ftl->part_records().slc_cache->pages_folded, 0u);
  EXPECT_NO_THROW(ftl->check_invariants());
}

TEST(RegisteredFoldOrder, IsNamedInTheConfigAndItsErrors) {
  const auto config = cache_with("test-most-valid");
  EXPECT_EQ(config.ftl.slc_cache.fold_order, ftl::SlcFoldOrder::kRegistered);
  EXPECT_EQ(ftl::slc_fold_order_name(config.ftl.slc_cache), "test-most-valid");
  try {
    cache_with("test-most");
    FAIL() << "no error";
  } catch (const Error& error) {
    const std::string what = error.what();
    EXPECT_NE(what.find("slc_cache.fold_order"), std::string::npos) << what;
    EXPECT_NE(what.find("fifo, greedy, "), std::string::npos) << what;
    EXPECT_NE(what.find("test-most-valid"), std::string::npos) << what;
  }
  EXPECT_THROW(ftl::register_slc_fold_order("greedy", most_valid_key), Error);
  EXPECT_THROW(ftl::register_slc_fold_order("test-most-valid", most_valid_key), Error);
}

}  // namespace
}  // namespace ssdlab::testing
