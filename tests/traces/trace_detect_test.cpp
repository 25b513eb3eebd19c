// Format auto-detection from the first lines: each format is recognised,
// compressed files too, and a file that fits several formats (or none) is an
// error that lists them.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "common/error.h"
#include "trace_support.h"
#include "traces/formats.h"

namespace ssdlab::traces {
namespace {

using ::testing::HasSubstr;
namespace support = ssdlab::testing;

class TraceDetection : public ::testing::Test {
 protected:
  void SetUp() override { dir_ = support::temp_dir_for_this_test("detect-"); }
  std::string Detect(const std::string& text) {
    return detect_format(support::write_file(dir_ / "trace", text).string(), {});
  }
  std::string ErrorOf(const std::string& text) {
    try {
      return "detected " + Detect(text);
    } catch (const Error& error) {
      return error.what();
    }
  }
  std::filesystem::path dir_;
};

TEST_F(TraceDetection, RecognisesEachFormat) {
  EXPECT_EQ(Detect("128166372003061629,hm,0,Write,7014912,4096,26\n"), "msr");
  EXPECT_EQ(Detect("Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime\n"
                   "128166372003061629,hm,0,Read,7014912,4096,26\n"),
            "msr");
  EXPECT_EQ(Detect("13.191135\t30\t0\t5\t1\n14.5\t30\t8\t5\t0\n"), "disksim");
  EXPECT_EQ(Detect("0,20941264,8192,W,0.551706\n1,3289,3072,r,0.554041\n"), "spc");
  EXPECT_EQ(Detect("  8,32   7   6   0.000006775  2923  D   R 272208 + 2 [direct_io_read_]\n"),
            "blkparse");
  EXPECT_EQ(Detect("fio version 2 iolog\n/dev/sda add\n/dev/sda write 0 4096\n"), "fio");
}

TEST_F(TraceDetection, ReadsCompressedFiles) {
  const auto path =
      support::write_gzip(dir_ / "msr.gz", "128166372003061629,hm,0,Write,0,4096,26\n");
  EXPECT_EQ(detect_format(path.string(), {}), "msr");
}

TEST_F(TraceDetection, IntegerTimesFitDiskSimAndMqSimAndAreAmbiguous) {
  // DiskSim reads times with %lf, so "938513000" is a valid DiskSim time (in
  // ms) as well as an MQSim one (in ns): a factor of 10^6 hangs on the choice.
  EXPECT_EQ(ErrorOf("938513000 4 264719034 16 0\n938514000 4 8 8 1\n"),
            dir_.string() +
                "/trace: the trace format is ambiguous: its first 2 lines fit "
                "disksim and mqsim; give --format");
  // One decimal time settles it.
  EXPECT_EQ(Detect("938513000 4 264719034 16 0\n938514000.5 4 8 8 1\n"), "disksim");
}

TEST_F(TraceDetection, NoFittingFormatIsAnErrorListingTheFormats) {
  EXPECT_EQ(ErrorOf("hello world\n"),
            dir_.string() +
                "/trace: cannot tell the trace format: most of its first 1 lines "
                "fit none of msr, disksim, mqsim, spc, blkparse, fio, ssdlab; give --format");
}

TEST_F(TraceDetection, LooksOnlyAtTheFirstLines) {
  std::string text;
  for (int i = 0; i < kDetectionLines; ++i) text += "0,100,4096,W,0." + std::to_string(i) + "\n";
  text += "not spc at all\n";
  EXPECT_EQ(Detect(text), "spc");  // the bad line is the reader's to report, with its number
}

TEST_F(TraceDetection, ABadLineAmongTheFirstDoesNotHideTheFormat) {
  EXPECT_EQ(Detect("0,100,4096,W,0.1\n0,100,4096,Q,0.2\n0,100,4096,R,0.3\n"), "spc");
  EXPECT_THAT(ErrorOf("0,100,4096,W,0.1\nnot a trace\nnot one either\n"),
              HasSubstr("cannot tell the trace format"));
}

TEST_F(TraceDetection, EmptyTraceIsAnError) {
  EXPECT_THAT(ErrorOf("\n\n"), HasSubstr("the trace is empty"));
}

}  // namespace
// A format names its devices (FormatInfo::device_name): blkparse as
// "major,minor" (the kernel's MKDEV), the others by number.
TEST(FormatDeviceNames, BlkparseNamesMajorAndMinorTheOthersTheNumber) {
  EXPECT_EQ(ssdlab::traces::device_name("blkparse", 8u << 20 | 32), "8,32");
  EXPECT_EQ(ssdlab::traces::device_name("msr", 3), "3");
  EXPECT_EQ(ssdlab::traces::device_name("disksim", 8u << 20 | 32), std::to_string(8u << 20 | 32));
}

}  // namespace ssdlab::traces
