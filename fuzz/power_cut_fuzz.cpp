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
//   byte 1: the queue depth (1 + low 3 bits);
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

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace ssdlab;
  if (size < 4) return 0;
  const std::uint8_t flags = data[0];
  const std::string type = kFtls[flags & 7];
  const bool slc_cache = (flags & 7) >= kFirstWithSlcCache;
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
  }
  if (records.empty()) return 0;
  std::vector<std::string> overrides = {"ftl.type=\"" + type + "\""};
  if (flags & 0x08) overrides.push_back("controller.write_buffer=\"64KiB\"");
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
  if (!(flags & 0x20) && type != "example") ssd.prefill(0, ssd.logical_bytes());
  sim::Simulator simulator(ssd, nullptr);
  const std::uint64_t count = records.size();
  if (!cuts.empty()) simulator.plan_power_cuts(sim::parse_power_cuts(cuts, count, 1));
  Records reader(std::move(records));
  const auto mode = (flags & 0x40) ? sim::ReplayMode::kOpen : sim::ReplayMode::kClosed;
  try {
    sim::replay(simulator, reader, sim::ReplaySettings{"fuzz", mode, depth});
  } catch (const Error&) {
    // Not a finding: e.g. the example FTL out of space.
  }
  return 0;
}
