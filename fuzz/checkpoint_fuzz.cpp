// Fuzzes checkpoint loading past the checksum: the input is a checkpoint
// file whose state-length field and CRC-32 are recomputed before loading
// (an altered file with its checksum recomputed, which the CRC does not
// stop), then loaded into configs/tiny.toml and run for 64 random writes and
// reads, as `ssdlab sim --load-state` does. One ssdlab::Error or a run,
// never a crash, hang or sanitizer report.
#include <zlib.h>

#include <cstring>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <vector>

#include "common/error.h"
#include "fuzz/fuzz_support.h"
#include "sim/run/trace_run.h"

namespace {
constexpr std::size_t kHeaderBytes = 8 + 4 + 8 + 4;  // magic, version, state bytes, info bytes
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::vector<std::uint8_t> file(data, data + size);
  if (file.size() >= kHeaderBytes + 4) {
    std::uint32_t info_bytes = 0;
    std::memcpy(&info_bytes, file.data() + 20, 4);
    if (kHeaderBytes + std::uint64_t{info_bytes} + 4 <= file.size()) {
      const std::uint64_t state_bytes = file.size() - kHeaderBytes - info_bytes - 4;
      std::memcpy(file.data() + 12, &state_bytes, 8);
    }
    const std::uint32_t crc = static_cast<std::uint32_t>(
        ::crc32(0, file.data(), static_cast<uInt>(file.size() - 4)));
    std::memcpy(file.data() + file.size() - 4, &crc, 4);
  }
  const std::string& path = ssdlab::fuzz::write_input(file.data(), file.size(), ".ssd");
  ssdlab::sim::SimOptions options;
  options.config = std::string(SSDLAB_SOURCE_DIR) + "/configs/tiny.toml";
  options.outdir = ssdlab::fuzz::private_path(".out");
  options.io_log = false;
  options.load_state = path;
  std::ostringstream out;
  try {
    ssdlab::sim::run_sim_or_replay(options, {"RW:count=64"}, ssdlab::sim::TraceOptions{}, out);
  } catch (const ssdlab::Error& error) {
    if (std::getenv("SSDLAB_FUZZ_DEBUG")) std::fprintf(stderr, "error: %s\n", error.what());
  }
  return 0;
}
