// How outputs are written (sim/results/output.h): fresh temporary files
// renamed into place, and the one check of every output path.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <string>

#include "common/error.h"
#include "sim/results/output.h"
#include "test_support.h"

namespace {

namespace fs = std::filesystem;
namespace support = ssdlab::testing;
using ssdlab::sim::check_output_path;
using ssdlab::sim::command_input;
using ssdlab::sim::NamedPath;
using ssdlab::sim::same_file;
using ssdlab::sim::TemporaryFile;
using ::testing::HasSubstr;

class OutputFileTest : public ::testing::Test {
 protected:
  void SetUp() override { dir_ = support::temp_dir_for_this_test("output-file-"); }
  fs::path dir_;
};

TEST_F(OutputFileTest, TwoTemporariesOfOneTargetNeverShareAFile) {
  // Two runs saving to one --save-state path at once (review M8).
  const fs::path target = dir_ / "race.ssd";
  TemporaryFile first(target), second(target);
  EXPECT_NE(first.path(), second.path());
  EXPECT_EQ(first.path().parent_path(), dir_);
  EXPECT_TRUE(first.path().filename().string().starts_with("race.ssd."));
  EXPECT_TRUE(first.path().filename().string().ends_with(".partial"));
  EXPECT_TRUE(fs::is_regular_file(first.path()));
  EXPECT_TRUE(fs::is_regular_file(second.path()));
  EXPECT_FALSE(fs::exists(target));
}

TEST_F(OutputFileTest, PublishRenamesOverTheTargetAndAnUnpublishedOneIsRemoved) {
  const fs::path target = dir_ / "out.txt";
  support::write_file(target, "old\n");
  fs::path abandoned;
  {
    TemporaryFile temporary(target);
    abandoned = temporary.path();
    std::fputs("never\n", temporary.file());
  }
  EXPECT_FALSE(fs::exists(abandoned));
  EXPECT_EQ(support::read_file(target), "old\n");
  TemporaryFile temporary(target);
  std::fputs("new\n", temporary.file());
  temporary.publish();
  EXPECT_EQ(support::read_file(target), "new\n");
  EXPECT_FALSE(fs::exists(temporary.path()));
}

TEST_F(OutputFileTest, AFailedRenameReportsItsOwnOsError) {
  // errno read right after rename(2), not after later calls (review L4:
  // "cannot rename the checkpoint into place: Success").
  const fs::path target = dir_ / "taken";
  fs::create_directories(target / "inside");
  TemporaryFile temporary(target);
  try {
    temporary.publish("the checkpoint");
    FAIL() << "renamed over a non-empty directory";
  } catch (const ssdlab::Error& error) {
    const std::string message = error.what();
    EXPECT_THAT(message,
                HasSubstr(target.string() + ": cannot rename the checkpoint into place: "));
    EXPECT_TRUE(message.ends_with(std::strerror(EISDIR)) ||
                message.ends_with(std::strerror(ENOTEMPTY)))
        << message;
  }
}

TEST_F(OutputFileTest, AnOutputThatIsAnInputIsRefusedWhateverItsSpelling) {
  const fs::path input = support::write_file(dir_ / "in.csv", "x\n");
  fs::create_directories(dir_ / "sub");
  fs::create_hard_link(input, dir_ / "hard.csv");
  fs::create_symlink(input, dir_ / "soft.csv");
  const NamedPath inputs[] = {command_input("the trace", input)};
  for (const fs::path& output :
       {input, dir_ / "sub" / ".." / "in.csv", dir_ / "hard.csv", dir_ / "soft.csv"}) {
    try {
      check_output_path(output, "FTL step log", inputs);
      ADD_FAILURE() << output << " was not refused";
    } catch (const ssdlab::Error& error) {
      EXPECT_THAT(error.what(), HasSubstr("is also an input of this command (the trace); give "
                                          "the FTL step log another name"));
    }
  }
  EXPECT_NO_THROW(check_output_path(dir_ / "other.csv", "FTL step log", inputs));
  EXPECT_EQ(support::read_file(input), "x\n");
}

TEST_F(OutputFileTest, SameFileTellsAPathNotYetWrittenByItsResolvedName) {
  // The run's own io.csv before the run has written it.
  fs::create_directories(dir_ / "out");
  EXPECT_TRUE(same_file(dir_ / "out" / "io.csv", dir_ / "out" / "." / "io.csv"));
  EXPECT_FALSE(same_file(dir_ / "out" / "io.csv", dir_ / "out" / "summary.json"));
}

}  // namespace
