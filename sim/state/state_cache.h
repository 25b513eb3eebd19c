// The preconditioned-state cache: `--precondition` saves the state it made
// (a checkpoint, checkpoint.h) in the user's cache folder and a later run
// asking for the same state loads it instead of writing the device again.
//
// A state is keyed by everything that determines it: the device config as
// resolved (every table, overrides applied; not where it came from), the
// precondition spec, the seed it was drawn with, the ssdlab version and the
// checkpoint format. The file name is a hash of the key; the key itself is
// stored in the file and compared in full on a hit, so a hash collision is a
// miss, never a wrong state.
//
// Folder: $XDG_CACHE_HOME/ssdlab, else $HOME/.cache/ssdlab (none: no cache).
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

// What a cached state is keyed by (see above).
nlohmann::json state_cache_key(const DeviceConfig& config, const PreconditionSpec& spec,
                               std::uint64_t seed);

// The file of `key` in `dir`.
std::filesystem::path state_cache_file(const std::filesystem::path& dir,
                                       const nlohmann::json& key);

// Loads the state of `key` into `ssd` (freshly built) and `position`; returns
// the figures of the preconditioning that made it, with "state_cache":
// "hit", "state_file" and "load_seconds" added; nullopt on a miss (no file,
// or an unusable one: warned and left to be replaced).
std::optional<nlohmann::json> load_cached_state(const std::filesystem::path& dir,
                                                const nlohmann::json& key, Ssd& ssd,
                                                RunPosition& position);

// Saves the state of `ssd` and `position` under `key`, with `figures` (what
// precondition() returned); returns false (after a warning) if it could not.
bool store_cached_state(const std::filesystem::path& dir, const nlohmann::json& key,
                        const Ssd& ssd, const RunPosition& position,
                        const nlohmann::json& figures);

// `ssdlab cache list` / `ssdlab cache clear`: the cached states in `dir`,
// one line each (size, config, precondition, seed); removes them (and
// leftover temporary files) and says how many bytes that freed.
void run_cache_list(const std::filesystem::path& dir, std::ostream& out);
void run_cache_clear(const std::filesystem::path& dir, std::ostream& out);

}  // namespace ssdlab::sim
