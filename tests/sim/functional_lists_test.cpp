// Functional writes whose command lists no one reads (no observer,
// power-cut recorder or error part) skip the FTL's two-plane merging
// (Ftl::set_lists_unread): the device's state must be the same as when an
// observer reads every list, and the host's writes after them still merged.
#include <gtest/gtest.h>

#include <cstdint>

#include "sim/controller/ssd.h"
#include "sim/controller/ssd_observer.h"
#include "state_support.h"
#include "test_support.h"

namespace ssdlab::sim {
namespace {

namespace support = ssdlab::testing;

// Reads every list: the FTL must shape them; counts the two-plane commands.
class ListReader final : public SsdObserver {
 public:
  void commands(CommandSource, ftl::PageRuns, const flash::CommandList& commands) override {
    for (const flash::Command& command : commands) two_plane += command.two_plane();
  }
  std::uint64_t two_plane = 0;
};

TEST(FunctionalLists, UnreadListsLeaveTheStateAReaderSees) {
  const DeviceConfig config = support::load_preset("tiny-tlc");  // ftl.two_plane = true
  ASSERT_TRUE(config.ftl.two_plane);
  Ssd unread(config), read(config);
  ListReader reader;
  read.core().observers().add(&reader);
  EXPECT_FALSE(unread.core().functional_lists_read());
  EXPECT_TRUE(read.core().functional_lists_read());
  const std::uint64_t bytes = unread.logical_bytes();
  for (Ssd* ssd : {&unread, &read})
    for (int pass = 0; pass < 3; ++pass)
      for (std::uint64_t offset = 0; offset + 65536 <= bytes; offset += 65536)
        ssd->write_functionally((offset * 7919 + pass * 4096) % (bytes - 65536) / 4096 * 4096,
                                65536);
  EXPECT_GT(reader.two_plane, 0u);  // the reader's lists were merged
  read.core().observers().remove(&reader);
  EXPECT_EQ(support::saved_bytes(unread), support::saved_bytes(read));
  // A host write after them is merged as ever: the flag does not stay set.
  const TimeNs at = 1'000'000'000;
  EXPECT_EQ(unread.start({0, 65536, IoMode::kWrite}, at),
            read.start({0, 65536, IoMode::kWrite}, at));
  EXPECT_EQ(unread.core().timeline().stats().two_plane_commands,
            read.core().timeline().stats().two_plane_commands);
  EXPECT_GT(unread.core().timeline().stats().two_plane_commands, 0u);
}

}  // namespace
}  // namespace ssdlab::sim
