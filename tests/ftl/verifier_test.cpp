// The verifier must catch an FTL that loses data, whatever the FTL's internals.
#include "ftl/verifier.h"

#include <gtest/gtest.h>

#include "test_support.h"

namespace ssdlab::ftl {
namespace {

using flash::Command;
using flash::Op;

Command make(Op op, flash::Ppn ppn, Lpn lpn, flash::Ppn src = flash::kNoPage) {
  return flash::page_command(op, ppn, lpn, 0, src);
}

class VerifierTest : public ::testing::Test {
 protected:
  VerifierTest()
      : geometry_(testing::load_preset("tiny").geometry), verifier_(geometry_, 100, true) {}
  flash::Geometry geometry_;
  Verifier verifier_;
};

TEST_F(VerifierTest, AcceptsReadsOfTheLatestVersion) {
  verifier_.host_write({7, 1}, {make(Op::kProgram, 0, 7)});
  verifier_.host_write({7, 1}, {make(Op::kProgram, 1, 7)});
  EXPECT_NO_THROW(verifier_.host_read({7, 1}, {make(Op::kRead, 1, 7)}));
  EXPECT_EQ(verifier_.pages_checked(), 1u);
}

TEST_F(VerifierTest, RejectsAReadOfAStaleCopy) {
  verifier_.host_write({7, 1}, {make(Op::kProgram, 0, 7)});
  verifier_.host_write({7, 1}, {make(Op::kProgram, 1, 7)});
  EXPECT_THROW(verifier_.host_read({7, 1}, {make(Op::kRead, 0, 7)}), VerificationError);
}

TEST_F(VerifierTest, RejectsAHostReadThatSkipsAWrittenPage) {
  verifier_.host_write({3, 2}, {make(Op::kProgram, 0, 3), make(Op::kProgram, 1, 4)});
  EXPECT_THROW(verifier_.host_read({3, 2}, {make(Op::kRead, 0, 3)}), VerificationError);
}

TEST_F(VerifierTest, RejectsAReadOfNeverWrittenData) {
  EXPECT_THROW(verifier_.host_read({9, 1}, {make(Op::kRead, 5, 9)}), VerificationError);
  EXPECT_NO_THROW(verifier_.host_read({9, 1}, {}));
}

TEST_F(VerifierTest, MovesCarryDataAndErasesDestroyIt) {
  const flash::Ppn block1 = geometry_.first_page(1);
  verifier_.host_write({2, 1}, {make(Op::kProgram, 0, 2)});
  verifier_.background({make(Op::kCopyBack, block1, 2, 0), make(Op::kErase, 0, flash::kNoLpn)});
  EXPECT_NO_THROW(verifier_.host_read({2, 1}, {make(Op::kRead, block1, 2)}));
  EXPECT_THROW(verifier_.host_read({2, 1}, {make(Op::kRead, 0, 2)}), VerificationError);
}

TEST_F(VerifierTest, ReadModifyWriteReadsSeeTheOldVersion) {
  verifier_.host_write({1, 1}, {make(Op::kProgram, 0, 1)});
  Command rmw_read = make(Op::kRead, 0, 1);
  Command program = make(Op::kProgram, 1, 1);
  program.stage = 1;
  EXPECT_NO_THROW(verifier_.host_write({1, 1, true, false}, {rmw_read, program}));
  EXPECT_THROW(verifier_.host_read({1, 1}, {make(Op::kRead, 0, 1)}), VerificationError);
}

TEST_F(VerifierTest, RejectsIllegalCommands) {
  Command copy = make(Op::kCopyBack, geometry_.first_page(geometry_.blocks_per_plane), 2, 0);
  verifier_.host_write({2, 1}, {make(Op::kProgram, 0, 2)});
  EXPECT_THROW(verifier_.background({copy}), VerificationError);  // across planes
}

TEST_F(VerifierTest, TrimmedPagesMustNotBeReadFromFlash) {
  verifier_.host_write({4, 1}, {make(Op::kProgram, 0, 4)});
  verifier_.host_trim({4, 1}, {});
  EXPECT_THROW(verifier_.host_read({4, 1}, {make(Op::kRead, 0, 4)}), VerificationError);
}

}  // namespace
}  // namespace ssdlab::ftl
