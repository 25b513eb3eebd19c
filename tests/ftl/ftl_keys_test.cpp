// Each FTL's own [ftl] keys (ftl/ftl_keys.h): the holder that hands them to
// its factory, and the errors for a key the chosen FTL does not take, which
// name the FTLs that do, found by asking each FTL's reader.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "ftl/ftl.h"
#include "ftl/ftl_keys.h"
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
  EXPECT_TRUE(config.keys.empty());
  EXPECT_EQ(config.keys.get<KnobKeys>().knob, 1);
  config.keys.emplace<KnobKeys>().knob = 5;
  const ftl::FtlConfig copy = config;  // as FtlContext copies it
  EXPECT_EQ(copy.keys.get<KnobKeys>().knob, 5);
  EXPECT_EQ(copy.keys.get<OtherKeys>().other, 2);
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
