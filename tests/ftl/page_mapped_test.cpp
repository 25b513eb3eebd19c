// The page-mapped FTL on a fresh device: capacity, striping, interleaving,
// two-plane merging, read-modify-write, and a verification run.
#include <gtest/gtest.h>

#include <algorithm>

#include "cleaning_support.h"
#include "common/error.h"
#include "ftl/ftl.h"
#include "ftl/verifier.h"
#include "test_support.h"

namespace ssdlab::ftl {
namespace {

using flash::Op;

class PageMappedTest : public ::testing::Test {
 protected:
  explicit PageMappedTest(const std::string& preset = "tiny")
      : config_(testing::load_preset(preset)),
        ftl_(make_ftl({config_.geometry, config_.ftl, 0})),
        verifier_(config_.geometry, ftl_->logical_pages(), config_.ftl.copy_back) {}

  CommandList write(Lpn first, std::uint32_t count, bool partial_first = false,
                    bool partial_last = false) {
    CommandList out;
    const PageRange range{first, count, partial_first, partial_last};
    ftl_->write(range, out);
    verifier_.host_write(range, out);
    return out;
  }
  CommandList read(Lpn first, std::uint32_t count) {
    CommandList out;
    const PageRange range{first, count, false, false};
    ftl_->read(range, out);
    verifier_.host_read(range, out);
    return out;
  }
  const flash::Geometry& geometry() const { return config_.geometry; }

  sim::DeviceConfig config_;
  std::unique_ptr<Ftl> ftl_;
  Verifier verifier_;
};

TEST_F(PageMappedTest, ExportsThePhysicalSpaceLessOverProvisioningInWholeStripes) {
  const std::uint64_t usable = static_cast<std::uint64_t>(geometry().pages() * 0.85);
  EXPECT_LE(ftl_->logical_pages(), usable);
  EXPECT_GT(ftl_->logical_pages(), usable - geometry().packages());
  EXPECT_EQ(ftl_->logical_pages() % geometry().packages(), 0u);
}

TEST_F(PageMappedTest, ConsecutiveLogicalPagesAreStripedOverPackages) {
  for (Lpn lpn = 0; lpn < 8; ++lpn) {
    const CommandList out = write(lpn, 1);
    ASSERT_EQ(out.size(), 1u);
    EXPECT_EQ(out[0].op, Op::kProgram);
    EXPECT_EQ(geometry().package_of_die(geometry().die_of(out[0].ppn)), lpn % 2) << lpn;
  }
}

TEST_F(PageMappedTest, SuccessiveWritesToOnePoolAlternateDiesThenPlanes) {
  // With 2 packages, logical pages 0, 2, 4, 6 all go to package 0.
  std::vector<std::uint32_t> planes;
  for (Lpn lpn = 0; lpn < 8; lpn += 2) planes.push_back(geometry().plane_of(write(lpn, 1)[0].ppn));
  // die 0 plane 0, die 1 plane 0, die 0 plane 1, die 1 plane 1 (flat: 0, 2, 1, 3).
  EXPECT_EQ(planes, (std::vector<std::uint32_t>{0, 2, 1, 3}));
}

TEST_F(PageMappedTest, MultiPageWritesUseTwoPlaneProgramsWhereLegal) {
  const CommandList out = write(0, 8);  // 4 pages per package: two pairs each
  ASSERT_EQ(out.size(), 4u);
  for (const auto& command : out) {
    EXPECT_TRUE(command.two_plane());
    EXPECT_EQ(flash::check_legal(geometry(), command, true), "");
  }
  const CommandList reads = read(0, 8);
  EXPECT_EQ(reads.size(), 4u);
}

TEST_F(PageMappedTest, TwoPlaneCanBeSwitchedOff) {
  config_.ftl.two_plane = false;
  ftl_ = make_ftl({config_.geometry, config_.ftl, 0});
  CommandList out;
  ftl_->write({0, 8, false, false}, out);
  EXPECT_EQ(out.size(), 8u);
  EXPECT_TRUE(std::none_of(out.begin(), out.end(), [](const auto& c) { return c.two_plane(); }));
}

TEST_F(PageMappedTest, PartialOverwriteReadsTheOldPageBeforeProgramming) {
  write(5, 1);
  const CommandList out = write(5, 1, true, false);
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].op, Op::kRead);
  EXPECT_EQ(out[0].stage, 0);
  EXPECT_EQ(out[1].op, Op::kProgram);
  EXPECT_EQ(out[1].stage, 1);
  EXPECT_EQ(ftl_->stats().rmw_pages_read, 1u);
  // A partial write of a never-written page has nothing to read.
  EXPECT_EQ(write(6, 1, true, true).size(), 1u);
}

TEST_F(PageMappedTest, ReadsOfNeverWrittenPagesTouchNoFlash) {
  EXPECT_TRUE(read(100, 4).empty());
  EXPECT_EQ(ftl_->stats().unmapped_pages_read, 4u);
}

TEST_F(PageMappedTest, TrimForgetsWholePagesOnly) {
  write(10, 4);
  CommandList out;
  ftl_->trim({10, 4, true, false}, out);
  verifier_.host_trim({10, 4, true, false}, out);
  EXPECT_TRUE(ftl_->is_mapped(10));
  EXPECT_FALSE(ftl_->is_mapped(11));
  EXPECT_FALSE(ftl_->is_mapped(13));
  EXPECT_EQ(read(10, 4).size(), 1u);
  ftl_->check_invariants();
}

TEST_F(PageMappedTest, VerificationRunEveryReadReturnsTheLatestWrite) {
  // Random writes (some partial), reads and trims as the fresh device fills.
  const auto counts = testing::run_random_mix(*ftl_, verifier_, 2000, 42, 6);
  EXPECT_GT(counts.reads, 100u);
  EXPECT_GT(verifier_.pages_checked(), 500u);
  EXPECT_NO_THROW(ftl_->check_invariants());
}

TEST(PageMappedLogicalPages, LargerLogicalPagesSpanConsecutivePagesOfOneBlock) {
  auto config = testing::load_preset("tiny");
  config.ftl.logical_page_size = 4 * config.geometry.page_size;
  config.ftl.stripe_size = config.ftl.logical_page_size;
  auto ftl = make_ftl({config.geometry, config.ftl, 0});
  Verifier verifier(config.geometry, ftl->logical_pages(), true);
  CommandList out;
  ftl->write({3, 1, false, false}, out);
  verifier.host_write({3, 1, false, false}, out);
  ASSERT_EQ(out.size(), 4u);
  for (std::uint32_t i = 1; i < 4; ++i) EXPECT_EQ(out[i].ppn, out[0].ppn + i);
  out.clear();
  ftl->write({3, 1, true, false}, out);  // read-modify-write of all four pages
  verifier.host_write({3, 1, true, false}, out);
  EXPECT_EQ(std::count_if(out.begin(), out.end(), [](const auto& c) { return c.op == Op::kRead; }),
            4);
  ftl->check_invariants();
}

TEST(FtlRegistry, UnknownNamesListTheKnownOnes) {
  auto config = testing::load_preset("tiny");
  config.ftl.type = "nonsense";
  try {
    make_ftl({config.geometry, config.ftl, 0});
    FAIL();
  } catch (const Error& error) {
    EXPECT_NE(std::string(error.what()).find("page-mapped"), std::string::npos);
  }
}

}  // namespace
}  // namespace ssdlab::ftl
