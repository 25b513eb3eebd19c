// [geometry] gang and gang_size errors: one ssdlab::Error naming the file,
// the line, the key and what is wrong (README, "Ganging").
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "common/error.h"
#include "sim/config/config.h"
#include "test_support.h"

namespace ssdlab {
namespace {

namespace support = testing;
using ::testing::HasSubstr;

// Bad gang keys: one error naming the file, the line and what is wrong.
class GangConfigErrors : public ::testing::Test {
 protected:
  void SetUp() override { dir_ = support::temp_dir_for_this_test("gang-config-"); }

  // A small geometry plus `extra` lines (from line 7 of the file).
  std::string ErrorOf(const std::string& channels_and_packages, const std::string& extra,
                      const std::string& ftl = "") {
    const auto path =
        support::write_file(dir_ / "device.toml", "[geometry]\n" + channels_and_packages +
                                                      "dies_per_package = 2\nplanes_per_die = 2\n"
                                                      "blocks_per_plane = 32\n" +
                                                      extra + "[ftl]\n" + ftl);
    try {
      sim::load_config(path.string());
    } catch (const Error& error) {
      return error.what();
    }
    ADD_FAILURE() << extra << " loaded";
    return "";
  }
  static constexpr const char* kTwoChannels = "channels = 2\npackages_per_channel = 1\n";
  std::filesystem::path dir_;
};

TEST_F(GangConfigErrors, UnknownOrganisation) {
  EXPECT_THAT(ErrorOf(kTwoChannels, "gang = \"shared-everything\"\n"),
              HasSubstr("device.toml:7: geometry.gang: 'shared-everything' is not a gang "
                        "organisation (none, shared-bus, shared-bus-sync, "
                        "shared-control-async, shared-control-sync)"));
}

TEST_F(GangConfigErrors, SynchronousSharedBusGangIsThePackagesOfOneBus) {
  EXPECT_THAT(ErrorOf(kTwoChannels, "gang = \"shared-bus-sync\"\ngang_size = 2\n"),
              HasSubstr("device.toml:8: geometry.gang_size: a shared-bus gang is the packages "
                        "of one bus: gang_size 2 must equal packages_per_channel 1"));
  EXPECT_THAT(ErrorOf("channels = 1\npackages_per_channel = 2\n",
                      "gang = \"shared-bus-sync\"\n",
                      "logical_page_size = \"4KiB\"\nstripe_size = \"8KiB\"\n"),
              HasSubstr("device.toml:9: ftl.logical_page_size: 4096 is not a multiple of the "
                        "8192-byte gang page: a shared-bus-sync gang moves 2 pages of 4096 "
                        "bytes in lockstep"));
}

TEST(GangConfig, SynchronousSharedBusGangIsOneQueuedUnitUnlessTheConfigSaysOtherwise) {
  auto config = sim::load_config(support::preset("agrawal-gang8-shared-bus-sync"));
  EXPECT_EQ(config.geometry.interleaving, flash::Interleaving::kNone);
  config = sim::load_config(support::preset("agrawal-gang8-shared-bus-sync"),
                            {"geometry.interleaving=\"dies\""});
  EXPECT_EQ(config.geometry.interleaving, flash::Interleaving::kDies);
  // Left out, the gang's own default: none.
  config = sim::load_config(support::preset("tiny"), {"geometry.packages_per_channel=2",
                                                       "geometry.gang=\"shared-bus-sync\"",
                                                       "ftl.logical_page_size=\"8KiB\"",
                                                       "ftl.stripe_size=\"8KiB\""});
  EXPECT_EQ(config.geometry.interleaving, flash::Interleaving::kNone);
  EXPECT_EQ(config.geometry.members(), 2u);
}

TEST_F(GangConfigErrors, GangSizeWithoutAGang) {
  EXPECT_THAT(ErrorOf(kTwoChannels, "gang_size = 2\n"),
              HasSubstr("device.toml:7: geometry.gang_size: 2 packages per gang need a gang "
                        "organisation"));
}

TEST_F(GangConfigErrors, SharedBusGangIsThePackagesOfOneBus) {
  EXPECT_THAT(ErrorOf(kTwoChannels, "gang = \"shared-bus\"\ngang_size = 2\n"),
              HasSubstr("device.toml:8: geometry.gang_size: a shared-bus gang is the packages "
                        "of one bus: gang_size 2 must equal packages_per_channel 1"));
  // Left out, the size is the channel's packages; one package is no gang.
  EXPECT_THAT(ErrorOf(kTwoChannels, "gang = \"shared-bus\"\n"),
              HasSubstr("device.toml:7: geometry.gang: a shared-bus gang"));
  EXPECT_THAT(
      ErrorOf("channels = 1\npackages_per_channel = 2\n", "gang = \"shared-bus\"\nwhat = 1\n"),
      HasSubstr("device.toml:8: unknown key 'geometry.what'"));  // the gang itself loads
}

TEST_F(GangConfigErrors, SharedControlGangSizeMustDivideTheChannels) {
  EXPECT_THAT(ErrorOf("channels = 6\npackages_per_channel = 1\n",
                      "gang = \"shared-control-async\"\ngang_size = 4\n"),
              HasSubstr("device.toml:8: geometry.gang_size: gang_size 4 must be at least 2 and "
                        "divide the 6 channels"));
  EXPECT_THAT(ErrorOf(kTwoChannels, "gang = \"shared-control-async\"\n"),
              HasSubstr("device.toml:7: geometry.gang: a shared-control gang needs "
                        "geometry.gang_size"));
}

TEST_F(GangConfigErrors, SharedControlMembersHaveTheirOwnDataPath) {
  EXPECT_THAT(ErrorOf("channels = 2\npackages_per_channel = 2\n",
                      "gang = \"shared-control-sync\"\ngang_size = 2\n"),
              HasSubstr("device.toml:8: geometry.gang_size: a shared-control gang's packages "
                        "each have their own data path: packages_per_channel must be 1"));
}

TEST_F(GangConfigErrors, SynchronousGangMapsWholeGangPages) {
  EXPECT_THAT(ErrorOf(kTwoChannels, "gang = \"shared-control-sync\"\ngang_size = 2\n",
                      "logical_page_size = \"4KiB\"\nstripe_size = \"8KiB\"\n"),
              HasSubstr("device.toml:10: ftl.logical_page_size: 4096 is not a multiple of the "
                        "8192-byte gang page: a shared-control-sync gang moves 2 pages of 4096 "
                        "bytes in lockstep"));
}

}  // namespace
}  // namespace ssdlab
