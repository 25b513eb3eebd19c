// Each FTL's own [ftl] keys (ftl/ftl_keys.h): the holder that hands them to
// its factory, and the errors for a key the chosen FTL does not take, which
// name the FTLs that do, found by asking each FTL's reader.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "ftl/ftl.h"
#include "ftl/dftl_map_cache.h"
#include "ftl/ftl_keys.h"
#include "ftl/page_mapped/page_mapped_keys.h"
#include "sim/config/config.h"
#include "test_support.h"

namespace {

namespace support = ssdlab::testing;
using ::testing::AllOf;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::StartsWith;
using namespace ssdlab;

struct KnobKeys {
  int knob = 1;
};
struct OtherKeys {
  int other = 2;
};

TEST(FtlKeys, HoldsOneFtlsKeysAndGivesDefaultsOtherwise) {
  ftl::FtlConfig config;
  EXPECT_FALSE(config.keys.holds<KnobKeys>());
  EXPECT_EQ(config.keys.get<KnobKeys>().knob, 1);
  config.keys.emplace<KnobKeys>().knob = 5;
  const ftl::FtlConfig copy = config;  // as FtlContext copies it
  EXPECT_EQ(copy.keys.get<KnobKeys>().knob, 5);
  EXPECT_EQ(copy.keys.get<OtherKeys>().other, 2);
}

// One value per keys struct: storing another struct keeps the first (an FTL
// that takes another's keys, as dftl takes page-mapped's), storing the same
// one replaces it, and edit() changes the value held or stores the defaults.
TEST(FtlKeys, HoldsOneValuePerKeysStruct) {
  ftl::FtlKeys keys;
  keys.emplace(KnobKeys{.knob = 5});
  keys.emplace(OtherKeys{.other = 7});
  EXPECT_EQ(keys.get<KnobKeys>().knob, 5);
  EXPECT_EQ(keys.get<OtherKeys>().other, 7);
  keys.emplace(KnobKeys{.knob = 6});
  EXPECT_EQ(keys.get<KnobKeys>().knob, 6);
  keys.edit<OtherKeys>().other += 1;
  EXPECT_EQ(keys.get<OtherKeys>().other, 8);
  ftl::FtlKeys fresh;
  fresh.edit<OtherKeys>().other += 1;
  EXPECT_EQ(fresh.get<OtherKeys>().other, 3);
  EXPECT_FALSE(fresh.holds<KnobKeys>());
}

// DFTL reads the page-mapped FTL's keys and its map cache's: both kept,
// both echoed, and the echo reads back to the same.
TEST(FtlKeys, DftlHoldsThePageMappedKeysAndItsOwn) {
  const auto config = sim::load_config(
      support::preset("tiny"),
      {"ftl.type=\"dftl\"", "ftl.victim_policy=\"fifo\"", "ftl.map_cache_prefetch=2"});
  EXPECT_EQ(config.ftl.keys.get<ftl::PageMappedKeys>().victim.kind, ftl::VictimPolicyKind::kFifo);
  EXPECT_EQ(config.ftl.keys.get<ftl::DftlKeys>().map_cache_prefetch, 2u);
  const auto echo = sim::to_json(config);
  EXPECT_EQ(echo["ftl"]["victim_policy"], "fifo");
  EXPECT_EQ(echo["ftl"]["map_cache_prefetch"], 2u);
}

TEST(FtlKeys, FtlsReadingAKeyAreTheFtlsWhoseReaderAsksForIt) {
  const auto geometry = support::load_preset("tiny").geometry;
  EXPECT_THAT(ftl::ftls_reading("ftl.map_cache_entries", geometry), ElementsAre("dftl"));
  EXPECT_THAT(ftl::ftls_reading("ftl.clean_scope", geometry),
              ElementsAre("page-mapped", "dftl"));
  EXPECT_THAT(ftl::ftls_reading("ftl.reserved_blocks", geometry), ElementsAre("example"));
  EXPECT_THAT(ftl::ftls_reading("ftl.no_such_key", geometry), IsEmpty());
}

TEST(FtlKeys, AKeyOfOtherFtlsIsRefusedNamingThemAll) {
  EXPECT_THAT(
      support::preset_error("tiny", {"ftl.type=\"example\"", "ftl.clean_granularity=\"one-victim\""}),
      StartsWith("--set ftl.clean_granularity=\"one-victim\": ftl.clean_granularity: only the "
                 "page-mapped, block-mapped, bast, fast and dftl FTLs use it ('example' does "
                 "not)"));
}

TEST(FtlKeys, AKeyNoFtlTakesIsUnknownWithASuggestion) {
  EXPECT_THAT(support::preset_error("tiny", {"ftl.clean_scop=\"plane\""}),
              AllOf(StartsWith("--set ftl.clean_scop=\"plane\": unknown key 'ftl.clean_scop'"),
                    HasSubstr("did you mean 'ftl.clean_scope'")));
}

TEST(FtlKeys, EveryFtlHasADescription) {
  for (const auto& name : ftl::ftl_names())
    EXPECT_NE(ftl::ftl_key_hooks(name).describe, nullptr) << name;
  EXPECT_THROW(ftl::ftl_key_hooks("no-such-ftl"), Error);
}

}  // namespace
