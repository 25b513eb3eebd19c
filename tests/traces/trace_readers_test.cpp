// The trace readers on hand-written lines: field conversion (filetime to ns,
// sectors to bytes, opcodes), bad lines reported as FILE:LINE, --skip-bad
// counting, zero-size requests, compressed input.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "common/error.h"
#include "trace_support.h"
#include "traces/formats.h"
#include "traces/trace_file.h"

namespace ssdlab::traces {
namespace {

using ::testing::HasSubstr;
namespace support = ssdlab::testing;

class TraceReaders : public ::testing::Test {
 protected:
  void SetUp() override { dir_ = support::temp_dir_for_this_test("traces-"); }
  std::filesystem::path File(const std::string& name, const std::string& text) {
    return support::write_file(dir_ / name, text);
  }
  // The ssdlab::Error message of reading `path` as `format` to the end.
  std::string ErrorOf(const std::filesystem::path& path, const std::string& format) {
    try {
      support::read_all(path, format);
    } catch (const Error& error) {
      return error.what();
    }
    return "no error";
  }
  std::filesystem::path dir_;
};

TEST_F(TraceReaders, MsrConvertsFiletimeToNanosecondsFromTheFirstRecord) {
  const auto path = File("hm_0.csv",
                         "Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime\n"
                         "128166372003061629,hm,0,Write,7014912,4096,26\n"
                         "128166372003061630,hm,2,Read,512,8192,41\r\n"
                         "128166372013061629,hm,0,Read,0,512,3\n");
  const auto records = support::read_all(path, "msr");
  ASSERT_EQ(records.size(), 3u);  // the header is not a record
  EXPECT_EQ(records[0].time_ns, 0);
  EXPECT_EQ(records[1].time_ns, 100);         // one filetime tick
  EXPECT_EQ(records[2].time_ns, 1000000000);  // 10^7 ticks = 1 s
  EXPECT_TRUE(records[0].is_write());
  EXPECT_FALSE(records[1].is_write());
  EXPECT_EQ(records[0].offset, 7014912u);
  EXPECT_EQ(records[0].size, 4096u);
  EXPECT_EQ(records[1].device, 2u);
  EXPECT_EQ(records[1].size, 8192u);
}

// The reader parses plain lines in one pass and hands the others (blanks,
// signs, long numbers) to the general path: both give the same records, and
// a bad line is reported the same either way.
TEST_F(TraceReaders, MsrPlainAndUnusualLinesGiveTheSameRecords) {
  const std::string plain =
      "128166372003061629,hm,0,Write,7014912,4096,26\n"
      "128166372003061630,hm,2,Read,512,8192,41\n"
      "128166372013061629,h m,4294967295,Read,18446744069414584320,4294967295,3\n";
  const std::string unusual =
      "128166372003061629 , hm,0,Write,7014912,4096,26\r\n"
      "00000128166372003061630,hm,\t2,Read, 512,8192,41\n"
      "128166372013061629,h m,4294967295,Read ,18446744069414584320,4294967295, 3\n";
  const auto a = support::read_all(File("plain.csv", plain), "msr");
  const auto b = support::read_all(File("unusual.csv", unusual), "msr");
  ASSERT_EQ(a.size(), 3u);
  ASSERT_EQ(b.size(), a.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].time_ns, b[i].time_ns) << i;
    EXPECT_EQ(a[i].offset, b[i].offset) << i;
    EXPECT_EQ(a[i].size, b[i].size) << i;
    EXPECT_EQ(a[i].device, b[i].device) << i;
    EXPECT_EQ(a[i].mode, b[i].mode) << i;
  }
  EXPECT_EQ(a[2].device, 4294967295u);
  EXPECT_EQ(a[2].offset + a[2].size, 18446744073709551615u);  // the last byte: still a request
  const auto past = File("past.csv", "1,hm,0,Read,18446744073709551615,512,3\n");
  EXPECT_EQ(ErrorOf(past, "msr"), past.string() +
                                      ":1: a request of 512 bytes at offset 18446744073709551615 "
                                      "ends beyond byte 2^64 - 1");
  const auto big = File("big.csv", "1,hm,4294967296,Read,0,512,3\n");
  EXPECT_EQ(ErrorOf(big, "msr"), big.string() + ":1: DiskNumber '4294967296' is not a number");
  const auto huge = File("huge.csv", "1,hm,0,Read,0,4294967296,3\n");
  EXPECT_EQ(ErrorOf(huge, "msr"),
            huge.string() + ":1: Size '4294967296' is not a byte count below 4 GiB");
  const auto extra = File("extra.csv", "1,hm,0,Read,0,512,3,9\n");
  EXPECT_EQ(ErrorOf(extra, "msr"),
            extra.string() +
                ":1: 8 fields, expected 7 (Timestamp,Hostname,DiskNumber,Type,Offset,Size,"
                "ResponseTime)");
}

TEST_F(TraceReaders, DiskSimConvertsMillisecondsBlocksAndFlags) {
  const auto path = File("t.disksim",
                         "13.191135\t30\t7\t5\t1\n"
                         "20 1 100 16 0\n"
                         "20.5 1 100 16 0x80\n");
  const auto records = support::read_all(path, "disksim");
  ASSERT_EQ(records.size(), 3u);
  EXPECT_EQ(records[0].time_ns, 13191135);  // exactly, no floating point
  EXPECT_EQ(records[0].device, 30u);
  EXPECT_EQ(records[0].offset, 7u * 512);
  EXPECT_EQ(records[0].size, 5u * 512);
  EXPECT_FALSE(records[0].is_write());  // flag 0x1: read
  EXPECT_EQ(records[1].time_ns, 20000000);
  EXPECT_TRUE(records[1].is_write());
  EXPECT_TRUE(records[2].is_write());  // 0x80 (sync) has no read bit
}

TEST_F(TraceReaders, MqSimTakesIntegerTimesInItsUnitAndTypeZeroAsWrite) {
  const auto path = File("t.mqsim", "938513000 4 264719034 16 0\n938514000 4 8 8 1\n");
  const auto records = support::read_all(path, "mqsim");
  ASSERT_EQ(records.size(), 2u);
  EXPECT_EQ(records[0].time_ns, 938513000);
  EXPECT_TRUE(records[0].is_write());
  EXPECT_FALSE(records[1].is_write());
  EXPECT_EQ(records[0].offset, 264719034ull * 512);
  EXPECT_EQ(records[0].size, 16u * 512);
  ReadOptions microseconds;
  microseconds.time_unit_ns = 1000;
  EXPECT_EQ(support::read_all(path, "mqsim", microseconds)[1].time_ns, 938514000000);
}

TEST_F(TraceReaders, SpcConvertsBlocksSecondsAndOpcodes) {
  const auto path = File("Financial1.spc",
                         "0,20941264,8192,W,0.551706\n"
                         "1, 3289, 3072, r, 0.554041, extra, fields\n"
                         "0,20939840,8192,w,12\n");
  const auto records = support::read_all(path, "spc");
  ASSERT_EQ(records.size(), 3u);
  EXPECT_EQ(records[0].offset, 20941264ull * 512);
  EXPECT_EQ(records[0].size, 8192u);  // bytes, not blocks
  EXPECT_TRUE(records[0].is_write());
  EXPECT_EQ(records[0].time_ns, 551706000);
  EXPECT_EQ(records[1].device, 1u);
  EXPECT_FALSE(records[1].is_write());
  EXPECT_EQ(records[1].size, 3072u);
  EXPECT_TRUE(records[2].is_write());
  EXPECT_EQ(records[2].time_ns, 12000000000);
}

constexpr const char* kBlkparse =
    "  8,32   7        1     0.000000000  2923  Q   R 272208 + 8 [fio]\n"
    "  8,32   7        2     0.000001500  2923  G   R 272208 + 8 [fio]\n"
    "  8,32   7        3     0.000006775  2923  D   R 272208 + 8 [fio]\n"
    "  8,32   7        4     0.000010000  2923  Q  WS 1000 + 16 [kworker/7:1]\n"
    "  8,32   7        5     0.000011000  2923  Q  WS 1016 + 16 [kworker/7:1]\n"
    "  8,32   7        6     0.000020000  2923  D  WS 1000 + 32 [kworker/7:1]\n"
    "  8,32   7        7     0.000021000  2923  D   N 0 (00 ..) [kworker]\n"
    "  8,32   7        8     0.000022000  2923  D  FWS [kworker/7:1]\n"
    "  8,32   7        0     0.000030000     0  m   N cfq2923 insert_request\n"
    "  8,32   7        9     0.000190000     0  C   R 272208 + 8 [0]\n"
    "CPU7 (8,32):\n"
    " Reads Queued:           1,        4KiB\t Writes Queued:           2,       16KiB\n"
    "Total (8,32):\n"
    "Throughput (R/W): 21KiB/s / 84KiB/s\n";

TEST_F(TraceReaders, BlkparseReplaysIssueEventsByDefault) {
  const auto records = support::read_all(File("sdc.blkparse", kBlkparse), "blkparse");
  ASSERT_EQ(records.size(), 2u);  // D events with data; the merged write is one request
  EXPECT_EQ(records[0].time_ns, 6775);
  EXPECT_EQ(records[0].offset, 272208ull * 512);
  EXPECT_EQ(records[0].size, 8u * 512);
  EXPECT_FALSE(records[0].is_write());
  EXPECT_EQ(records[0].device, (8u << 20) | 32u);
  EXPECT_EQ(records[1].size, 32u * 512);
  EXPECT_TRUE(records[1].is_write());
}

TEST_F(TraceReaders, BlkparseCanReplayQueueEvents) {
  ReadOptions options;
  options.blk_event = 'Q';
  const auto records = support::read_all(File("sdc.blkparse", kBlkparse), "blkparse", options);
  ASSERT_EQ(records.size(), 3u);  // the two queued bios of the merged write count separately
  EXPECT_EQ(records[1].offset, 1000u * 512);
  EXPECT_EQ(records[2].offset, 1016u * 512);
  EXPECT_EQ(records[2].time_ns, 11000);
}

TEST_F(TraceReaders, FioV2AdvancesTimeByWaitsReadsTrimsAndSkipsFileActions) {
  const auto path = File("job.iolog",
                         "fio version 2 iolog\n"
                         "/dev/nvme0n1 add\n"
                         "/dev/nvme0n1 open\n"
                         "/dev/nvme0n1 write 0 4096\n"
                         "/dev/nvme0n1 wait 1500 0\n"
                         "/dev/nvme0n1 read 8192 16384\n"
                         "/dev/nvme0n1 sync 0 0\n"
                         "/dev/nvme0n1 trim 0 4096\n"
                         "/dev/sdb write 512 512\n"
                         "/dev/nvme0n1 close\n");
  const auto records = support::read_all(path, "fio");
  ASSERT_EQ(records.size(), 4u);
  EXPECT_EQ(records[0].time_ns, 0);
  EXPECT_TRUE(records[0].is_write());
  EXPECT_EQ(records[1].time_ns, 1500000);
  EXPECT_EQ(records[1].mode, IoMode::kRead);
  EXPECT_EQ(records[1].offset, 8192u);
  EXPECT_EQ(records[1].size, 16384u);
  EXPECT_EQ(records[2].mode, IoMode::kTrim);  // a discard
  EXPECT_EQ(records[2].size, 4096u);
  EXPECT_EQ(records[0].device, 0u);
  EXPECT_EQ(records[3].device, 1u);  // files are numbered in order of appearance
}

TEST_F(TraceReaders, FioV3TakesTimestampsInMicroseconds) {
  const auto path = File("job3.iolog",
                         "fio version 3 iolog\n"
                         "0 /dev/sda add\n"
                         "250 /dev/sda write 4096 4096\n");
  const auto records = support::read_all(path, "fio");
  ASSERT_EQ(records.size(), 1u);
  EXPECT_EQ(records[0].time_ns, 250000);
}

TEST_F(TraceReaders, BadLineNamesFileAndLine) {
  const auto msr = File("bad.csv",
                        "128166372003061629,hm,0,Write,7014912,4096,26\n"
                        "128166372003061630,hm,0,Erase,0,4096,26\n");
  EXPECT_EQ(ErrorOf(msr, "msr"), msr.string() + ":2: Type 'Erase': expected Read or Write");
  const auto spc = File("bad.spc", "0,20941264,8192,W,0.551706\n0,x,8192,W,0.6\n");
  EXPECT_EQ(ErrorOf(spc, "spc"), spc.string() + ":2: LBA 'x' is not a 512 B block number");
  const auto disksim = File("bad.disksim", "1.0 0 0 8 1\n\n2.0 0 0 8\n");
  EXPECT_EQ(ErrorOf(disksim, "disksim"),
            disksim.string() + ":3: 4 fields, expected 5 (time_ms device block blocks flags)");
  const auto fio = File("bad.iolog", "fio version 2 iolog\n/dev/sda write 0\n");
  EXPECT_EQ(ErrorOf(fio, "fio"), fio.string() + ":2: 'write' needs an offset and a length");
  const auto nofio = File("nofio.iolog", "/dev/sda write 0 4096\n");
  EXPECT_THAT(ErrorOf(nofio, "fio"), HasSubstr(":1: expected 'fio version 2 iolog'"));
  const auto blk = File("bad.blkparse", "  8,0 1 1 0.5 12 D W 100 + x [a]\n");
  EXPECT_EQ(ErrorOf(blk, "blkparse"),
            blk.string() + ":1: sector count 'x' is not a number below 4 GiB");
}

TEST_F(TraceReaders, TimesBeyondInt64NanosecondsAreBadLinesNotOverflows) {
  // Found by fuzz/trace_fuzz under UBSan: the filetime difference times 100
  // overflowed, and fio waits could add up past int64.
  const auto msr = File("far.csv",
                        "133444736000000050,hm,0,Write,0,4096,26\n"
                        "18446744073709551615,hm,0,Write,0,4096,26\n");
  EXPECT_EQ(ErrorOf(msr, "msr"),
            msr.string() +
                ":2: Timestamp '18446744073709551615' is centuries away from the first request's");
  std::string waits = "fio version 2 iolog\n";
  for (int i = 0; i < 3; ++i) waits += "/dev/sda wait 4611686018427387\n";
  const auto fio = File("waits.iolog", waits);
  EXPECT_EQ(ErrorOf(fio, "fio"), fio.string() + ":4: wait: the waits add up to centuries");
}

TEST_F(TraceReaders, SkipBadCountsBadLinesAndKeepsTheGoodOnes) {
  const auto path = File("mixed.spc",
                         "0,100,4096,W,0.1\n"
                         "0,100,4096,X,0.2\n"
                         "garbage\n"
                         "0,200,4096,R,0.3\n");
  ReadOptions options;
  options.format = "spc";
  options.skip_bad = true;
  TraceFile file(path.string(), options);
  int records = 0;
  while (file.next()) ++records;
  EXPECT_EQ(records, 2);
  EXPECT_EQ(file.counts().bad_lines, 2u);
  EXPECT_EQ(file.counts().lines, 4u);
  ASSERT_EQ(file.bad_examples().size(), 2u);
  EXPECT_EQ(file.bad_examples()[0], path.string() + ":2: Opcode 'X': expected R or W");
}

TEST_F(TraceReaders, ZeroSizeRequestsAreSkippedOrAnErrorByOption) {
  const auto path = File("zero.spc", "0,100,4096,W,0.1\n0,100,0,W,0.2\n0,100,512,R,0.3\n");
  ReadOptions options;
  options.format = "spc";
  {
    TraceFile file(path.string(), options);
    int records = 0;
    while (file.next()) ++records;
    EXPECT_EQ(records, 2);
    EXPECT_EQ(file.counts().zero_size, 1u);
  }
  options.zero_size_is_bad = true;
  TraceFile file(path.string(), options);
  ASSERT_TRUE(file.next());
  try {
    file.next();
    FAIL() << "a zero-size request passed";
  } catch (const Error& error) {
    EXPECT_THAT(error.what(), HasSubstr(path.string() + ":2: zero-size request"));
  }
}

TEST_F(TraceReaders, GzipAndBzip2AreReadByTheirMagicBytesWhateverTheName) {
  const std::string text = "0,100,4096,W,0.1\n0,200,8192,R,0.2\n";
  const auto plain = support::read_all(File("plain.spc", text), "spc");
  for (const auto& path : {support::write_gzip(dir_ / "trace.spc.gz", text),
                           support::write_gzip(dir_ / "no-extension", text),
                           support::write_bzip2(dir_ / "trace.spc.bz2", text)}) {
    SCOPED_TRACE(path.string());
    const auto records = support::read_all(path, "spc");
    ASSERT_EQ(records.size(), plain.size());
    EXPECT_EQ(records[1].offset, plain[1].offset);
    EXPECT_EQ(records[1].time_ns, 200000000);
  }
  EXPECT_EQ(detect_compression((dir_ / "no-extension").string()), "gzip");
  EXPECT_EQ(detect_compression((dir_ / "trace.spc.bz2").string()), "bzip2");
  EXPECT_EQ(detect_compression((dir_ / "plain.spc").string()), "none");
}

TEST_F(TraceReaders, CorruptGzipIsAnErrorNamingTheFile) {
  std::string bytes = "\x1f\x8b\x08\x00garbage that is not deflate data";
  const auto path = File("corrupt.gz", bytes);
  EXPECT_THAT(ErrorOf(path, "spc"), HasSubstr(path.string() + ": corrupt compressed data"));
}

TEST_F(TraceReaders, LongTraceStreamsAcrossBufferRefills) {
  // More than one 1 MiB read: lines split across refills must come out whole.
  std::string text;
  for (int i = 0; i < 60000; ++i)
    text += "0," + std::to_string(i) + ",4096,W," + std::to_string(i) + ".5\n";
  const auto records = support::read_all(File("long.spc", text), "spc");
  ASSERT_EQ(records.size(), 60000u);
  for (int i = 0; i < 60000; ++i) {
    ASSERT_EQ(records[static_cast<std::size_t>(i)].offset, static_cast<std::uint64_t>(i) * 512);
    ASSERT_EQ(records[static_cast<std::size_t>(i)].time_ns, i * 1000000000ll + 500000000);
  }
}

}  // namespace
}  // namespace ssdlab::traces
