// A checkpoint's info block and what loading or saving one reports, as typed
// records (sim/state/checkpoint.h writes and reads the files). The info is
// the JSON between a checkpoint's header and its state: the ssdlab version
// and format that wrote it, the device config it was saved from, and what
// made the state (Provenance). Loading reports that info with the file's
// name, size and load time; saving reports where it went (or why not).
// summary.json's "checkpoint" block holds both. Each record's keys are
// listed once, in checkpoint_fields.h, which both summary_json.cpp's writer
// and its reader walk: the reader refuses a missing field or one of another
// type, naming it, and ignores keys it does not know.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/results/summary_blocks.h"

namespace ssdlab::sim {

// (Members have initialisers, `{}` at least, so that designated initialisers
// may leave them out without -Wmissing-field-initializers.)

// What made a checkpoint's state: a run's --save-state
// (sim/run/run_session.cpp) or the state cache (sim/state/state_cache.cpp).
struct Provenance {
  std::string saved_after{};  // "run", or "preconditioning" (workload "none")
  std::string workload{};     // the run's workload, "none" before any
  std::uint64_t seed = 0;
  std::optional<std::string> precondition{};  // the --precondition text; null: none
  double simulated_us = 0;                    // the simulated clock when saved

  // Saved by ssdlab sim --save-state: its config file, --set overrides and
  // --load-state file (null: none), and the host pages written by then.
  struct Run {
    std::string config{};
    std::vector<std::string> sets{};
    std::optional<std::string> loaded_from{};
    std::uint64_t host_pages_written = 0;
    bool operator==(const Run&) const = default;
  };
  std::optional<Run> run{};

  // Saved by the state cache: the key it is stored under (state_cache_key(),
  // compared whole on a hit) and the figures of the preconditioning that
  // made the state (a hit reports them as its own).
  struct Cache {
    nlohmann::json state_cache_key{};
    StateRecord figures{};
    bool operator==(const Cache&) const = default;
  };
  std::optional<Cache> cache{};

  bool operator==(const Provenance&) const = default;
};

// A checkpoint's info block.
struct CheckpointInfo {
  std::string ssdlab_version{};
  std::uint32_t format = 0;  // kCheckpointFormat of the build that wrote it
  // The device config it was saved from (to_json(DeviceConfig) without
  // "source" and "name"): kept as JSON, since loading compares it key by key
  // with the run's (naming the first geometry or FTL key that differs).
  nlohmann::json config{};
  Provenance provenance{};
  bool operator==(const CheckpointInfo&) const = default;
};

// A checkpoint file whose header, length and checksum are correct
// (checkpoint_info()): its path, size and info.
struct CheckpointFile {
  std::string file{};
  std::uint64_t bytes = 0;
  CheckpointInfo info{};
  bool operator==(const CheckpointFile&) const = default;
};

// A checkpoint loaded (--load-state): the file, how long loading took, and
// the timing and host keys ("timing.read_us") in which the run's config
// differs from the saved one (they are not state).
struct LoadedCheckpoint : CheckpointFile {
  double seconds = 0;
  std::vector<std::string> config_differs{};
  bool operator==(const LoadedCheckpoint&) const = default;
};

// A checkpoint saved (--save-state): where, how large, how long writing took;
// or, if it was not saved, why (the other fields then absent).
struct SavedCheckpoint {
  std::optional<std::string> skipped{};
  std::string file{};
  std::uint64_t bytes = 0;
  double seconds = 0;
  bool operator==(const SavedCheckpoint&) const = default;
};

// summary.json's "checkpoint" block.
struct CheckpointRecord {
  std::optional<LoadedCheckpoint> loaded;
  std::optional<SavedCheckpoint> saved;
  bool operator==(const CheckpointRecord&) const = default;
};

}  // namespace ssdlab::sim
