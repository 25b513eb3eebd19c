// Fuzzes trace replay through the simulator, not only the readers: the input
// (after one selector byte: format, open or closed loop, queue depth, bad
// lines skipped, verification) is written as a trace file and replayed on
// configs/tiny.toml through the same run driver as `ssdlab sim -w
// trace:FILE`, at most 256 requests. One ssdlab::Error or a summary, never a
// crash, hang, sanitizer report or failed verification.
#include <cstdio>
#include <cstdlib>
#include <sstream>

#include "common/error.h"
#include "fuzz/fuzz_support.h"
#include "sim/run/trace_run.h"
#include "traces/formats.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 2) return 0;
  const std::uint8_t selector = data[0];
  const std::string& path = ssdlab::fuzz::write_input(data + 1, size - 1, ".trace");
  ssdlab::sim::SimOptions options;
  options.config = std::string(SSDLAB_SOURCE_DIR) + "/configs/tiny.toml";
  options.outdir = ssdlab::fuzz::private_path(".out");
  options.io_log = false;
  options.verify = (selector & 0x40) != 0;
  ssdlab::sim::TraceOptions trace;
  trace.read.limit = 256;
  const auto& all = ssdlab::traces::formats();
  const std::size_t choice = (selector & 0x0f) % (all.size() + 1);  // the last: detection
  if (choice < all.size()) trace.read.format = all[choice].name;
  trace.read.skip_bad = (selector & 0x20) != 0;
  if (selector & 0x80) {
    trace.mode = "closed";
    trace.queue_depth = 1 + ((selector >> 4) & 1) * 7;
  } else if (selector & 0x10) {
    trace.speed = 1000;  // open loop, compressed in time
  }
  std::ostringstream out;
  try {
    ssdlab::sim::run_sim_or_replay(options, {"trace:" + path}, trace, out);
  } catch (const ssdlab::Error& error) {
    if (std::getenv("SSDLAB_FUZZ_DEBUG")) std::fprintf(stderr, "error: %s\n", error.what());
  }
  return 0;
}
