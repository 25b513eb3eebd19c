// A checkpoint's info block as typed records (sim/results/checkpoint_record.h):
// written and read through one field list, the reader refusing a missing
// field or one of another type with the field's name, ignoring keys it does
// not know, and a checkpoint file with such an info refused in one line.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>

#include "common/error.h"
#include "common/state_io.h"
#include "sim/controller/ssd.h"
#include "sim/results/summary.h"
#include "sim/state/checkpoint.h"
#include "test_support.h"

namespace ssdlab::sim {
namespace {

namespace fs = std::filesystem;

// The info of a run's --save-state.
CheckpointInfo run_info() {
  CheckpointInfo info{.ssdlab_version = "0.1.0",
                      .format = kCheckpointFormat,
                      .config = {{"geometry", {{"pages_per_block", 16}}}},
                      .provenance = {.saved_after = "run",
                                     .workload = "RW:count=10",
                                     .seed = 7,
                                     .precondition = "random",
                                     .simulated_us = 1234.5}};
  info.provenance.run = Provenance::Run{.config = "tiny.toml",
                                        .sets = {"timing.read_us=30"},
                                        .loaded_from = std::nullopt,
                                        .host_pages_written = 99};
  return info;
}

// The reader's error for `json`, or "" if it reads.
std::string read_error(const nlohmann::json& json) {
  try {
    (void)checkpoint_info_from_json(json, "info");
  } catch (const Error& error) {
    return error.what();
  }
  return "";
}

TEST(CheckpointInfoRecord, ReadsBackWhatItWrites) {
  CheckpointInfo info = run_info();
  EXPECT_EQ(checkpoint_info_from_json(nlohmann::json(info), "info"), info);
  info.provenance.run.reset();
  info.provenance.cache = Provenance::Cache{.state_cache_key = {{"seed", 7}}};
  info.provenance.cache->figures.mode = "random";
  info.provenance.cache->figures.threads = 2;
  EXPECT_EQ(checkpoint_info_from_json(nlohmann::json(info), "info"), info);
}

// The keys a run's provenance has always had, nulls included; the state
// cache's have no run keys and a run's no cache keys.
TEST(CheckpointInfoRecord, WritesEachWritersKeysAndNoOthers) {
  const nlohmann::json json = run_info();
  EXPECT_EQ(json["provenance"]["loaded_from"], nullptr);
  EXPECT_FALSE(json["provenance"].contains("figures"));
  EXPECT_FALSE(json["provenance"].contains("state_cache_key"));
  CheckpointInfo cached = run_info();
  cached.provenance.run.reset();
  cached.provenance.cache = Provenance::Cache{};
  const nlohmann::json cache_json = cached;
  EXPECT_TRUE(cache_json["provenance"].contains("figures"));
  EXPECT_FALSE(cache_json["provenance"].contains("loaded_from"));
  EXPECT_FALSE(cache_json["provenance"].contains("sets"));
}

TEST(CheckpointInfoRecord, RefusesAMissingFieldNamingIt) {
  const nlohmann::json json = run_info();
  for (const char* key : {"ssdlab_version", "format", "config", "provenance"}) {
    nlohmann::json copy = json;
    copy.erase(key);
    EXPECT_EQ(read_error(copy), fmt::format("info: no {}", key));
  }
  for (const char* key : {"saved_after", "workload", "seed", "precondition", "simulated_us", "sets",
                          "loaded_from", "host_pages_written"}) {
    nlohmann::json copy = json;
    copy["provenance"].erase(key);
    EXPECT_EQ(read_error(copy), fmt::format("info: provenance: no {}", key));
  }
  nlohmann::json cache_without_key = json;
  cache_without_key["provenance"]["figures"] = nlohmann::json::object();
  EXPECT_EQ(read_error(cache_without_key), "info: provenance: no state_cache_key");
}

TEST(CheckpointInfoRecord, RefusesAFieldOfAnotherTypeNamingIt) {
  const nlohmann::json json = run_info();
  const auto with = [&](const char* pointer, const nlohmann::json& value) {
    nlohmann::json copy = json;
    copy[nlohmann::json::json_pointer(pointer)] = value;
    return read_error(copy);
  };
  EXPECT_EQ(with("/format", "6"), "info: format: not a count");
  EXPECT_EQ(with("/format", -6), "info: format: not a count");
  EXPECT_EQ(with("/ssdlab_version", 1), "info: ssdlab_version: not a string");
  EXPECT_EQ(with("/config", "tiny"), "info: config: not an object");
  EXPECT_EQ(with("/provenance", 3), "info: provenance: not a JSON object");
  EXPECT_EQ(with("/provenance/seed", "7"), "info: provenance: seed: not a count");
  EXPECT_EQ(with("/provenance/simulated_us", "x"), "info: provenance: simulated_us: not a number");
  EXPECT_EQ(with("/provenance/precondition", 1), "info: provenance: precondition: not a string");
  EXPECT_EQ(with("/provenance/sets", "a=b"), "info: provenance: sets: not an array");
  EXPECT_EQ(with("/provenance/figures", nlohmann::json::array()),
            "info: provenance: figures: not a JSON object");
  EXPECT_EQ(read_error(nlohmann::json::array({json})), "info: not a JSON object");
}

// Keys it does not know are ignored, not kept: the format version decides
// whether a state loads, and a build that records more provenance under the
// same format writes files this one still loads.
TEST(CheckpointInfoRecord, IgnoresKeysItDoesNotKnow) {
  nlohmann::json json = run_info();
  json["from_the_future"] = 1;
  json["provenance"]["host"] = "lab-3";
  const CheckpointInfo info = checkpoint_info_from_json(json, "info");
  EXPECT_EQ(info, run_info());
  EXPECT_FALSE(nlohmann::json(info).contains("from_the_future"));
}

// A checkpoint file whose info (length and CRC made to match) lacks a field
// is refused in one line naming the file and the field.
TEST(CheckpointInfoRecord, AFileWithAMalformedInfoIsRefusedInOneLine) {
  const fs::path dir = testing::temp_dir_for_this_test("checkpoint-info-");
  const DeviceConfig config = testing::load_preset("tiny");
  const fs::path path = dir / "state.ckpt";
  save_checkpoint(path, Ssd(config), RunPosition{}, run_info().provenance);
  const std::string bytes = testing::read_file(path);
  std::uint32_t info_bytes = 0;
  std::memcpy(&info_bytes, bytes.data() + 20, 4);
  nlohmann::json info = nlohmann::json::parse(bytes.substr(24, info_bytes));
  info["provenance"].erase("workload");
  const std::string text = info.dump();
  std::string forged = bytes.substr(0, 20);
  const auto size = static_cast<std::uint32_t>(text.size());
  forged.append(reinterpret_cast<const char*>(&size), 4);
  forged += text + bytes.substr(24 + info_bytes, bytes.size() - 24 - info_bytes - 4);
  Crc32 crc;
  crc.update(forged.data(), forged.size());
  const std::uint32_t value = crc.value();
  forged.append(reinterpret_cast<const char*>(&value), 4);
  std::ofstream(path, std::ios::binary | std::ios::trunc) << forged;

  const std::string expected = path.string() + ": corrupt: the info block: provenance: no workload";
  try {
    (void)checkpoint_info(path);
    FAIL() << "a malformed info was read";
  } catch (const Error& error) {
    EXPECT_EQ(std::string(error.what()), expected);
  }
  Ssd ssd(config);
  RunPosition position;
  std::string why;
  EXPECT_FALSE(try_load_checkpoint(path, ssd, position, why));
  EXPECT_EQ(why, expected);
}

}  // namespace
}  // namespace ssdlab::sim
