// The limits of trace input: zstd frames cut short, the line buffer sized to
// the file, requests at the top of the 64-bit address space, and devices
// side by side whose spans pass it.
#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <string>

#include "common/error.h"
#include "trace_support.h"
#include "traces/input.h"
#include "traces/selection.h"

namespace ssdlab::traces {
namespace {

using ::testing::HasSubstr;
namespace support = ssdlab::testing;

// A zstd frame of raw blocks (RFC 8878 §3.1.1): valid zstd that needs no
// compressor; blocks of at most 64 KiB.
std::string ZstdFrame(const std::string& data) {
  std::string frame = "\x28\xb5\x2f\xfd\xa0";  // magic; one segment, a 4-byte content size
  for (int shift = 0; shift < 32; shift += 8) frame += static_cast<char>(data.size() >> shift);
  for (std::size_t at = 0; at < data.size(); at += 1 << 16) {
    const std::string block = data.substr(at, 1 << 16);
    const std::uint32_t header = static_cast<std::uint32_t>(at + (1 << 16) >= data.size()) |
                                 std::uint32_t(block.size()) << 3;
    for (int shift = 0; shift < 24; shift += 8) frame += static_cast<char>(header >> shift);
    frame += block;
  }
  return frame;
}

std::string Lines(int first, int count) {
  std::string text;
  for (int i = first; i < first + count; ++i) text += "line " + std::to_string(i) + "\n";
  return text;
}

// Every line of `path`, or the ssdlab::Error that stopped the reading.
std::string ReadAll(const std::filesystem::path& path, int* lines = nullptr) {
  LineInput input(path.string());
  std::string_view line;
  int count = 0;
  try {
    while (input.next(line)) ++count;
  } catch (const Error& error) {
    if (lines) *lines = count;
    return error.what();
  }
  if (lines) *lines = count;
  return "whole";
}

class TraceInputLimits : public ::testing::Test {
 protected:
  void SetUp() override { dir_ = support::temp_dir_for_this_test("trace-limits-"); }
  std::filesystem::path dir_;
};

TEST_F(TraceInputLimits, ZstdOfSeveralFramesIsReadWhole) {
  const auto path = support::write_file(dir_ / "two.zst",
                                        ZstdFrame(Lines(0, 5000)) + ZstdFrame(Lines(5000, 5000)));
  int lines = 0;
  EXPECT_EQ(ReadAll(path, &lines), "whole");
  EXPECT_EQ(lines, 10000);
}

TEST_F(TraceInputLimits, ZstdCutInsideAnyFrameIsCorruptNotShorter) {
  const std::string first = ZstdFrame(Lines(0, 5000)), second = ZstdFrame(Lines(5000, 5000));
  const std::string whole = first + second;
  for (const std::size_t cut : {first.size() + 200, first.size() + 2, first.size() / 2,
                                whole.size() * 9 / 10, whole.size() - 1, std::size_t{7}}) {
    const auto path = support::write_file(dir_ / "cut.zst", whole.substr(0, cut));
    int lines = 0;
    const std::string error = ReadAll(path, &lines);
    const std::size_t frame = cut > first.size() ? first.size() : 0;  // the frame cut short
    EXPECT_THAT(error,
                HasSubstr(fmt::format("cut.zst: corrupt compressed data after line {}: premature "
                                      "end: the zstd frame at byte {} is cut short",
                                      lines, frame)))
        << "cut at byte " << cut;
    EXPECT_LT(lines, 10000) << "cut at byte " << cut;
  }
}

TEST_F(TraceInputLimits, ALineLongerThanASmallFilesBufferGrows) {
  // A compressed file far smaller than its text: the buffer starts small
  // (sized to the file) and doubles for the line.
  const std::string line(300000, 'x');
  const auto path = support::write_gzip(dir_ / "long.gz", "short\n" + line + "\nend\n");
  LineInput input(path.string());
  std::string_view read;
  ASSERT_TRUE(input.next(read));
  EXPECT_EQ(read, "short");
  ASSERT_TRUE(input.next(read));
  EXPECT_EQ(read.size(), line.size());
  ASSERT_TRUE(input.next(read));
  EXPECT_EQ(read, "end");
  EXPECT_FALSE(input.next(read));
}

TEST_F(TraceInputLimits, ARequestEndingAtByte2To64IsABadLine) {
  const auto path = support::write_file(
      dir_ / "end.spc", "0,36028797018963967,512,W,0.5\n0,36028797018963966,512,W,1.5\n");
  ReadOptions options;
  options.format = "spc";
  options.skip_bad = true;
  TraceFile file(path.string(), options);
  const auto record = file.next();  // the first ends at 2^64: refused
  ASSERT_TRUE(record);
  EXPECT_EQ(record->offset, std::numeric_limits<std::uint64_t>::max() - 1023);
  EXPECT_FALSE(file.next());
  ASSERT_EQ(file.bad_examples().size(), 1u);
  EXPECT_THAT(file.bad_examples()[0], HasSubstr("end.spc:1: a request of 512 bytes at offset "
                                                "18446744073709551104 ends beyond byte 2^64 - 1"));
}

TEST_F(TraceInputLimits, RequestsAtTheTopOfTheAddressSpaceMapIntoTheDevice) {
  constexpr std::uint64_t kDevice = 1 << 20;
  const std::uint64_t top = std::numeric_limits<std::uint64_t>::max() - 8191;  // ends 4 KiB short
  for (const AddressMap map : {AddressMap::kScale, AddressMap::kModulo}) {
    support::VectorReader reader({TraceRecord{0, top, 4096, IoMode::kWrite, 0}});
    ReadOptions options;
    options.map = map;
    Selection selection(reader, options, kDevice, 512, Placement{top + 4096, {}});
    const auto record = selection.next();
    ASSERT_TRUE(record);
    EXPECT_LE(record->offset + record->size, kDevice) << address_map_name(map);
  }
}

TEST_F(TraceInputLimits, DevicesSideBySidePast2To64BytesAreRefused) {
  std::uint64_t total = 0;
  const std::uint64_t span = 10'000'000'000'000'004'096ull;
  EXPECT_EQ(side_by_side_bases({{0, span}}, 4096, total).at(0), 0u);
  EXPECT_EQ(total, span);
  try {
    (void)side_by_side_bases({{0, span}, {1, span}}, 4096, total);
    ADD_FAILURE() << "no error";
  } catch (const Error& error) {
    EXPECT_THAT(error.what(), HasSubstr("devices=side-by-side: the devices' address spans add up "
                                        "to more than 2^64 bytes (device 1"));
  }
}

}  // namespace
}  // namespace ssdlab::traces
