// Fuzzes sweep files: expansion of the grid and the validation of every
// config, set, workload, precondition and checkpoint before any job runs
// (`ssdlab sweep --slurm`, which writes the manifest and a script and runs
// nothing). One ssdlab::Error or the script, never a crash, hang or
// sanitizer report.
#include <cstdio>
#include <cstdlib>
#include <sstream>

#include "common/error.h"
#include "fuzz/fuzz_support.h"
#include "sim/sweep/sweep.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  ssdlab::sim::SweepOptions options;
  options.plan = ssdlab::fuzz::write_input(data, size, ".sweep.toml");
  options.outdir = ssdlab::fuzz::private_path(".sweep-out");
  options.slurm = ssdlab::fuzz::private_path(".slurm.sh");
  std::ostringstream out;
  try {
    ssdlab::sim::run_sweep(options, out);
  } catch (const ssdlab::Error& error) {
    if (std::getenv("SSDLAB_FUZZ_DEBUG")) std::fprintf(stderr, "error: %s\n", error.what());
  }
  return 0;
}
