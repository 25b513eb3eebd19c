// The preconditioned-state cache: `--precondition` saves the state it made
// (a checkpoint, checkpoint.h) in the user's cache folder and a later run
// asking for the same state loads it instead of writing the device again.
//
// A state is keyed by everything that determines it: the device config as
// resolved (every table, overrides applied; not where it came from) less the
// keys that shape only simulated time (timing, the flash dispatch order, the
// host's queues and link, firmware time: preconditioning runs without
// time), the precondition spec, the seed it was drawn with, the ssdlab
// version and the checkpoint format. The file name is a hash of the key;
// the key itself is stored in the file and compared in full on a hit, so a
// hash collision is a miss, never a wrong state.
//
// Folder: $XDG_CACHE_HOME/ssdlab, else $HOME/.cache/ssdlab (none: no cache).
// Size: the states it keeps total at most $SSDLAB_STATE_CACHE_SIZE (a size
// such as 20GiB, or "unlimited"; 10 GiB if unset). Storing a state removes
// the least recently used others (by their files' modification time, which
// a hit renews) until the rest fits; a state larger than the limit alone is
// not kept.
// Several processes or sweep jobs may share it: a state is written to a
// file of its own and renamed into place, so a reader sees a whole file or
// none. A file that is unusable (truncated, failing its checksum, of another
// format) is ignored with a warning and replaced; the cache never fails a
// run: a folder that cannot be written costs a warning.
#pragma once

#include <cstdint>
#include <filesystem>
#include <iosfwd>
#include <nlohmann/json.hpp>
#include <optional>

#include "sim/controller/ssd.h"
#include "sim/state/checkpoint.h"
#include "sim/state/precondition.h"

namespace ssdlab::sim {

// The cache folder (not created); empty if neither variable is set.
std::filesystem::path state_cache_dir();

// The most bytes of states the cache keeps (nullopt: no limit), from
// $SSDLAB_STATE_CACHE_SIZE; throws ssdlab::Error naming the variable if it
// is neither a size nor "unlimited".
inline constexpr std::uint64_t kDefaultStateCacheBytes = std::uint64_t{10} << 30;
std::optional<std::uint64_t> state_cache_limit();

// What a cached state is keyed by (see above).
nlohmann::json state_cache_key(const DeviceConfig& config, const workloads::PreconditionSpec& spec,
                               std::uint64_t seed);

// The file of `key` in `dir`.
std::filesystem::path state_cache_file(const std::filesystem::path& dir,
                                       const nlohmann::json& key);

// Loads the state of `key` into `ssd` (freshly built) and `position`; returns
// the figures of the preconditioning that made it, with state_cache "hit",
// state_file and load_seconds set; nullopt on a miss (no file, or an
// unusable one: warned and left to be replaced).
std::optional<StateRecord> load_cached_state(const std::filesystem::path& dir,
                                             const nlohmann::json& key, Ssd& ssd,
                                             RunPosition& position);

// Saves the state of `ssd` and `position` under `key`, with `figures` (what
// precondition() returned), then trims the cache to `limit` sparing it;
// returns false (after a warning) if it could not, or if the state alone is
// larger than `limit` (a limit of 0: nothing is written, without a warning).
bool store_cached_state(const std::filesystem::path& dir, const nlohmann::json& key, const Ssd& ssd,
                        const RunPosition& position, const StateRecord& figures,
                        std::optional<std::uint64_t> limit);

// Held while this process makes the state of `key`: another process asking
// for the same state (a sweep job beside it, an array task on another node
// sharing the folder) waits for it, then loads what this one stored, so
// that two never both make it. An flock on the state's name + ".lock",
// released when destroyed; a folder that cannot hold it costs the wait
// only (the cache never fails a run). The lock file is removed when
// released (issue 51, L13), so a finished run leaves none: one that takes it
// checks after its flock that the name still holds the file it locked (a
// holder may have removed it meanwhile) and else locks the new one.
class StateLock {
 public:
  StateLock(const std::filesystem::path& dir, const nlohmann::json& key);
  ~StateLock();
  StateLock(const StateLock&) = delete;
  StateLock& operator=(const StateLock&) = delete;

 private:
  std::filesystem::path path_;
  int fd_ = -1;
};

// Removes the least recently used states of `dir` (oldest modification time
// first) until those left total at most `limit` bytes; never `keep`.
// Temporary files (being written, or left by a crash) are neither counted nor
// removed: `ssdlab cache clear` removes them.
struct TrimResult {
  std::size_t removed = 0, kept = 0;
  std::uint64_t freed_bytes = 0, kept_bytes = 0;
};
TrimResult trim_state_cache(const std::filesystem::path& dir, std::uint64_t limit,
                            const std::filesystem::path& keep = {});

// `ssdlab cache list` / `clear` / `trim`: the cached states in `dir`, one
// line each, most recently used first (size, config, precondition, seed),
// and the limit; removes them all (and leftover temporary and lock files);
// trims them to `limit` (default: state_cache_limit()). Each says how many
// bytes.
void run_cache_list(const std::filesystem::path& dir, std::ostream& out);
void run_cache_clear(const std::filesystem::path& dir, std::ostream& out);
void run_cache_trim(const std::filesystem::path& dir, std::optional<std::uint64_t> limit,
                    std::ostream& out);

}  // namespace ssdlab::sim
