// The assignment's grader (tests/example/grader.h) checked on FTLs whose
// answers are known: the page-mapped FTL with greedy cleaning passes it; the
// same FTL with a non-greedy victim policy, or with its erases moved before
// their moves, fails it with a sentence naming the step. The student who
// picked "the first block with an invalid page" (WA 12.7 against 5.0) and
// the one who erased at stage 0 both passed every test before it.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "../example/grader.h"
#include "forwarding_ftl.h"
#include "ftl/ftl.h"
#include "test_support.h"

namespace {

using namespace ssdlab;
namespace support = ssdlab::testing;
using ::testing::HasSubstr;

std::unique_ptr<ftl::Ftl> PageMapped(const std::string& set = "") {
  auto config = set.empty() ? support::load_preset("tiny")
                            : sim::load_config(support::preset("tiny"), {set});
  ftl::FtlConfig ftl_config = config.ftl;
  return ftl::make_ftl({config.geometry, ftl_config, 0});
}

TEST(Grader, GreedyPageMappedPasses) {
  auto ftl = PageMapped();
  const auto grade = support::grade_cleaning(*ftl, 20000, 44);
  EXPECT_EQ(grade.failure, "");
  EXPECT_GT(grade.victims, 100u);
  EXPECT_THAT(grade.findings, ::testing::IsEmpty());
  EXPECT_GT(grade.write_amplification, 1.0);
}

TEST(Grader, ANonGreedyVictimIsNamedWithTheStep) {
  auto ftl = PageMapped("ftl.victim_policy=fifo");
  const auto grade = support::grade_cleaning(*ftl, 20000, 44);
  EXPECT_EQ(grade.failure, "");
  ASSERT_FALSE(grade.findings.empty());
  EXPECT_THAT(grade.findings[0], HasSubstr("greedy cleaning picks the sealed block with the "
                                           "fewest valid pages (docs/assignment.md, step 3"));
}

// An FTL that erases its victims at the stage of their moves.
class EraseTooEarly : public support::ForwardingFtl {
 public:
  using ForwardingFtl::ForwardingFtl;
  std::string_view name() const override { return "erase-too-early"; }
  void write(const ftl::PageRange& range, ftl::CommandList& out) override {
    inner().write(range, out);
    for (auto& c : out)
      if (c.op == flash::Op::kErase) c.stage = 0;
  }
};

TEST(Grader, AnEraseBeforeTheMovesIsNamedWithTheStep) {
  EraseTooEarly ftl(PageMapped());
  const auto grade = support::grade_cleaning(ftl, 5000, 44);
  ASSERT_FALSE(grade.findings.empty()) << grade.failure;
  EXPECT_THAT(grade.findings[0], HasSubstr("give the erase a higher stage than every move of its "
                                           "block (docs/assignment.md, step 5"));
}

TEST(Grader, TheSkeletonFailsWithItsOwnMessageNeverPleaseReport) {
  const auto config = support::load_preset("tiny");
  ftl::FtlConfig ftl_config = config.ftl;
  ftl_config.type = "example";
  auto ftl = ftl::make_ftl({config.geometry, ftl_config, 0});
  const auto grade = support::grade_cleaning(*ftl, 1000, 44);
  EXPECT_THAT(grade.failure, HasSubstr("out of free pages — implement cleaning"));
  EXPECT_THAT(grade.failure, ::testing::Not(HasSubstr("please report")));
}

}  // namespace
