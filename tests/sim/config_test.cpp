// Device configs: the presets load, and every kind of bad input gives one
// ssdlab::Error that names the file, the line, the key and what is allowed.
#include "sim/config/config.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "common/error.h"
#include "config_fixture.h"
#include "ftl/block_keys.h"
#include "test_support.h"

namespace {

namespace support = ssdlab::testing;
namespace ftl = ssdlab::ftl;
namespace sim = ssdlab::sim;
using ssdlab::testing::ConfigTest;
using ::testing::AllOf;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::Pair;
using ::testing::StartsWith;

TEST_F(ConfigTest, BaselinePresetLoadsThePapersGeometryAndTiming) {
  const auto config = support::load_preset("agrawal-baseline");
  EXPECT_EQ(config.source, support::preset("agrawal-baseline"));
  EXPECT_THAT(config.name, HasSubstr("Agrawal"));
  const auto& g = config.geometry;
  EXPECT_EQ(g.channels, 8u);
  EXPECT_EQ(g.packages_per_channel, 1u);
  EXPECT_EQ(g.dies_per_package, 2u);
  EXPECT_EQ(g.planes_per_die, 4u);
  EXPECT_EQ(g.blocks_per_plane, 2048u);
  EXPECT_EQ(g.pages_per_block, 64u);
  EXPECT_EQ(g.page_size, 4096u);
  EXPECT_EQ(g.oob_size, 128u);
  EXPECT_THAT(g.two_plane_pairs, ElementsAre(Pair(0u, 1u), Pair(2u, 3u)));
  EXPECT_EQ(g.capacity_bytes(), 32ull << 30);
  EXPECT_EQ(config.timing.read_ns, 25'000);
  EXPECT_EQ(config.timing.program_ns, 200'000);
  EXPECT_EQ(config.timing.erase_ns, 1'500'000);
  EXPECT_EQ(config.timing.bus_ps_per_byte, 25'000);
  EXPECT_EQ(config.ftl.type, "page-mapped");
  EXPECT_EQ(config.ftl.logical_page_size, 4096u);
  EXPECT_EQ(config.ftl.stripe_size, 4096u);
  EXPECT_EQ(config.ftl.pool, ssdlab::ftl::PoolScope::kPackage);
  EXPECT_DOUBLE_EQ(config.ftl.overprovisioning, 0.15);
  EXPECT_EQ(config.sector_size, 512u);
}

TEST_F(ConfigTest, TinyPresetLoadsASixteenMebibyteDevice) {
  const auto config = support::load_preset("tiny");
  const auto& g = config.geometry;
  EXPECT_EQ(g.channels, 2u);
  EXPECT_EQ(g.packages_per_channel, 1u);
  EXPECT_EQ(g.dies_per_package, 2u);
  EXPECT_EQ(g.planes_per_die, 2u);
  EXPECT_EQ(g.blocks_per_plane, 32u);
  EXPECT_EQ(g.pages_per_block, 16u);
  EXPECT_EQ(g.page_size, 4096u);
  EXPECT_THAT(g.two_plane_pairs, ElementsAre(Pair(0u, 1u)));
  EXPECT_EQ(g.pages(), 4096u);
  EXPECT_EQ(g.capacity_bytes(), 16ull << 20);
}

// The scale preset differs from the baseline in capacity only, so that its
// speed and memory figures compare with the baseline's (README "Performance").
TEST_F(ConfigTest, OneTebibytePresetIsTheBaselineWithMoreBlocks) {
  const auto big = support::load_preset("agrawal-1tib");
  const auto base = support::load_preset("agrawal-baseline");
  EXPECT_EQ(big.geometry.capacity_bytes(), 1ull << 40);
  EXPECT_EQ(big.geometry.blocks_per_plane, 32 * base.geometry.blocks_per_plane);
  auto scaled = big.geometry;
  scaled.blocks_per_plane = base.geometry.blocks_per_plane;
  EXPECT_EQ(scaled.pages(), base.geometry.pages());
  EXPECT_EQ(scaled.channels, base.geometry.channels);
  EXPECT_EQ(scaled.dies(), base.geometry.dies());
  EXPECT_EQ(scaled.two_plane_pairs, base.geometry.two_plane_pairs);
  EXPECT_EQ(big.timing.read_ns, base.timing.read_ns);
  EXPECT_EQ(big.timing.program_ns, base.timing.program_ns);
  EXPECT_EQ(big.timing.erase_ns, base.timing.erase_ns);
  EXPECT_EQ(big.ftl.type, base.ftl.type);
  EXPECT_EQ(big.ftl.overprovisioning, base.ftl.overprovisioning);
}

TEST_F(ConfigTest, BlockFtlPresetsLoadTheirVirtualBlocksAndLogBlocks) {
  const auto usb = support::load_preset("usb-stick");
  EXPECT_EQ(usb.ftl.type, "block-mapped");
  EXPECT_EQ(usb.ftl.keys.get<ftl::BlockKeys>().virtual_block_size, 512u << 10);
  const auto bast = support::load_preset("bast-ssd");
  EXPECT_EQ(bast.ftl.type, "bast");
  EXPECT_EQ(bast.ftl.keys.get<ftl::BlockKeys>().virtual_block_size, 1u << 20);
  EXPECT_EQ(bast.ftl.keys.get<ftl::BlockKeys>().log_blocks, 16u);
  EXPECT_EQ(support::load_preset("fast-ssd").ftl.type, "fast");
  // Echoed into summary.json.
  const auto json = ssdlab::sim::to_json(bast);
  EXPECT_EQ(json["ftl"]["virtual_block_size"], 1u << 20);
  EXPECT_EQ(json["ftl"]["log_blocks"], 16u);
}

TEST_F(ConfigTest, VirtualBlockSizeDefaultsToOneFlashBlock) {
  const auto config = sim::load_config(support::preset("tiny"), {"ftl.type=\"bast\""});
  EXPECT_EQ(config.ftl.keys.get<ftl::BlockKeys>().virtual_block_size,
            config.geometry.pages_per_block * config.geometry.page_size);
}

// The block FTLs' keys are theirs: the page-level FTLs take them, unused (an
// echo written before carries them), and neither hold nor echo them.
TEST_F(ConfigTest, PageMappedTakesTheBlockFtlsKeysUnusedAndDoesNotEchoThem) {
  const auto config = sim::load_config(support::preset("tiny"), {"ftl.log_blocks=4"});
  EXPECT_FALSE(config.ftl.keys.holds<ftl::BlockKeys>());
  const auto json = sim::to_json(config);
  EXPECT_FALSE(json["ftl"].contains("log_blocks"));
  EXPECT_FALSE(json["ftl"].contains("virtual_block_size"));
}

TEST_F(ConfigTest, ZeroLogBlocksIsOutOfRange) {
  const std::string path = Write("[ftl]\ntype = \"bast\"\nlog_blocks = 0\n");
  EXPECT_EQ(ErrorOf(path), path + ":3: ftl.log_blocks: 0 is out of range: allowed 1 to 1048576");
}

TEST_F(ConfigTest, LogBlocksThatLeaveNoRoomForDataAreRejected) {
  const std::string path = Write(
      "[geometry]\nchannels = 1\ndies_per_package = 1\nplanes_per_die = 1\nblocks_per_plane = 8\n"
      "[ftl]\ntype = \"fast\"\nlog_blocks = 6\n");
  EXPECT_THAT(ErrorOf(path), AllOf(StartsWith(path + ":8: ftl.log_blocks: 6 log blocks leave no "
                                                     "room for data"),
                                   HasSubstr("8 virtual blocks")));
}

TEST_F(ConfigTest, VirtualBlockThatIsNotWholeFlashBlocksIsRejected) {
  // The default geometry: 256 KiB flash blocks, 64 planes.
  const std::string path =
      Write("[ftl]\ntype = \"block-mapped\"\nvirtual_block_size = \"384KiB\"\n");
  EXPECT_THAT(ErrorOf(path),
              StartsWith(path + ":3: ftl.virtual_block_size: 393216 must be a whole number of "
                                "262144-byte flash blocks"));
  const std::string wide = Write("[ftl]\ntype = \"bast\"\nvirtual_block_size = \"768KiB\"\n");
  EXPECT_THAT(ErrorOf(wide), AllOf(StartsWith(wide + ":3: ftl.virtual_block_size: "),
                                   HasSubstr("must divide the 64 planes")));
}

TEST_F(ConfigTest, VirtualBlocksTooLargeForBlockMappingAreRejected) {
  const std::string path = Write(
      "[geometry]\nchannels = 2\ndies_per_package = 1\nplanes_per_die = 1\nblocks_per_plane = 1\n"
      "[ftl]\ntype = \"block-mapped\"\n");
  EXPECT_THAT(ErrorOf(path), StartsWith(path + ":6: ftl.virtual_block_size: 262144 bytes leaves 2 "
                                               "virtual blocks: block-mapped needs at least 3"));
}

TEST_F(ConfigTest, BlockFtlsNeedTheLogicalPageToBeTheFlashPage) {
  const std::string path =
      Write("[ftl]\ntype = \"fast\"\nlogical_page_size = 8192\nstripe_size = 8192\n");
  EXPECT_THAT(ErrorOf(path), StartsWith(path + ":3: ftl.logical_page_size: fast FTL maps whole "
                                               "flash pages: logical_page_size must be 4096"));
}

TEST_F(ConfigTest, BadLogBlocksOverrideNamesTheOverride) {
  EXPECT_THAT(ErrorOf(support::preset("bast-ssd"), {"ftl.log_blocks=-1"}),
              StartsWith("--set ftl.log_blocks=-1: ftl.log_blocks: -1 is out of range"));
}

TEST_F(ConfigTest, UnknownKeyNamesFileLineAndKey) {
  const std::string path = Write(
      "# a device\n"
      "[geometry]\n"
      "channels = 2\n"
      "chanels = 4\n");
  EXPECT_THAT(ErrorOf(path),
              AllOf(StartsWith(path + ":4: "), HasSubstr("unknown key 'geometry.chanels'"),
                    HasSubstr("known in [geometry]: "), HasSubstr("channels")));
}

TEST_F(ConfigTest, UnknownKeyInALaterTableNamesItsOwnLine) {
  const std::string path = Write(
      "[geometry]\n"
      "channels = 2\n"
      "\n"
      "[timing]\n"
      "read_us = 25\n"
      "reed_us = 30\n");
  EXPECT_THAT(ErrorOf(path),
              AllOf(StartsWith(path + ":6: "), HasSubstr("unknown key 'timing.reed_us'")));
}

TEST_F(ConfigTest, UnknownTableNamesFileLineAndTheKnownTables) {
  const std::string path = Write(
      "[geometry]\n"
      "channels = 2\n"
      "\n"
      "[gometry]\n"
      "channels = 2\n");
  EXPECT_THAT(ErrorOf(path), AllOf(StartsWith(path + ":4: "), HasSubstr("unknown table 'gometry'"),
                                   HasSubstr("known: device, geometry, timing, timing.cell, "
                                             "timing.slc_mode, ftl, slc_cache, host")));
}

TEST_F(ConfigTest, ValueWhereATableBelongsSaysItMustBeATable) {
  // `geometry` is a known table: calling it unknown would send the user looking
  // for a typo that is not there.
  const std::string path = Write("geometry = 5\n");
  EXPECT_THAT(ErrorOf(path), AllOf(StartsWith(path + ":1: "), HasSubstr("geometry"),
                                   Not(HasSubstr("unknown table 'geometry'"))));
}

TEST_F(ConfigTest, ZeroChannelsIsOutOfRangeAndShowsTheAllowedRange) {
  const std::string path = Write("[geometry]\ndies_per_package = 2\nchannels = 0\n");
  EXPECT_EQ(ErrorOf(path), path + ":3: geometry.channels: 0 is out of range: allowed 1 to 1024");
}

TEST_F(ConfigTest, PageSizeThatIsNotAMultipleOf512IsRejected) {
  const std::string path = Write("[geometry]\npage_size = 4000\n");
  EXPECT_THAT(ErrorOf(path), AllOf(StartsWith(path + ":2: geometry.page_size: "),
                                   HasSubstr("4000 is not a multiple of 512")));
}

TEST_F(ConfigTest, PageSizeAboveTheMaximumShowsTheAllowedRange) {
  const std::string path = Write("[geometry]\npage_size = \"1MiB\"\n");
  EXPECT_THAT(ErrorOf(path), AllOf(StartsWith(path + ":2: geometry.page_size: "),
                                   HasSubstr("allowed 512 to 65536")));
}

TEST_F(ConfigTest, OverprovisioningAboveNinetyPercentShowsTheAllowedRange) {
  const std::string path = Write("[ftl]\ntype = \"page-mapped\"\noverprovisioning = 0.95\n");
  EXPECT_EQ(ErrorOf(path),
            path + ":3: ftl.overprovisioning: 0.95 is out of range: allowed from 0 to 0.9");
}

TEST_F(ConfigTest, NegativeReadTimeIsOutOfRange) {
  const std::string path = Write("[timing]\nread_us = -25\n");
  EXPECT_THAT(ErrorOf(path),
              AllOf(StartsWith(path + ":2: timing.read_us: "), HasSubstr("-25 is out of range"),
                    HasSubstr("allowed above 0 to 1000000")));
}

TEST_F(ConfigTest, ZeroEraseTimeIsOutOfRange) {
  const std::string path = Write("[timing]\nread_us = 25\nerase_us = 0\n");
  EXPECT_THAT(ErrorOf(path), AllOf(StartsWith(path + ":3: timing.erase_us: "),
                                   HasSubstr("allowed above 0 to 10000000")));
}

TEST_F(ConfigTest, ReadTimeThatRoundsToZeroNanosecondsIsRejected) {
  // 0.0001 us is "above 0", but it is stored as 0 ns: a flash read that takes
  // no time, which the range promises cannot happen.
  const std::string path = Write("[timing]\nread_us = 0.0001\n");
  EXPECT_THAT(ErrorOf(path), AllOf(StartsWith(path + ":2: "), HasSubstr("timing.read_us")));
}

TEST_F(ConfigTest, StringWhereAnIntegerBelongsIsATypeError) {
  const std::string path = Write("[geometry]\nchannels = \"eight\"\n");
  EXPECT_EQ(ErrorOf(path), path + ":2: geometry.channels: expected an integer between 1 and 1024");
}

TEST_F(ConfigTest, FloatWhereAnIntegerBelongsIsATypeError) {
  const std::string path = Write("[geometry]\npages_per_block = 64.5\n");
  EXPECT_EQ(ErrorOf(path),
            path + ":2: geometry.pages_per_block: expected an integer between 1 and 4096");
}

TEST_F(ConfigTest, StringWhereABooleanBelongsIsATypeError) {
  const std::string path = Write("[ftl]\ntwo_plane = \"yes\"\n");
  EXPECT_EQ(ErrorOf(path), path + ":2: ftl.two_plane: expected true or false");
}

TEST_F(ConfigTest, BadTwoPlanePairsNameTheAllowedPlanes) {
  const std::string pair_error =
      "geometry.two_plane_pairs: each pair is two different planes of a die, 0 to 1";
  for (const std::string pairs : {"[[0, 2]]", "[[1, 1]]", "[[0]]", "[[0, -1]]", "[[\"0\", 1]]"}) {
    SCOPED_TRACE(pairs);
    const std::string path =
        Write("[geometry]\nplanes_per_die = 2\ntwo_plane_pairs = " + pairs + "\n");
    EXPECT_EQ(ErrorOf(path), path + ":3: " + pair_error);
  }
}

TEST_F(ConfigTest, TwoPlanePairsThatAreNotAnArrayAreRejected) {
  const std::string path = Write("[geometry]\ntwo_plane_pairs = 1\n");
  EXPECT_THAT(ErrorOf(path), AllOf(StartsWith(path + ":2: geometry.two_plane_pairs: "),
                                   HasSubstr("expected an array of plane pairs")));
}

TEST_F(ConfigTest, UnknownFtlTypeListsTheKnownTypes) {
  const std::string path = Write("[ftl]\ntype = \"magic\"\n");
  EXPECT_THAT(ErrorOf(path), AllOf(StartsWith(path + ":2: ftl.type: "),
                                   HasSubstr("unknown FTL 'magic'"), HasSubstr("page-mapped")));
}

TEST_F(ConfigTest, UnknownAllocationPoolListsTheScopes) {
  const std::string path = Write("[ftl]\nallocation_pool = \"rack\"\n");
  EXPECT_THAT(ErrorOf(path),
              AllOf(StartsWith(path + ":2: ftl.allocation_pool: 'rack' is not a pool scope"),
                    HasSubstr("(ssd, channel, package, die, plane)")));
}

TEST_F(ConfigTest, LogicalPageSizeThatIsNotAWholeNumberOfPagesIsRejected) {
  const std::string path = Write("[geometry]\npage_size = 4096\n[ftl]\nlogical_page_size = 6144\n");
  EXPECT_THAT(ErrorOf(path), AllOf(StartsWith(path + ":4: ftl.logical_page_size: "),
                                   HasSubstr("6144 must be a whole number of 4096-byte pages")));
}

TEST_F(ConfigTest, StripeSizeThatIsNotAMultipleOfTheLogicalPageIsRejected) {
  const std::string path = Write("[ftl]\nlogical_page_size = 8192\nstripe_size = 12288\n");
  EXPECT_EQ(ErrorOf(path),
            path + ":3: ftl.stripe_size: 12288 is not a multiple of logical_page_size 8192");
}

TEST_F(ConfigTest, SectorSizeThatIsNotAPowerOfTwoIsRejected) {
  const std::string path = Write("[host]\nsector_size = 1536\n");
  EXPECT_THAT(ErrorOf(path),
              AllOf(StartsWith(path + ":2: host.sector_size: "), HasSubstr("power of two")));
}

TEST_F(ConfigTest, GeometryWhoseBlockCountOverflowsIsRejected) {
  // 2^24 planes x 257 blocks is more than 2^32 blocks: a 32-bit block count
  // would wrap to 2^24 and describe a different device.
  const std::string path = Write(
      "[geometry]\n"
      "channels = 1024\n"
      "packages_per_channel = 64\n"
      "dies_per_package = 16\n"
      "planes_per_die = 16\n"
      "blocks_per_plane = 257\n"
      "pages_per_block = 1\n");
  EXPECT_THAT(ErrorOf(path), AllOf(HasSubstr(path + ":"), HasSubstr("geometry.")));
}

TEST_F(ConfigTest, TomlSyntaxErrorNamesFileAndLine) {
  const std::string path = Write(
      "[geometry]\n"
      "channels = 2\n"
      "\n"
      "[timing]\n"
      "read_us = = 25\n");
  EXPECT_THAT(ErrorOf(path), StartsWith(path + ":5: "));
}

TEST_F(ConfigTest, MissingFileNamesThePathWithoutALineNumber) {
  const std::string path = (dir_ / "no-such.toml").string();
  EXPECT_THAT(ErrorOf(path), AllOf(StartsWith(path + ": "), Not(HasSubstr(path + ":0"))));
}

}  // namespace
