// The uFLIP I/O model (Bouganim et al. §3.1, Table 1): every LBA function and
// time function against sequences computed by hand from the paper's formulas.
#include <gtest/gtest.h>

#include <set>
#include <vector>

#include "workloads/generator.h"
#include "workloads/plan.h"

namespace ssdlab::workloads {
namespace {

constexpr std::uint64_t kDevice = 1 << 20;  // 1 MiB

ExperimentSpec spec_of(const std::string& text) {
  return parse_inline(text).experiments.front();
}

// The first `n` I/Os of process `process`.
std::vector<IoRequest> first_ios(const std::string& text, std::size_t n,
                                 std::uint32_t process = 0) {
  IoGenerator generator(spec_of(text), process, kDevice, 7);
  std::vector<IoRequest> ios;
  for (std::size_t i = 0; i < n; ++i) ios.push_back(generator.next());
  return ios;
}

std::vector<std::uint64_t> offsets(const std::vector<IoRequest>& ios) {
  std::vector<std::uint64_t> result;
  for (const auto& io : ios) result.push_back(io.offset);
  return result;
}

std::vector<TimeNs> delays(const std::vector<IoRequest>& ios) {
  std::vector<TimeNs> result;
  for (const auto& io : ios) result.push_back(io.delay_ns);
  return result;
}

constexpr std::uint64_t K = 4096;

TEST(UflipLba, SequentialIsTargetOffsetPlusIIoSize) {
  // Seq: TargetOffset + i x IOSize.
  EXPECT_EQ(offsets(first_ios("SW:io_size=4096,target_offset=8192,target_size=64KiB", 4)),
            (std::vector<std::uint64_t>{8192, 8192 + K, 8192 + 2 * K, 8192 + 3 * K}));
}

TEST(UflipLba, LocalityWrapsModuloTheTargetSize) {
  // Locality, Seq: TargetOffset + (i x IOSize) mod TargetSize.
  EXPECT_EQ(offsets(first_ios("SR:io_size=4096,target_size=12KiB", 7)),
            (std::vector<std::uint64_t>{0, K, 2 * K, 0, K, 2 * K, 0}));
}

TEST(UflipLba, ShiftMovesEveryOffset) {
  // Alignment: TargetOffset + IOShift + i x IOSize.
  EXPECT_EQ(offsets(first_ios("SW:io_size=4096,io_shift=512,target_size=64KiB", 3)),
            (std::vector<std::uint64_t>{512, 512 + K, 512 + 2 * K}));
  for (const auto& io : first_ios("RW:io_size=4096,io_shift=1024,target_size=64KiB", 200)) {
    EXPECT_EQ(io.offset % K, 1024u);
    EXPECT_LE(io.offset + io.size, 64 * 1024u);
  }
}

TEST(UflipLba, OrderedWithIncrementSkipsSlots) {
  // Order: TargetOffset + Incr x i x IOSize.
  EXPECT_EQ(offsets(first_ios("SW:io_size=4096,increment=4,target_size=1MiB", 4)),
            (std::vector<std::uint64_t>{0, 4 * K, 8 * K, 12 * K}));
  // Wrapping inside an 8-slot target: 0, 3, 6, 9 mod 8 = 1, 12 mod 8 = 4.
  EXPECT_EQ(offsets(first_ios("SR:io_size=4096,increment=3,target_size=32KiB", 5)),
            (std::vector<std::uint64_t>{0, 3 * K, 6 * K, 1 * K, 4 * K}));
}

TEST(UflipLba, ReverseStartsAtTheEndOfTheTarget) {
  // Incr = -1 in an 8-slot target: slots 7, 6, ..., 0, then 7 again.
  const auto ios = offsets(first_ios("SR:io_size=4096,increment=-1,target_size=32KiB", 9));
  EXPECT_EQ(ios,
            (std::vector<std::uint64_t>{7 * K, 6 * K, 5 * K, 4 * K, 3 * K, 2 * K, K, 0, 7 * K}));
}

TEST(UflipLba, InPlaceRepeatsOneAddress) {
  for (const auto offset : offsets(first_ios("SW:io_size=4096,increment=0,target_offset=64KiB", 5)))
    EXPECT_EQ(offset, 64 * 1024u);
}

TEST(UflipLba, PartitionedVisitsPartitionsRoundRobin) {
  // 16 slots, 4 partitions: PS = 4 slots; P_i = i mod 4, O_i = (i / 4) mod PS.
  const auto ios = offsets(first_ios("SW:io_size=4096,partitions=4,target_size=64KiB", 18));
  const std::vector<std::uint64_t> slots{0, 4,  8,  12, 1, 5,  9,  13, 2,
                                         6, 10, 14, 3,  7, 11, 15, 0,  4};
  ASSERT_EQ(ios.size(), slots.size());
  for (std::size_t i = 0; i < slots.size(); ++i) EXPECT_EQ(ios[i], slots[i] * K) << "i = " << i;
}

TEST(UflipLba, RandomIsAlignedInsideTheTargetAndCoversIt) {
  // Rnd: TargetOffset + random(TargetSize / IOSize) x IOSize.
  std::set<std::uint64_t> seen;
  for (const auto& io : first_ios("RR:io_size=4096,target_offset=128KiB,target_size=64KiB", 2000)) {
    EXPECT_EQ(io.offset % K, 0u);
    EXPECT_GE(io.offset, 128 * 1024u);
    EXPECT_LT(io.offset, 192 * 1024u);
    seen.insert(io.offset);
  }
  EXPECT_EQ(seen.size(), 16u);  // all 16 slots, with overwhelming probability
}

TEST(UflipLba, ParallelProcessesGetEqualSubRanges) {
  // Parallelism: TargetOffset_p = p x TargetSize / ParallelDegree.
  const std::string text = "SW:io_size=4096,processes=4,target_size=64KiB";
  for (std::uint32_t p = 0; p < 4; ++p) {
    const auto ios = offsets(first_ios(text, 5, p));
    const std::uint64_t base = p * 16 * 1024;
    EXPECT_EQ(ios, (std::vector<std::uint64_t>{base, base + K, base + 2 * K, base + 3 * K, base}));
  }
}

TEST(UflipMode, BaselinesHaveConstantModes) {
  for (const auto& [text, write] :
       {std::pair{"SR", false}, {"RR", false}, {"SW", true}, {"RW", true}})
    for (const auto& io : first_ios(std::string(text) + ":count=10", 10))
      EXPECT_EQ(io.mode == IoMode::kWrite, write) << text;
}

TEST(UflipMix, RatioIosOfTheFirstPatternThenOneOfTheSecond) {
  const auto ios = first_ios("SR:mix_pattern=SW,mix_ratio=3,io_size=4096,target_size=1MiB", 9);
  const std::vector<bool> modes{false, false, false, true, false, false, false, true, false};
  std::vector<std::uint64_t> reads, writes;
  for (std::size_t i = 0; i < ios.size(); ++i) {
    EXPECT_EQ(ios[i].mode == IoMode::kWrite, modes[i]) << "i = " << i;
    (ios[i].mode == IoMode::kWrite ? writes : reads).push_back(ios[i].offset);
  }
  // Each pattern keeps its own sequence.
  EXPECT_EQ(reads, (std::vector<std::uint64_t>{0, K, 2 * K, 3 * K, 4 * K, 5 * K, 6 * K}));
  EXPECT_EQ(writes, (std::vector<std::uint64_t>{0, K}));
}

TEST(UflipTime, ConsecutiveNeverPauses) {
  for (const TimeNs delay : delays(first_ios("SR:count=10", 10))) EXPECT_EQ(delay, 0);
}

TEST(UflipTime, PausePausesBeforeEveryIoButTheFirst) {
  // t(IO_i) = t(IO_i-1) + rt(IO_i-1) + Pause.
  EXPECT_EQ(delays(first_ios("SR:pause_us=250", 4)),
            (std::vector<TimeNs>{0, 250000, 250000, 250000}));
  EXPECT_EQ(delays(first_ios("SR:pause_us=0.5", 2)), (std::vector<TimeNs>{0, 500}));
}

TEST(UflipTime, BurstPausesBetweenGroupsOfBurstIos) {
  // burst(Pause, Burst): a pause between groups of Burst I/Os (§3.1).
  EXPECT_EQ(delays(first_ios("SW:pause_us=100,burst=3", 8)),
            (std::vector<TimeNs>{0, 0, 0, 100000, 0, 0, 100000, 0}));
}

TEST(UflipKeys, ConflictingOrMisplacedKeysAreRejected) {
  const auto error = [](const std::string& text) {
    try {
      parse_inline(text);
    } catch (const std::exception& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(error("RW:increment=2"),
            "-w 'RW:increment=2': increment applies to sequential patterns (SR, SW), not RW");
  EXPECT_EQ(error("RR:partitions=4"),
            "-w 'RR:partitions=4': partitions applies to sequential patterns (SR, SW), not RR");
  EXPECT_EQ(error("SW:increment=2,partitions=2"),
            "-w 'SW:increment=2,partitions=2': increment and partitions are two LBA functions; "
            "give one of them");
  EXPECT_EQ(error("SW:burst=4"),
            "-w 'SW:burst=4': burst 4 needs pause_us, the pause between bursts");
  EXPECT_EQ(error("SW:mix_ratio=4"),
            "-w 'SW:mix_ratio=4': mix_ratio needs mix_pattern, the pattern it is mixed with");
  EXPECT_EQ(error("SW:pause_us=-1"),
            "-w 'SW:pause_us=-1': pause_us: expected microseconds from 0 to 1000000000000, such "
            "as 100 or 0.5 (got -1)");
  EXPECT_EQ(error("SW:mix_pattern=XY"),
            "-w 'SW:mix_pattern=XY': mix_pattern: expected SR, RR, SW or RW (got \"XY\")");
}

TEST(UflipKeys, CountDefaultsFollowThePaper) {
  // §5.1: IOCount 1,024 for SR, RR, SW and 5,120 for RW; mixes scaled so the
  // second pattern gets its own IOCount.
  EXPECT_EQ(spec_of("SR").count, 1024u);
  EXPECT_EQ(spec_of("SW").count, 1024u);
  EXPECT_EQ(spec_of("RW").count, 5120u);
  EXPECT_EQ(spec_of("SR:mix_pattern=RW,mix_ratio=4").count, 5u * 5120);
  EXPECT_EQ(spec_of("RW:count=10").count, 10u);
}

}  // namespace
}  // namespace ssdlab::workloads
