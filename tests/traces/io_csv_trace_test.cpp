// ssdlab's own io.csv as a trace (format `ssdlab`): rows in completion order
// come back by submit time with their process, io index and response time;
// one experiment and one run are chosen; the header names the format.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "common/error.h"
#include "trace_support.h"
#include "traces/formats.h"
#include "traces/ssdlab_csv.h"
#include "traces/trace_file.h"

namespace ssdlab::traces {
namespace {

using ::testing::HasSubstr;
namespace support = ssdlab::testing;

constexpr const char* kHeader = "experiment,run,process,io,submit_us,rt_us,mode,offset,size\n";

class IoCsvTrace : public ::testing::Test {
 protected:
  void SetUp() override { dir_ = support::temp_dir_for_this_test("io-csv-trace-"); }
  std::filesystem::path File(const std::string& text) {
    return support::write_file(dir_ / "io.csv", text);
  }
  std::string ErrorOf(const std::filesystem::path& path, ReadOptions options = {}) {
    try {
      support::read_all(path, "ssdlab", options);
    } catch (const Error& error) {
      return error.what();
    }
    return "no error";
  }
  std::filesystem::path dir_;
};

TEST_F(IoCsvTrace, RowsInCompletionOrderComeBackBySubmitTimeWithWhatWasRecorded) {
  const auto path = File(std::string(kHeader) +
                         "rw,0,1,0,0.000,300.500,W,8192,4096\n"  // completes last
                         "rw,0,0,1,50.000,20.000,R,0,512\n"
                         "rw,0,0,0,0.000,40.000,T,4096,4096\n");
  const auto records = support::read_all(path, "ssdlab");
  ASSERT_EQ(records.size(), 3u);
  // By time, then process, then io: process 0's io 0 before process 1's.
  EXPECT_EQ(records[0].process, 0u);
  EXPECT_EQ(records[0].sequence, 0u);
  EXPECT_EQ(records[0].mode, IoMode::kTrim);
  EXPECT_EQ(records[0].response_ns, 40000);
  EXPECT_EQ(records[1].process, 1u);
  EXPECT_EQ(records[1].offset, 8192u);
  EXPECT_EQ(records[1].response_ns, 300500);
  EXPECT_EQ(records[2].time_ns, 50000);
  EXPECT_EQ(records[2].size, 512u);
  EXPECT_EQ(records[2].mode, IoMode::kRead);
}

TEST_F(IoCsvTrace, TheHeaderNamesTheFormatWhateverTheRows) {
  // Two experiments interleaved: most rows would be the reader's "choose
  // one" error, yet the header says what the file is.
  const auto path = File(std::string(kHeader) +
                         "a,0,0,0,0.000,1.000,W,0,4096\n"
                         "b,0,0,0,0.000,1.000,W,0,4096\n"
                         "a,0,0,1,1.000,1.000,W,0,4096\n"
                         "b,0,0,1,1.000,1.000,W,0,4096\n");
  EXPECT_EQ(detect_format(path.string(), {}), "ssdlab");
  EXPECT_EQ(first_io_csv_experiment(path.string(), {}), "a");
}

TEST_F(IoCsvTrace, SeveralExperimentsOrRunsMustBeChosen) {
  const auto path = File(std::string(kHeader) +
                         "a,0,0,0,0.000,1.000,W,0,4096\n"
                         "b,0,0,0,0.000,1.000,W,0,4096\n"
                         "b,1,0,0,0.000,1.000,W,0,4096\n"
                         "b,1,3,0,2.000,1.000,R,0,4096\n");
  EXPECT_EQ(ErrorOf(path), path.string() +
                               ":3: the io.csv holds experiments 'a' and 'b': choose one with "
                               "experiment=NAME (--trace-experiment)");
  ReadOptions b;
  b.experiment = "b";
  EXPECT_EQ(ErrorOf(path, b), path.string() +
                                  ":4: the io.csv holds runs 0 and 1 of 'b': choose one with "
                                  "run=N (--trace-run)");
  b.run = 1;
  EXPECT_EQ(support::read_all(path, "ssdlab", b).size(), 2u);
  b.process = 3;
  const auto one = support::read_all(path, "ssdlab", b);
  ASSERT_EQ(one.size(), 1u);
  EXPECT_EQ(one[0].process, 3u);
}

TEST_F(IoCsvTrace, AnExperimentNotInTheFileIsToldWhatIs) {
  const auto path = File(std::string(kHeader) + "a,0,0,0,0.000,1.000,W,0,4096\n");
  ReadOptions options;
  options.format = "ssdlab";
  options.experiment = "nope";
  TraceFile file(path.string(), options);
  EXPECT_FALSE(file.next());
  EXPECT_EQ(file.seen(), "its experiments: a");
}

TEST_F(IoCsvTrace, BadRowsAndZoneCommandsNameTheirLine) {
  EXPECT_THAT(ErrorOf(File("experiment,run\n")),
              HasSubstr(":1: expected the io.csv header 'experiment,run,process,io,"));
  EXPECT_EQ(ErrorOf(File(std::string(kHeader) + "a,0,0,0,0.0001,1.000,W,0,4096\n")),
            (dir_ / "io.csv").string() + ":2: submit_us: '0.0001' is not microseconds");
  EXPECT_THAT(ErrorOf(File(std::string(kHeader) + "a,0,0,0,0.000,1.000,Z,0,4096\n")),
              HasSubstr(":2: mode 'Z' is a zone command: the ssdlab format replays reads, "
                        "writes and trims"));
}

TEST_F(IoCsvTrace, ErrorsAfterSortingNameTheRowOfTheRequest) {
  ReadOptions options;
  options.format = "ssdlab";
  const auto path = File(std::string(kHeader) +
                         "a,0,0,1,5.000,1.000,W,0,4096\n"
                         "a,0,0,0,0.000,1.000,W,0,4096\n");
  TraceFile file(path.string(), options);
  ASSERT_TRUE(file.next());
  EXPECT_EQ(file.where(), path.string() + ":3");  // io 0, the file's third line
  ASSERT_TRUE(file.next());
  EXPECT_EQ(file.where(), path.string() + ":2");
}

}  // namespace
}  // namespace ssdlab::traces
