// The preconditioned-state cache (sim/state/state_cache.h) as a real
// process, in a cache folder of the test's own (XDG_CACHE_HOME): a run
// from a cached state writes the io.csv of a run that preconditioned; a
// changed config or seed misses; a corrupt file is ignored with a warning
// and replaced; --no-state-cache neither reads nor writes; `ssdlab cache
// list` and `clear`.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "test_support.h"

namespace {

namespace fs = std::filesystem;
namespace support = ssdlab::testing;
using support::shell_quote;
using ::testing::HasSubstr;
using ::testing::Not;

class StateCache : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = support::temp_dir_for_this_test("state-cache-");
    cache_ = dir_ / "cache";
  }

  support::CommandResult Ssdlab(const std::string& arguments) const {
    return support::run_shell("XDG_CACHE_HOME=" + shell_quote(cache_) + " " +
                              shell_quote(std::string(SSDLAB_BINARY_PATH)) + " " + arguments);
  }

  // A run on tiny after --precondition random into `out`; `extra` is quoted.
  support::CommandResult Sim(const std::string& out, const std::string& extra = "") const {
    return Ssdlab("sim -c " + shell_quote(support::preset("tiny")) +
                  " --precondition random -w 'RW:io_size=4096,count=3000,queue_depth=4' -o " +
                  shell_quote(dir_ / out) + " " + extra);
  }

  std::string Cached(const std::string& out) const {
    const auto summary =
        nlohmann::json::parse(support::read_file(dir_ / out / "summary.json"));
    return summary["precondition"].value("state_cache", std::string("none"));
  }

  std::vector<fs::path> StateFiles() const {
    std::vector<fs::path> files;
    for (const auto& entry : fs::directory_iterator(cache_ / "ssdlab"))
      if (entry.path().extension() == ".state") files.push_back(entry.path());
    return files;
  }

  std::string IoCsv(const std::string& out) const {
    return support::read_file(dir_ / out / "io.csv");
  }

  fs::path dir_, cache_;
};

TEST_F(StateCache, CachedRunWritesTheSameIoCsv) {
  ASSERT_EQ(Sim("cold").exit_code, 0);
  EXPECT_EQ(Cached("cold"), "stored");
  ASSERT_EQ(StateFiles().size(), 1u);
  const auto hit = Sim("warm");
  ASSERT_EQ(hit.exit_code, 0) << hit.output;
  EXPECT_THAT(hit.output, HasSubstr("loaded from the state cache"));
  EXPECT_EQ(Cached("warm"), "hit");
  EXPECT_TRUE(IoCsv("warm") == IoCsv("cold"));
  // The same with the cache off: neither read nor written.
  ASSERT_EQ(Sim("off", "--no-state-cache").exit_code, 0);
  EXPECT_EQ(Cached("off"), "none");
  EXPECT_TRUE(IoCsv("off") == IoCsv("cold"));
  EXPECT_EQ(StateFiles().size(), 1u);
}

TEST_F(StateCache, ChangedSeedOrConfigMisses) {
  ASSERT_EQ(Sim("first").exit_code, 0);
  ASSERT_EQ(Sim("seed", "--seed 2").exit_code, 0);
  EXPECT_EQ(Cached("seed"), "stored");
  ASSERT_EQ(Sim("config", "--set ftl.overprovisioning=0.2").exit_code, 0);
  EXPECT_EQ(Cached("config"), "stored");
  // Timing is not state, but the key is the whole resolved config.
  ASSERT_EQ(Sim("timing", "--set timing.read_us=30").exit_code, 0);
  EXPECT_EQ(Cached("timing"), "stored");
  EXPECT_EQ(StateFiles().size(), 4u);
  ASSERT_EQ(Sim("again", "--seed 2").exit_code, 0);
  EXPECT_EQ(Cached("again"), "hit");
  EXPECT_TRUE(IoCsv("again") == IoCsv("seed"));
}

TEST_F(StateCache, CorruptFileIsIgnoredWithAWarningAndReplaced) {
  ASSERT_EQ(Sim("cold").exit_code, 0);
  ASSERT_EQ(StateFiles().size(), 1u);
  const fs::path file = StateFiles()[0];
  {  // one byte in the middle of the state: the checksum no longer matches
    std::fstream stream(file, std::ios::in | std::ios::out | std::ios::binary);
    stream.seekp(static_cast<std::streamoff>(fs::file_size(file) / 2));
    stream.put('\x5a' ^ static_cast<char>(support::read_file(file)[fs::file_size(file) / 2]));
  }
  const auto corrupt = Sim("corrupt");
  ASSERT_EQ(corrupt.exit_code, 0) << corrupt.output;
  EXPECT_THAT(corrupt.output, HasSubstr("checksum mismatch"));
  EXPECT_EQ(Cached("corrupt"), "stored");
  EXPECT_TRUE(IoCsv("corrupt") == IoCsv("cold"));
  // Truncated: the same.
  fs::resize_file(file, 100);
  ASSERT_EQ(Sim("truncated").exit_code, 0);
  EXPECT_EQ(Cached("truncated"), "stored");
  EXPECT_EQ(Sim("healed").exit_code, 0);
  EXPECT_EQ(Cached("healed"), "hit");
}

TEST_F(StateCache, ListAndClear) {
  ASSERT_EQ(Sim("cold").exit_code, 0);
  const auto list = Ssdlab("cache list");
  ASSERT_EQ(list.exit_code, 0) << list.output;
  EXPECT_THAT(list.output, HasSubstr("precondition random seed 1"));
  EXPECT_THAT(list.output, HasSubstr("1 cached states"));
  const auto clear = Ssdlab("cache clear");
  ASSERT_EQ(clear.exit_code, 0) << clear.output;
  EXPECT_THAT(clear.output, HasSubstr("removed 1 files"));
  EXPECT_TRUE(StateFiles().empty());
  EXPECT_NE(Ssdlab("cache prune").exit_code, 0);  // neither list nor clear
}

TEST_F(StateCache, UnwritableFolderCostsAWarningNotTheRun) {
  fs::create_directories(cache_);
  support::write_file(cache_ / "ssdlab", "a file where the folder should be");
  const auto run = Sim("out");
  ASSERT_EQ(run.exit_code, 0) << run.output;
  EXPECT_THAT(run.output, HasSubstr("state cache: the state was not saved"));
  EXPECT_EQ(Cached("out"), "not stored");
}

}  // namespace
