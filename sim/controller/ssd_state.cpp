// Checkpoints of the controller (sim/state/checkpoint.h): the FTL and flash
// timelines save themselves; the controller adds its clocks and counters,
// and each part its own section (the write buffer's contents, background
// cleaning rounds still under way), so that a run continued from a
// checkpoint gives the same io.csv as one that never stopped.
#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/error.h"
#include "sim/controller/ssd.h"

namespace ssdlab::sim {

void SsdCore::save_state(StateWriter& out) const {
  // A run settles the scheduler at its end (Simulator::run), so a checkpoint
  // holds no queued command: the busy-until times carry everything queued.
  if (!scheduler_.idle())
    throw std::logic_error("Ssd::save_state() with flash commands queued: settle() first");
  ftl_->save_state(out);
  timeline_.save_state(out);
  // Version 3: host bytes written (byte-based write amplification); 4: a
  // saved command's transfer bytes (a summary page's sector); 5: the parts'
  // state in sections of their own (WBFR, BGCL).
  out.section("SSDC", 5);
  out.i64(cleaning_.total_ns);
  out.i64(cleaning_.background_ns);
  out.u64(host_bytes_written_);
  out.i64(cleaning_.last_end);
  out.u64(requests_);
}

void SsdCore::load_state(StateReader& in) {
  ftl_->load_state(in);
  timeline_.load_state(in);
  in.section("SSDC", 5);
  cleaning_.total_ns = in.i64();
  cleaning_.background_ns = in.i64();
  host_bytes_written_ = in.u64();
  cleaning_.last_end = in.i64();
  requests_ = in.u64();
  if (cleaning_.total_ns < 0 || cleaning_.background_ns < 0 || cleaning_.last_end < 0)
    throw Error("a controller clock or counter is negative");
}

// After the core's sections, the controller's list of parts (PRTS): for
// each part with state of its own (SsdCore::kept_parts), its tag, its name,
// whether it is optional and how many bytes it holds, then those bytes. A
// load meets each saved part by its tag, whatever the order: a part the
// device has loads itself; an optional one it lacks is read and dropped, a
// required one it lacks is refused by name, as is a required part of the
// device's the checkpoint was saved without.
void Ssd::save_state(StateWriter& out) const {
  core_.save_state(out);
  const std::span<SsdPart* const> parts = core_.kept_parts();
  out.section("PRTS", 1);
  out.u64(parts.size());
  for (const SsdPart* part : parts) {
    const PartCheckpoint about = *part->checkpoint();
    out.string(about.tag);
    out.string(about.name);
    out.boolean(about.optional);
    StateWriter counted(nullptr);
    part->save_state(counted);
    out.u64(counted.written());
    part->save_state(out);
  }
}

namespace {

constexpr std::uint64_t kMaxParts = 64;    // more than any device lists
constexpr std::size_t kMaxPartName = 256;  // bytes of a part's name

}  // namespace

void Ssd::load_state(StateReader& in) {
  core_.load_state(in);
  const std::span<SsdPart* const> parts = core_.kept_parts();
  std::vector<bool> loaded(parts.size(), false);
  in.section("PRTS", 1);
  const std::uint64_t saved = in.count(kMaxParts, "the controller's list of parts");
  for (std::uint64_t i = 0; i < saved; ++i) {
    const std::string tag = in.string(4);
    const std::string name = in.string(kMaxPartName);
    const bool optional = in.boolean();
    const std::uint64_t bytes = in.u64();
    const auto it = std::find_if(parts.begin(), parts.end(), [&](const SsdPart* part) {
      return part->checkpoint()->tag == tag;
    });
    if (it == parts.end()) {
      if (!optional) throw Error(fmt::format("it was saved with {}, the config has none", name));
      in.skip(bytes);
      continue;
    }
    const auto p = static_cast<std::size_t>(it - parts.begin());
    if (loaded[p]) throw Error(fmt::format("corrupt: {} is listed twice", name));
    const std::uint64_t from = in.read();
    (*it)->load_state(in);
    if (in.read() - from != bytes)
      throw Error(fmt::format("corrupt: {}'s state holds {} bytes, {} were read", name, bytes,
                              in.read() - from));
    loaded[p] = true;
  }
  for (std::size_t p = 0; p < parts.size(); ++p) {
    if (loaded[p]) continue;
    const PartCheckpoint about = *parts[p]->checkpoint();
    if (!about.optional)
      throw Error(fmt::format("it was saved without {}, the config has one", about.name));
    parts[p]->not_in_checkpoint();
  }
  // A file can pass its checksum (recomputed by whoever altered it) and still
  // hold a state no FTL reaches: whatever the flags, find out before any
  // request, rather than crash on it later.
  core_.ftl().check_invariants();
  if (VerifierCheck* verifier = core_.observers().verifier()) verifier->adopt(core_.ftl().nand());
}

}  // namespace ssdlab::sim
