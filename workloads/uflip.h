// The nine uFLIP micro-benchmarks (Bouganim et al., CIDR 2009, §3.2 and
// Table 1) as built-in plans, and the benchmark plan of §4.2: experiments
// with sequential writes grouped at the end, each on its own target space,
// with the device state enforced again when those spaces run out.
//
//   -w uflip:granularity                 one micro-benchmark, paper defaults
//   -w uflip:all                         all nine
//   -w 'uflip:locality:count=256,runs=1' with experiment keys overridden
//
// A plan file overrides them with [[benchmark]] tables (see README):
//   [[benchmark]]
//   name = "granularity"
//   patterns = ["SR", "RW"]        # columns to run (mix: "SR+RW", ...)
//   values = ["4KiB", "32KiB"]     # values of the varied parameter
//   count = 2048                   # any experiment key but the varied one
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "workloads/plan.h"
#include "workloads/plan_keys.h"

namespace ssdlab::workloads {

// granularity, alignment, locality, partitioning, order, parallelism, mix,
// pause, bursts: in the paper's order.
const std::vector<std::string>& uflip_benchmark_names();

// What one micro-benchmark should run; empty lists mean the paper's defaults.
struct BenchmarkRequest {
  std::string name;
  std::vector<std::string> columns;  // patterns, or "SR+RW" for the mix
  std::vector<KeyValue> values;      // the varied parameter's values
  std::vector<KeyValue> overrides;   // other experiment keys
  std::string where;                 // for error messages
};

// Expands one micro-benchmark into experiments for `device`. Default values
// that do not fit the device are left out; given ones that do not are errors.
std::vector<ExperimentSpec> expand_benchmark(const BenchmarkRequest& request,
                                             const DeviceInfo& device);

// `uflip:NAME[:key=value,...]` as given to -w.
Plan uflip_plan(std::string_view workload, const DeviceInfo& device);

// The benchmark plan of §4.2: moves experiments with sequential writes after
// the others, gives each a distinct target space, and marks a state reset
// where the spaces would run past the device. Touches only experiments of
// micro-benchmarks whose target_offset was not given.
void arrange_sequential_writes(Plan& plan, const DeviceInfo& device);

// The device state the built-in plans enforce (§4.1): random writes of random
// sizes over the whole device, as --precondition takes it.
inline constexpr std::string_view kUflipState = "uflip";

}  // namespace ssdlab::workloads
