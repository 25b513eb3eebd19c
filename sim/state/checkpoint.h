// Checkpoints (README, "Checkpoints"): the complete state of a simulated
// SSD in one file, so that a later run starts where an earlier one stopped
// (typically: after minutes of preconditioning) and continues exactly as that
// run would have: the same io.csv rows.
//
// File layout, little-endian:
//   "SSDLABCK"          magic, 8 bytes
//   u32 version         kCheckpointFormat
//   u64 state bytes     length of the state below
//   u32 info bytes      length of the info below
//   info                JSON (CheckpointInfo, sim/results/checkpoint_record.h):
//                       ssdlab version, format, the device config it was
//                       saved from, and what made the state (Provenance)
//   state               sections (common/state_io.h): the FTL's (its own,
//                       NAND array, victim buckets, wear leveler, counters),
//                       the flash timelines, the controller, the run position
//   u32 CRC-32          of every byte before it
// Loading refuses, with one line naming the file and what is wrong, a file
// that is not a checkpoint, of another format version, truncated, with bytes
// after its end, failing its checksum, with an info block lacking a field or
// holding one of another type, or saved from a device config whose
// geometry or FTL keys differ (naming the key). Timing and host keys may
// differ: they are not state, and a warning says so.
#pragma once

#include <cstdint>
#include <filesystem>
#include <iosfwd>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "common/units.h"
#include "sim/controller/ssd.h"
#include "sim/results/output.h"
#include "sim/results/checkpoint_record.h"

namespace ssdlab::sim {

// Raised with any section version (common/state_io.h) as well: the state
// cache is keyed by it (state_cache.h), so a build whose sections differ
// never meets another build's cached file under the same name, and
// --load-state refuses such a file by its header. 2: the wear leveler's
// section WEAR 2, the block store's BSTO 3 and BAST 2; 3: TIME 4, each
// bus's reservations (flash/bus_timeline.h); 4: VPOL 2 of the fifo and
// cost-benefit policies (ftl/victim_policy_ordered.cpp); 5: TIME 6, the
// host's flash accesses (flash/timeline.h), SSDC 4, a saved command's
// transfer bytes (a summary page's sector); 6: SSDC 5, the controller's
// parts in sections of their own (WBFR, BGCL; sim/controller/ssd.h); 7:
// TIME 7, program and erase suspensions (flash/suspend.h); 8: NAND 2 (SLC
// mode per block), PMAP 4 (each plane's SLC cache block) and the SLC cache's
// SLCC (ftl/page_mapped/page_mapped_slc_cache.h), and the cell counters in TIME;
// 9: the controller's list of parts (PRTS, sim/controller/ssd_state.cpp),
// each part's bytes counted and found by its tag, BGCL 2.
inline constexpr std::uint32_t kCheckpointFormat = 9;

// Where the run stood, besides the device.
struct RunPosition {
  TimeNs now = 0;                  // simulated clock (the timelines hold absolute times)
  std::uint32_t state_resets = 0;  // preconditionings so far (they seed the next one)
};

// The first bytes of every checkpoint file.
inline constexpr std::string_view kCheckpointMagic = "SSDLABCK";

// A checkpoint written completely to its temporary file (TemporaryFile,
// sim/results/output.h), not yet in place: publish() renames it over its
// path, so that a run commits it together with its other outputs; destroyed
// unpublished, it is removed and an earlier file at the path stays.
struct PendingCheckpoint {
  std::unique_ptr<TemporaryFile> file;  // null: nothing to publish (skipped)
  SavedCheckpoint saved;                // where it goes, or why not (skipped)
  void publish() {
    if (file) file->publish("the checkpoint");
  }
};

// Writes the state of `ssd` and `position` for `path` to a fresh temporary
// file beside it. `provenance` (what made the state) goes into the info.
// Throws ssdlab::Error if it cannot write.
PendingCheckpoint write_checkpoint(const std::filesystem::path& path, const Ssd& ssd,
                                   const RunPosition& position, const Provenance& provenance);
// write_checkpoint() and publish() at once. Returns where it was saved.
SavedCheckpoint save_checkpoint(const std::filesystem::path& path, const Ssd& ssd,
                                const RunPosition& position, const Provenance& provenance);

// Loads `path` into `ssd`, freshly built from the run's device config, and
// sets `position`. Returns the file's info, size, load time and the config
// keys that differ. Throws ssdlab::Error "PATH: what is wrong" (with
// verification on, also for a state that breaks the FTL's invariants); `ssd`
// must then be discarded.
LoadedCheckpoint load_checkpoint(const std::filesystem::path& path, Ssd& ssd,
                                 RunPosition& position);

// As load_checkpoint(), but a file that cannot be used at all (missing, not a
// checkpoint, another format, truncated, failing its checksum, a malformed
// info block: all found before any state is read) returns nullopt, with `why`
// ("PATH: what is wrong"), and leaves `ssd` untouched. What goes wrong later
// throws as there.
std::optional<LoadedCheckpoint> try_load_checkpoint(const std::filesystem::path& path, Ssd& ssd,
                                                    RunPosition& position, std::string& why);

// Checks `path` (header, length, checksum, info) without loading it;
// returns its info and size. Throws ssdlab::Error "PATH: what is wrong".
CheckpointFile checkpoint_info(const std::filesystem::path& path);

// Whether a checkpoint whose info (checkpoint_info()) is `info` loads into
// `config`, as load_checkpoint() decides it before reading any state: throws
// ssdlab::Error "was saved from a device with KEY = …, but the config has …"
// if its geometry or FTL differ. `sweep` checks every job this way before
// any runs (or before --slurm writes its script).
void check_checkpoint_fits(const CheckpointInfo& info, const DeviceConfig& config);

// One line each on what was loaded / saved (`checkpoint`: summary.json's).
void print_loaded(std::ostream& out, const LoadedCheckpoint& loaded);
void print_saved(std::ostream& out, const std::optional<SavedCheckpoint>& saved);

}  // namespace ssdlab::sim
