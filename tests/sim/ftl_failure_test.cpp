// FTL failures during a run (issue 22): an FTL that throws mid-run or while
// preconditioning fails the run with an error naming the FTL, the phase and
// the request; output write errors pass unchanged.
#include "sim/engine/ftl_failure.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cerrno>
#include <filesystem>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>

#include "common/output_error.h"
#include "ftl/register.h"
#include "sim/results/output.h"
#include "sim/run/plan_run.h"
#include "forwarding_ftl.h"
#include "test_support.h"

namespace ssdlab {
namespace {

namespace fs = std::filesystem;
namespace support = ssdlab::testing;
using ::testing::AllOf;
using ::testing::HasSubstr;

// page-mapped, but its 50th host write throws as a broken FTL would.
class FailingFtl final : public support::ForwardingFtl {
 public:
  explicit FailingFtl(const ftl::FtlContext& context) : ForwardingFtl(page_mapped(context)) {}
  std::string_view name() const override { return "test-failing"; }
  void write(const ftl::PageRange& range, ftl::CommandList& out) override {
    if (++writes_ == 50) throw std::logic_error("deliberate: no free block");
    inner().write(range, out);
  }

 private:
  static std::unique_ptr<ftl::Ftl> page_mapped(const ftl::FtlContext& context) {
    ftl::FtlContext inner = context;
    inner.config.type = "page-mapped";
    return ftl::make_ftl(inner);
  }
  std::uint64_t writes_ = 0;
};

std::unique_ptr<ftl::Ftl> MakeFailingFtl(const ftl::FtlContext& context) {
  return std::make_unique<FailingFtl>(context);
}

// page-mapped on one-shot cells, but its 20th host write also programs a
// later page of a wordline whose first page nothing programs: the die's
// latches hold it for ever (a scheduler deadlock, as DFTL's translation
// blocks caused before docs/model.md's fix).
class DeadlockingFtl final : public support::ForwardingFtl {
 public:
  explicit DeadlockingFtl(const ftl::FtlContext& context)
      : ForwardingFtl(page_mapped(context)), geometry_(context.geometry) {}
  std::string_view name() const override { return "test-deadlocking"; }
  void write(const ftl::PageRange& range, ftl::CommandList& out) override {
    inner().write(range, out);
    if (++writes_ != 20) return;
    // The device's last block, which 100 writes never reach: its page 1.
    const flash::Ppn page = geometry_.first_page(geometry_.blocks() - 1) + 1;
    out.push_back(flash::page_command(flash::Op::kProgram, page, range.first, 0));
  }

 private:
  static std::unique_ptr<ftl::Ftl> page_mapped(const ftl::FtlContext& context) {
    ftl::FtlContext inner = context;
    inner.config.type = "page-mapped";
    return ftl::make_ftl(inner);
  }
  flash::Geometry geometry_;
  std::uint64_t writes_ = 0;
};

class FtlFailureTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    if (!ftl::find_registered_ftl("test-failing"))
      ftl::register_ftl("test-failing", MakeFailingFtl);
    if (!ftl::find_registered_ftl("test-deadlocking")) {
      ftl::FtlKeyHooks hooks;
      hooks.one_shot_wordlines = true;  // (the die latches hold)
      ftl::register_ftl(
          "test-deadlocking",
          [](const ftl::FtlContext& context) {
            return std::unique_ptr<ftl::Ftl>(std::make_unique<DeadlockingFtl>(context));
          },
          hooks);
    }
  }
  std::string RunExpectingFailure(const std::string& precondition) {
    sim::SimOptions options;
    options.config = support::preset("tiny");
    options.overrides = {"ftl.type=\"test-failing\""};
    options.workload = "RW:count=100";
    options.precondition = precondition;
    options.outdir = (support::temp_dir_for_this_test("ftl-failure-") / "out").string();
    options.io_log = false;
    std::ostringstream out;
    try {
      sim::run_sim(options, out);
    } catch (const sim::FtlFailure& failure) {
      EXPECT_FALSE(fs::exists(fs::path(options.outdir) / "summary.json"));
      return failure.what();
    }
    ADD_FAILURE() << "no FtlFailure";
    return "";
  }
};

TEST_F(FtlFailureTest, DuringARunItNamesTheFtlTheExperimentAndTheIo) {
  EXPECT_THAT(RunExpectingFailure(""),
              AllOf(HasSubstr("FTL test-failing failed during run (experiment RW, run 0, "
                              "process 0, io 49: W of 4096 bytes at offset "),
                    HasSubstr("): deliberate: no free block")));
}

// A scheduler deadlock stops the run with an error (exit status 3 from the
// CLI), and no io.csv or summary.json is put in place: before, it warned and
// wrote outputs without the stuck requests that looked complete.
TEST_F(FtlFailureTest, ASchedulerDeadlockIsAnErrorWithNoOutputPutInPlace) {
  sim::SimOptions options;
  options.config = support::preset("tiny-tlc");
  options.overrides = {"ftl.type=\"test-deadlocking\""};
  options.workload = "RW:count=100";
  options.outdir = (support::temp_dir_for_this_test("deadlock-") / "out").string();
  std::ostringstream out;
  try {
    sim::run_sim(options, out);
    ADD_FAILURE() << "the run ended as if complete";
  } catch (const std::logic_error& error) {
    EXPECT_THAT(error.what(), HasSubstr("the flash scheduler holds commands it can never start"));
    // What the stuck command waits for: the later page of a wordline whose
    // first page no command programs (the device's last block).
    EXPECT_THAT(error.what(), HasSubstr("host chain in stage 0: 1 commands not dispatched"));
    EXPECT_THAT(error.what(), HasSubstr("a program of plane 7 block 255 page 1"));
  }
  EXPECT_FALSE(fs::exists(fs::path(options.outdir) / "io.csv"));
  EXPECT_FALSE(fs::exists(fs::path(options.outdir) / "summary.json"));
}

TEST(FtlFailure, AnErrorTheFtlThrowsOnPurposeKeepsItsKindAndGetsTheContext) {
  try {
    try {
      throw make_error("example FTL: out of free pages");
    } catch (...) {
      sim::rethrow_as_ftl_failure("example", "run", "experiment RW, run 0, process 0, io 7");
    }
  } catch (const sim::FtlFailure&) {
    ADD_FAILURE() << "an Error became an FtlFailure";
  } catch (const Error& error) {
    EXPECT_STREQ(error.what(),
                 "example FTL: out of free pages (FTL example, during run: experiment RW, run 0, "
                 "process 0, io 7)");
  }
  try {
    try {
      throw ftl::EndOfLife("3 blocks retired");
    } catch (...) {
      sim::rethrow_as_ftl_failure("page-mapped", "run", "io 1");
    }
  } catch (const ftl::EndOfLife& error) {
    EXPECT_STREQ(error.what(), "3 blocks retired");  // not a failure: the run's end
  }
}

// An output that cannot be written during a run (--timeline on a full disk)
// is the disk's doing: it keeps its type and message, and is never reported
// as an FTL failure ("... please report it").
TEST(FtlFailure, AnOutputWriteErrorPassesUnchanged) {
  try {
    try {
      throw write_failed("out/t.json", ENOSPC);
    } catch (...) {
      sim::rethrow_as_ftl_failure("page-mapped", "run", "experiment RW, run 0, process 0, io 71");
    }
  } catch (const sim::FtlFailure&) {
    ADD_FAILURE() << "an output's write error became an FtlFailure";
  } catch (const OutputError& error) {
    EXPECT_STREQ(error.what(), "out/t.json: write failed: No space left on device");
  }
}

// The same through a whole run: the timeline's writes fail as on a full
// disk (SSDLAB_TEST_FAIL_WRITE) while the run goes on.
TEST(FtlFailure, ATimelineOnAFullDiskFailsTheRunAsAnOutputError) {
  const fs::path dir = support::temp_dir_for_this_test("timeline-full-");
  sim::SimOptions options;
  options.config = support::preset("tiny");
  options.workload = "RW:count=3000";
  options.outdir = (dir / "out").string();
  options.teaching.timeline = (dir / "t.json").string();
  ::setenv("SSDLAB_TEST_FAIL_WRITE", "t.json", 1);
  std::ostringstream out;
  try {
    sim::run_sim(options, out);
    ADD_FAILURE() << "the run did not fail";
  } catch (const sim::FtlFailure& failure) {
    ADD_FAILURE() << "reported as an FTL failure: " << failure.what();
  } catch (const OutputError& error) {
    EXPECT_THAT(error.what(), HasSubstr("t.json: write failed: No space left on device"));
  }
  ::unsetenv("SSDLAB_TEST_FAIL_WRITE");
  EXPECT_FALSE(fs::exists(dir / "out" / "io.csv"));
  EXPECT_FALSE(fs::exists(dir / "out" / "summary.json"));
  EXPECT_FALSE(fs::exists(dir / "t.json"));
}

TEST_F(FtlFailureTest, DuringPreconditioningItNamesThePhaseAndTheWrite) {
  // The sequential fill writes a flash block (64 KiB on tiny) at a time.
  EXPECT_THAT(RunExpectingFailure("seq"),
              AllOf(HasSubstr("FTL test-failing failed during preconditioning ("),
                    HasSubstr("bytes at offset "), HasSubstr("deliberate")));
}

}  // namespace
}  // namespace ssdlab
