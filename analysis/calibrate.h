// `ssdlab calibrate OUTDIR_REAL -c BASE.toml -o FITTED.toml`: fits the flash
// model's timing to response times measured by `ssdlab probe` (or any run
// with the same summary.json), so that `sim` with the fitted config predicts
// the measured device.
//
// The fit uses the experiments that isolate the per-I/O cost: one process at
// queue depth 1, no mix, pause or shift. On an unloaded model an I/O of n
// pages striped over C channels costs
//   read:  command + read_us    + ceil(n / C) x (page + OOB) x bus_ns_per_byte
//   write: command + program_us + ceil(n / C) x (page + OOB) x bus_ns_per_byte
// (reads: array read, then the transfers, one per channel round; writes:
// transfers, then the last program), which is linear in (read_us,
// program_us, bus_ns_per_byte). That cost is what an I/O takes without
// contention, and only for whole pages with at most one page per die of a
// channel (ceil(n / C) <= dies per channel): a partial page is a
// read-modify-write (writes) or a whole page's transfer (reads), and two
// pages on one die, or a plane still busy with the previous I/O's program,
// only add time. So the fit takes whole-page experiments of at most that
// many rounds and, per direction and round count, the fastest of them (the
// unloaded cost); the others are listed as left out. On the model's own
// output this gives its timing back exactly (tests/analysis/calibrate_test).
// Reads (SR, RR) fit read_us and the bus; sequential writes (SW) then fit
// program_us; random writes carry the device's cleaning, which the model
// adds by itself. Both least-squares fits
// (Eigen) minimise relative errors, as compare reports them. Alongside, Ajwani et al.'s cost model
// (§ 5, "x + c_W y"): the write penalty factor c_W, random write over random read cost, per size.
#pragma once

#include <cstdint>
#include <functional>
#include <iosfwd>
#include <string>
#include <vector>

#include "common/units.h"

namespace ssdlab::analysis {

struct CalibrateOptions {
  std::string measured;  // OUTDIR of the measurement
  std::string config;    // base config
  std::vector<std::string> overrides;
  std::string output;  // fitted config to write
};

// What the fit needs of the base config: its geometry and timing.
struct CalibrationBase {
  std::uint32_t page_size = 0, oob_size = 0, channels = 0;
  std::uint32_t dies_per_channel = 1;  // packages per channel x dies per package
  TimeNs command_ns = 0, read_ns = 0, program_ns = 0;
  std::int64_t bus_ps_per_byte = 0;
};

// How calibrate reaches device configs, which analysis/ does not read itself
// (it never links the simulator): the caller (sim/cli/calibrate_cli.cpp)
// loads the base config with its --set overrides, and checks that the fitted
// file loads. Both throw ssdlab::Error on a bad config.
struct ConfigAccess {
  std::function<CalibrationBase(const std::string& path, const std::vector<std::string>& overrides)>
      load_base;
  std::function<void(const std::string& path)> check_loads;
};

// Fits, prints the fit against each experiment, and writes the base
// config's text with the fitted timing to options.output (removed again if
// it does not load).
void run_calibrate(const CalibrateOptions& options, const ConfigAccess& configs, std::ostream& out);

}  // namespace ssdlab::analysis
