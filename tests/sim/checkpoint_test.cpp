// Checkpoints (sim/state/checkpoint.h): the state of every FTL survives a save and a load
// exactly (the same bytes saved again, the same invariants, the same completion times and
// state after the same later requests), and every kind of bad file is refused naming it.
#include "sim/state/checkpoint.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <boost/crc.hpp>
#include <cstring>
#include <fstream>
#include <sstream>

#include "common/rng.h"
#include "common/state_io.h"
#include "ftl/block_keys.h"
#include "ftl/page_mapped/page_mapped_keys.h"
#include "sim/controller/ssd.h"
#include "test_support.h"

namespace {

namespace fs = std::filesystem;
namespace ftl = ssdlab::ftl;
namespace support = ssdlab::testing;
using ssdlab::Rng;
using ssdlab::StateReader;
using ssdlab::StateWriter;
using ssdlab::TimeNs;
using ssdlab::sim::DeviceConfig;
using ssdlab::sim::RunPosition;
using ssdlab::sim::Ssd;
using ::testing::HasSubstr;

TEST(Crc32, MatchesBoostCrcOnTheCheckValueAndOnRandomBlocks) {
  ssdlab::Crc32 check;
  check.update("123456789", 9);
  EXPECT_EQ(check.value(), 0xCBF43926u);  // the CRC-32 check value
  Rng rng(5);
  std::vector<unsigned char> data(100003);
  for (auto& byte : data) byte = static_cast<unsigned char>(rng.next());
  ssdlab::Crc32 ours;
  ours.update(data.data(), 17);  // unaligned pieces, as a stream gives them
  ours.update(data.data() + 17, data.size() - 17);
  boost::crc_32_type reference;
  reference.process_bytes(data.data(), data.size());
  EXPECT_EQ(ours.value(), reference.checksum());
}

TEST(StateIo, RoundTripsSectionsScalarsAndVectorsLittleEndian) {
  std::ostringstream bytes;
  StateWriter out(&bytes);
  out.section("TEST", 3);
  out.u32(0x01020304);
  out.i64(-5);
  out.f64(0.15);
  out.vector(std::vector<std::uint16_t>{1, 2, 65535});
  const std::string text = bytes.str();
  EXPECT_EQ(text.substr(0, 4), "TEST");
  EXPECT_EQ(static_cast<unsigned char>(text[8]), 0x04);  // little-endian
  EXPECT_EQ(out.written(), text.size());

  std::istringstream in_bytes(text);
  StateReader in(in_bytes);
  in.section("TEST", 3);
  EXPECT_EQ(in.u32(), 0x01020304u);
  EXPECT_EQ(in.i64(), -5);
  EXPECT_EQ(in.f64(), 0.15);
  std::vector<std::uint16_t> items;
  in.vector(items, 3, "items");
  EXPECT_EQ(items, (std::vector<std::uint16_t>{1, 2, 65535}));
}

TEST(StateIo, RefusesAnotherSectionVersionACountOtherThanExpectedAndTruncation) {
  std::ostringstream bytes;
  StateWriter out(&bytes);
  out.section("TEST", 3);
  out.vector(std::vector<std::uint32_t>{1, 2});
  const std::string text = bytes.str();
  {
    std::istringstream in_bytes(text);
    StateReader in(in_bytes);
    EXPECT_THROW(in.section("TEST", 4), ssdlab::Error);
  }
  {
    std::istringstream in_bytes(text);
    StateReader in(in_bytes);
    in.section("TEST", 3);
    std::vector<std::uint32_t> items;
    EXPECT_THROW(in.vector(items, 3, "items"), ssdlab::Error);
  }
  {
    std::istringstream in_bytes(text.substr(0, text.size() - 1));
    StateReader in(in_bytes);
    in.section("TEST", 3);
    std::vector<std::uint32_t> items;
    try {
      in.vector(items, 2, "items");
      FAIL() << "a truncated vector was read";
    } catch (const ssdlab::Error& error) {
      EXPECT_THAT(error.what(), HasSubstr("truncated"));
    }
  }
}

// The tiny device with FTL `param`; the page-mapped one with migration wear leveling and
// short life, so that the wear state and its generator matter.
// "page-mapped:rate-limit-first": ssdlab 0.1's wear order, which rate-limits (draws from the
// generator) before it migrates; §5's order (the default) migrates wherever a cold block is.
// "FTL+incremental" (issue 26): incremental cleaning (per plane for the page-mapped FTL, per
// pool for DFTL), one page move per page written. On tiny's 32-block planes a plane's mark is
// its emergency floor, so per plane a victim is seldom in progress when the state is saved;
// checkpoint_incremental_test.cpp saves one right after a write that left its victim half moved.
DeviceConfig config_for(const std::string& param) {
  // 4 KiB map units in 16 KiB pages packed by a write buffer (issue 53).
  const std::string type = param.substr(0, param.find_first_of(":+"));
  if (param == type + "+units")
    return ssdlab::sim::load_config(
        support::preset("tiny"),
        {"geometry.page_size=16KiB", "ftl.stripe_size=16KiB", "ftl.logical_page_size=4KiB",
         "controller.write_buffer=256KiB", "ftl.type=" + type});
  DeviceConfig config = support::load_preset("tiny");
  config.ftl.type = type;
  if (param.find('+') != std::string::npos) {
    // DFTL per pool: beside its third active block per plane, tiny's planes are too small.
    auto& keys = config.ftl.keys.edit<ftl::PageMappedKeys>();
    keys.clean_scope = type == "dftl" ? ftl::CleanScope::kPool : ftl::CleanScope::kPlane;
    keys.clean_granularity = ftl::CleanGranularity::kIncremental;
    keys.clean_incremental_pages = 1;
    return config;
  }
  if (type == "page-mapped") {
    config.geometry.pe_cycles = 30;
    config.ftl.wear.mode = ssdlab::ftl::WearMode::kMigration;
    if (param != type) config.ftl.wear.order = ssdlab::ftl::WearOrder::kRateLimitFirst;
    config.ftl.clean_high_water = 0.1;  // background cleaning: idle state matters too
  } else if (type == "bast" || type == "fast") {
    config.ftl.keys.emplace(ssdlab::ftl::BlockKeys{.log_blocks = 3});
    config.ftl.wear.mode = ssdlab::ftl::WearMode::kRateLimit;
    config.geometry.pe_cycles = 200;
  }
  return config;
}

std::string saved_bytes(const Ssd& ssd) {
  std::ostringstream bytes;
  StateWriter out(&bytes);
  ssd.save_state(out);
  return bytes.str();
}

// Random reads and writes of 1 to 3 pages (partial ones too) at `now`, each
// submitted when the previous completed; returns the completion times.
std::vector<TimeNs> drive(Ssd& ssd, std::uint64_t seed, int requests, TimeNs& now) {
  Rng rng(seed);
  const std::uint64_t sectors = ssd.logical_bytes() / 512;
  std::vector<TimeNs> done;
  for (int i = 0; i < requests; ++i) {
    const auto size = static_cast<std::uint32_t>((1 + rng.uniform(24)) * 512);
    const std::uint64_t offset = rng.uniform(sectors - size / 512) * 512;
    const bool write = rng.uniform(4) != 0;
    now = *ssd.start(ssdlab::HostIo{offset, size, ssdlab::io_mode_of(write)}, now);
    if (rng.uniform(50) == 0) ssd.idle(now, now + 20'000'000);  // background cleaning
    done.push_back(now);
  }
  return done;
}

class FtlStateRoundTrip : public ::testing::TestWithParam<std::string> {};

TEST_P(FtlStateRoundTrip, LoadedStateSavesTheSameBytesAndContinuesIdentically) {
  const DeviceConfig config = config_for(GetParam());
  const bool example = GetParam() == "example";  // no cleaning: stay below capacity
  Ssd original(config, {.verify = true, .invariants_every = 500});
  TimeNs now = 0;
  drive(original, 1, example ? 400 : 8000, now);
  const std::string state = saved_bytes(original);

  Ssd loaded(config, {.verify = true, .invariants_every = 500});
  std::istringstream in_bytes(state);
  StateReader in(in_bytes);
  loaded.load_state(in);
  EXPECT_EQ(in.read(), state.size());
  loaded.ftl().check_invariants();
  EXPECT_EQ(saved_bytes(loaded), state);

  TimeNs now_original = now, now_loaded = now;
  const auto times_original = drive(original, 2, example ? 300 : 2000, now_original);
  const auto times_loaded = drive(loaded, 2, example ? 300 : 2000, now_loaded);
  EXPECT_EQ(times_loaded, times_original);
  EXPECT_EQ(saved_bytes(loaded), saved_bytes(original));
  loaded.ftl().check_invariants();
  // The comparison means something only where cleaning and (page-mapped)
  // wear leveling ran: rate-limiting draws from the wear leveler's generator,
  // migration reads its queues.
  const auto& stats = original.ftl().stats();
  if (!example) {
    EXPECT_GT(stats.blocks_cleaned, 0u);
  }
  // (The "+incremental" cases run neither wear leveling nor background cleaning.)
  if (GetParam().starts_with("page-mapped") && GetParam().find('+') == std::string::npos) {
    if (config.ftl.wear.order == ssdlab::ftl::WearOrder::kRateLimitFirst) {
      EXPECT_GT(stats.wear_deferrals, 0u);
    }
    EXPECT_GT(stats.wear_migrations, 0u);
    EXPECT_GT(stats.background_blocks_cleaned, 0u);
  }
}

INSTANTIATE_TEST_SUITE_P(EveryFtl, FtlStateRoundTrip,
                         ::testing::Values("page-mapped", "page-mapped:rate-limit-first",
                                           "block-mapped", "bast", "fast", "example",
                                           "page-mapped+incremental", "dftl+incremental",
                                           "page-mapped+units", "dftl+units"),
                         [](const auto& info) {
                           std::string name = info.param;
                           std::erase(name, '-');
                           std::replace(name.begin(), name.end(), ':', '_');
                           std::replace(name.begin(), name.end(), '+', '_');
                           return name;
                         });

class CheckpointFile : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = support::temp_dir_for_this_test("checkpoint-");
    config_ = support::load_preset("tiny");
    Ssd ssd(config_);
    TimeNs now = 0;
    drive(ssd, 3, 2000, now);
    saved_ = ssdlab::sim::save_checkpoint(dir_ / "state.ckpt", ssd, RunPosition{now, 2},
                                          {.saved_after = "run"});
    now_ = now;
    bytes_ = support::read_file(dir_ / "state.ckpt");
  }

  // Loads `text` as a checkpoint into a device of `config`; the error, or "".
  std::string load_error(const std::string& text, const DeviceConfig& config) {
    const fs::path path = dir_ / "bad.ckpt";
    std::ofstream(path, std::ios::binary) << text;
    Ssd ssd(config);
    RunPosition position;
    try {
      ssdlab::sim::load_checkpoint(path, ssd, position);
    } catch (const ssdlab::Error& error) {
      return error.what();
    }
    return "";
  }

  fs::path dir_;
  DeviceConfig config_;
  ssdlab::sim::SavedCheckpoint saved_;
  TimeNs now_ = 0;
  std::string bytes_;
};

TEST_F(CheckpointFile, LoadsBackTheClockAndPosition) {
  Ssd ssd(config_, {.verify = true});
  RunPosition position;
  const auto info = ssdlab::sim::load_checkpoint(dir_ / "state.ckpt", ssd, position);
  EXPECT_EQ(position.now, now_);
  EXPECT_EQ(position.state_resets, 2u);
  EXPECT_EQ(info.bytes, bytes_.size());
  EXPECT_EQ(saved_.bytes, bytes_.size());
  EXPECT_EQ(info.info.provenance.saved_after, "run");
  EXPECT_TRUE(info.config_differs.empty());
}

TEST_F(CheckpointFile, RefusesACorruptByte) {
  std::string text = bytes_;
  text[text.size() / 2] ^= 0x10;
  EXPECT_THAT(load_error(text, config_), HasSubstr("checksum mismatch"));
}

TEST_F(CheckpointFile, RefusesATruncatedFile) {
  EXPECT_THAT(load_error(bytes_.substr(0, bytes_.size() - 100), config_), HasSubstr("truncated"));
  EXPECT_THAT(load_error(bytes_.substr(0, 12), config_), HasSubstr("truncated"));
}

TEST_F(CheckpointFile, RefusesBytesAfterItsEnd) {
  EXPECT_THAT(load_error(bytes_ + "x", config_), HasSubstr("corrupt"));
}

TEST_F(CheckpointFile, RefusesAFileThatIsNotACheckpoint) {
  EXPECT_THAT(load_error("experiment,run\n", config_), HasSubstr("not an ssdlab checkpoint"));
}

TEST_F(CheckpointFile, RefusesAnotherFormatVersion) {
  std::string text = bytes_;
  const std::uint32_t other = ssdlab::sim::kCheckpointFormat + 1;
  text[8] = static_cast<char>(other);  // the u32 after the magic
  EXPECT_THAT(load_error(text, config_), HasSubstr("format version " + std::to_string(other)));
}

TEST_F(CheckpointFile, RefusesAnotherGeometryNamingTheKey) {
  DeviceConfig other = config_;
  other.geometry.blocks_per_plane = 64;
  EXPECT_THAT(load_error(bytes_, other), HasSubstr("geometry.blocks_per_plane = 32"));
}

TEST_F(CheckpointFile, RefusesAnotherFtlNamingTheKey) {
  DeviceConfig other = config_;
  other.ftl.type = "fast";
  EXPECT_THAT(load_error(bytes_, other), HasSubstr("ftl.type = \"page-mapped\""));
  other = config_;
  other.ftl.overprovisioning = 0.2;
  EXPECT_THAT(load_error(bytes_, other), HasSubstr("ftl.overprovisioning"));
}

// A forged file (its CRC recomputed) is refused on every load, not only
// under --verify: without the check it crashed later runs (issue 23).
TEST_F(CheckpointFile, EveryLoadRefusesAStateThatPassesItsChecksumButBreaksInvariants) {
  // Page map entry 5 (after the header, the info, the PMAP section header and
  // the map's count) made to point at another page; the CRC made to match.
  std::string text = bytes_;
  std::uint32_t info_bytes = 0;
  std::memcpy(&info_bytes, text.data() + 20, 4);
  text[24 + info_bytes + 8 + 8 + 4 * 5] ^= 1;
  ssdlab::Crc32 crc;
  crc.update(text.data(), text.size() - 4);
  const std::uint32_t value = crc.value();
  std::memcpy(text.data() + text.size() - 4, &value, 4);
  EXPECT_THAT(load_error(text, config_),
              HasSubstr("inconsistent state: page-mapped: logical page 5"));
  const fs::path path = dir_ / "bad.ckpt";
  Ssd verified(config_, {.verify = true});
  RunPosition position;
  try {
    ssdlab::sim::load_checkpoint(path, verified, position);
    FAIL() << "an inconsistent state was loaded under verification";
  } catch (const ssdlab::Error& error) {
    EXPECT_THAT(error.what(), HasSubstr("inconsistent state: page-mapped: logical page 5"));
  }
}

// A forged info block (its lengths and CRC made to match) that lacks a field
// the loader reads, or holds one of another type, is refused as corrupt: a
// missing "provenance" was read out of bounds (found by checkpoint_fuzz).
TEST_F(CheckpointFile, RefusesAForgedInfoBlockWithoutItsFieldsOrOfOtherTypes) {
  std::uint32_t info_bytes = 0;
  std::memcpy(&info_bytes, bytes_.data() + 20, 4);
  const nlohmann::json info = nlohmann::json::parse(bytes_.substr(24, info_bytes));
  const auto forged = [&](const nlohmann::json& replacement) {
    const std::string text = replacement.dump();
    std::string file = bytes_.substr(0, 20);
    const auto size = static_cast<std::uint32_t>(text.size());
    file.append(reinterpret_cast<const char*>(&size), 4);
    file += text;
    file += bytes_.substr(24 + info_bytes, bytes_.size() - 24 - info_bytes - 4);
    ssdlab::Crc32 crc;
    crc.update(file.data(), file.size());
    const std::uint32_t value = crc.value();
    file.append(reinterpret_cast<const char*>(&value), 4);
    return file;
  };
  EXPECT_EQ(load_error(forged(info), config_), "");  // the forging itself is sound
  const auto without = [&](const nlohmann::json::json_pointer& field) {
    nlohmann::json copy = info;
    copy[field.parent_pointer()].erase(field.back());
    return copy;
  };
  const auto with = [&](const nlohmann::json::json_pointer& field, const nlohmann::json& value) {
    nlohmann::json copy = info;
    copy[field] = value;
    return copy;
  };
  for (const nlohmann::json& bad :
       {without("/provenance"_json_pointer), with("/provenance"_json_pointer, 3),
        with("/provenance/saved_after"_json_pointer, 1),
        with("/provenance/simulated_us"_json_pointer, "x"),
        with("/provenance/figures"_json_pointer, nlohmann::json::array()),
        with("/format"_json_pointer, "1"), with("/config"_json_pointer, "tiny"),
        nlohmann::json::array({info})})
    EXPECT_THAT(load_error(forged(bad), config_), HasSubstr("corrupt: the info block")) << bad;
}

TEST_F(CheckpointFile, LoadsIntoOtherTimingAndSaysSo) {
  DeviceConfig other = config_;
  other.timing.read_ns = 30'000;
  Ssd ssd(other);
  RunPosition position;
  const auto info = ssdlab::sim::load_checkpoint(dir_ / "state.ckpt", ssd, position);
  EXPECT_EQ(info.config_differs, std::vector<std::string>{"timing.read_us"});
}

TEST_F(CheckpointFile, SameStateSavesTheSameBytes) {
  Ssd ssd(config_);
  TimeNs now = 0;
  drive(ssd, 3, 2000, now);
  ssdlab::sim::save_checkpoint(dir_ / "again.ckpt", ssd, RunPosition{now, 2},
                               {.saved_after = "run"});
  EXPECT_EQ(support::read_file(dir_ / "again.ckpt"), bytes_);
  for (const auto& entry : fs::directory_iterator(dir_))  // no temporary file left
    EXPECT_FALSE(entry.path().filename().string().ends_with(".partial")) << entry.path();
}

}  // namespace
