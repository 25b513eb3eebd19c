// Fuzzes power cuts where they once lost data (issue 35, the review's H2):
// trims, writes and reads of a few hot pages at a queue depth above 1, with
// or without a write buffer, on every FTL, the power cut during chosen I/Os.
// The input decides everything:
//   byte 0: the FTL (low 3 bits: page-mapped, dftl, block-mapped, bast,
//           fast, example, then page-mapped and dftl on the tiny TLC device
//           with a dynamic SLC cache that folds when full), a write buffer (0x08), a
//           power-protected one (0x10), no prefill (0x20: cleaning starts
//           later), an open loop instead of a closed one (0x40), host-guided
//           placement (0x80, page-mapped and dftl without a cache: FDP with
//           two persistently isolated handles, the first 32 hot pages on
//           handle 1 by a [[placement]] range);
//   byte 1: the queue depth (1 + low 3 bits); 0x08: dftl with a map cache of
//           8 entries (every few pages a miss that writes a translation page
//           back and may clean, inside a trim too: issue 51's trimmed page
//           back); 0x10: instead of byte 0's FTL, the zoned FTL on a device
//           whose blocks wear out after 4 erases and are replaced from the
//           spares (issue 51, H3), where a write is a zone append to zone
//           (first page mod 4), a trim that zone's reset and a read reads
//           the zone's pages from the first page;
//   then 2 bytes per I/O: the kind (bits 0-1: write, write, read, trim), its
//           size in pages (bits 2-3: 1 to 4), a cut during it (bit 7); the
//           second byte, the first page (modulo 64).
// A lost acknowledged write, a trimmed page back, a failed invariant or a
// sanitizer report is a finding (ftl::VerificationError and std::logic_error
// are not caught); at most 512 I/Os per input.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/error.h"
#include "sim/config/config.h"
#include "sim/controller/ssd.h"
#include "sim/engine/replay.h"
#include "sim/engine/simulator.h"
#include "sim/state/power_cut_plan.h"
#include "traces/trace.h"

namespace {

constexpr const char* kFtls[] = {"page-mapped", "dftl",    "block-mapped", "bast",
                                 "fast",        "example", "page-mapped",  "dftl"};
constexpr std::uint8_t kFirstWithSlcCache = 6;
constexpr std::uint64_t kHotPages = 64;
constexpr std::size_t kMaxRequests = 512;

class Records final : public ssdlab::traces::TraceReader {
 public:
  explicit Records(std::vector<ssdlab::traces::TraceRecord> records)
      : records_(std::move(records)) {}
  std::optional<ssdlab::traces::TraceRecord> next() override {
    if (next_ == records_.size()) return std::nullopt;
    return records_[next_++];
  }

 private:
  std::vector<ssdlab::traces::TraceRecord> records_;
  std::size_t next_ = 0;
};

// The zoned device's version of `record` (its 256 KiB zones): a write is an
// append to zone (first mod 4), a trim that zone's reset, a read reads the
// zone from its page (first div 4).
ssdlab::traces::TraceRecord zone_record(ssdlab::traces::TraceRecord record, std::uint64_t first) {
  using ssdlab::IoMode;
  constexpr std::uint64_t kZoneBytes = 256 * 1024;
  const std::uint64_t zone = (first % 4) * kZoneBytes;
  if (record.mode == IoMode::kWrite) {
    record.mode = IoMode::kZoneAppend;
    record.offset = zone;
  } else if (record.mode == IoMode::kTrim) {
    record.mode = IoMode::kZoneReset;
    record.offset = zone;
    record.size = kZoneBytes;
  } else {
    record.offset = zone + (first / 4) * 4096;
  }
  return record;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace ssdlab;
  if (size < 4) return 0;
  const std::uint8_t flags = data[0];
  const bool zoned = data[1] & 0x10;
  const std::string type = zoned ? "zoned" : kFtls[flags & 7];
  const bool slc_cache = !zoned && (flags & 7) >= kFirstWithSlcCache;
  const std::uint32_t depth = 1 + (data[1] & 7);
  std::vector<traces::TraceRecord> records;
  std::vector<std::string> cuts;
  for (std::size_t i = 2; i + 1 < size && records.size() < kMaxRequests; i += 2) {
    static constexpr IoMode kModes[] = {IoMode::kWrite, IoMode::kWrite, IoMode::kRead,
                                        IoMode::kTrim};
    const std::uint32_t pages = 1 + ((data[i] >> 2) & 3);
    const std::uint64_t first = data[i + 1] % kHotPages;
    if (data[i] & 0x80) cuts.push_back(std::to_string(records.size()));
    records.push_back({static_cast<TimeNs>(records.size()) * 20'000, first * 4096, pages * 4096,
                       kModes[data[i] & 3], 0});
    if (zoned) records.back() = zone_record(records.back(), first);
  }
  if (records.empty()) return 0;
  std::vector<std::string> overrides = {"ftl.type=\"" + type + "\""};
  if (zoned)
    for (const char* set : {"ftl.zone_width=2", "ftl.overprovisioning=0.1", "geometry.pe_cycles=4"})
      overrides.emplace_back(set);
  if ((data[1] & 0x08) && type == "dftl") overrides.emplace_back("ftl.map_cache_entries=8");
  if ((flags & 0x08) && !zoned) overrides.push_back("controller.write_buffer=\"64KiB\"");
  if (flags & 0x10) overrides.push_back("controller.write_buffer_power_protected=true");
  if (slc_cache)
    for (const char* set : {"slc_cache.mode=\"dynamic\"", "slc_cache.size_gib=0.002",
                            "slc_cache.when_full=\"fold\""})
      overrides.emplace_back(set);
  if ((flags & 0x80) && !slc_cache && (type == "page-mapped" || type == "dftl"))
    for (const char* set :
         {"ftl.placement=\"fdp\"", "ftl.fdp_handles=2", "ftl.fdp_isolation=\"persistently\"",
          "ftl.placement_map=[{offset=0, size=\"128KiB\", handle=1}]"})
      overrides.emplace_back(set);
  const sim::DeviceConfig config = sim::load_config(
      std::string(SSDLAB_SOURCE_DIR) + (slc_cache ? "/configs/tiny-tlc.toml" : "/configs/tiny.toml"),
      overrides);
  sim::Ssd ssd(config);
  ssd.enable_power_cuts();
  // The example FTL never cleans: a prefill would leave it no room.
  // (A zoned device is not prefilled: it is written at its write pointers.)
  if (!(flags & 0x20) && type != "example" && !zoned) ssd.prefill(0, ssd.logical_bytes());
  sim::Simulator simulator(ssd, nullptr);
  const std::uint64_t count = records.size();
  if (!cuts.empty()) simulator.plan_power_cuts(sim::parse_power_cuts(cuts, count, 1));
  Records reader(std::move(records));
  const auto mode = (flags & 0x40) ? sim::ReplayMode::kOpen : sim::ReplayMode::kClosed;
  try {
    sim::replay(simulator, reader, sim::ReplaySettings{"fuzz", mode, depth});
  } catch (const Error&) {
    // Not a finding: e.g. the example FTL out of space, a zoned device's end
    // of life.
  }
  return 0;
}
