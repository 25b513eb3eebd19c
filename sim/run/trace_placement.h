// The traces of one replay placed on the device, and what the replay reports
// of each (summary.json's experiment, the console lines). Internal to
// sim/run (trace_run.cpp, trace_report.cpp).
#pragma once

#include <cstdint>
#include <iosfwd>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "common/error.h"
#include "sim/config/config.h"
#include "sim/controller/ssd.h"
#include "sim/engine/replay.h"
#include "sim/results/summary.h"
#include "sim/run/trace_settings.h"
#include "traces/lifetime_oracle.h"
#include "traces/profile.h"
#include "traces/selection.h"
#include "traces/trace_file.h"

namespace ssdlab::sim {

// A trace's records selected and placed on the device, or on its partition of
// it (`bytes` from `base`); a request that cannot be placed is an error naming
// the trace's file and line. With `oracle` (--placement-oracle), its writes
// are tagged by the lifetime oracle (traces/lifetime_oracle.h): so many
// classes, lifetimes in pages of so many bytes.
struct OracleSpec {
  std::uint32_t classes = 0, page_bytes = 0;
};
class PlacedTrace final : public traces::TraceReader {
 public:
  PlacedTrace(const TraceSettings& settings, std::uint64_t base, std::uint64_t bytes,
              std::uint32_t sector, std::optional<OracleSpec> oracle = std::nullopt)
      : file_(settings.path, settings.read),
        selection_(file_, settings.read, bytes, sector, settings.placement),
        base_(base) {
    if (oracle) oracle_.emplace(placed_, oracle->classes, oracle->page_bytes);
  }

  std::optional<traces::TraceRecord> next() override {
    return oracle_ ? oracle_->next() : placed_.next();
  }
  const traces::TraceFile& file() const { return file_; }
  const traces::Selection& selection() const { return selection_; }
  const traces::LifetimeOracle* oracle() const { return oracle_ ? &*oracle_ : nullptr; }

 private:
  // The selected records moved to the partition, errors naming the line.
  class Placed final : public traces::TraceReader {
   public:
    explicit Placed(PlacedTrace& trace) : trace_(trace) {}
    std::optional<traces::TraceRecord> next() override {
      try {
        auto record = trace_.selection_.next();
        if (record) record->offset += trace_.base_;
        return record;
      } catch (const traces::RequestError& error) {
        throw make_error("{}: {}", trace_.file_.where(), error.what());
      }
    }

   private:
    PlacedTrace& trace_;
  };

  traces::TraceFile file_;
  traces::Selection selection_;
  std::uint64_t base_;
  Placed placed_{*this};
  std::optional<traces::LifetimeOracle> oracle_;
};

// Where each trace goes: the whole device (shared), or range k of N equal
// ranges, whole logical pages each (partitioned).
struct Partition {
  std::uint64_t base = 0, bytes = 0;
};

// The traces of a replay, resolved, with their place on the device.
struct Traces {
  std::vector<TraceSettings> all;
  std::vector<Partition> partitions;
  bool partitioned = false;
  std::vector<std::vector<std::string>> warnings;  // per trace, from the first pass
};

// Reading never-written data would measure nothing (as for plans): before the
// replay, a streamed pass writes every never-written page that the trace reads,
// functionally (no simulated time; not in the run's counters). It counts the
// requests too (--power-cut-at random:K draws among them).
// The same pass gathers what the warnings need: the devices seen and the
// time span of the requests replayed.
struct FirstPass {
  std::uint64_t prefilled_pages = 0, requests = 0;
  std::set<std::uint32_t> devices;  // the first few
  traces::TraceProfile times;       // requests, times and bytes only
};
FirstPass prefill_read_ranges(Ssd& ssd, const TraceSettings& settings, const Partition& partition);
// The warnings of one trace after the first pass (console and summary.json);
// throws where the trace's devices contradict --devices one.
std::vector<std::string> trace_warnings(const TraceSettings& s, const FirstPass& pass);
// The file of -w trace:FILE[,key=value...], as the trace's settings read it.
std::string trace_file(const std::string& workload);
// The traces of `workloads` resolved with their options over `trace`, named
// uniquely, placed by --layout (partitions of `logical_bytes`).
Traces resolve_traces(const std::vector<std::string>& workloads, const TraceOptions& trace,
                      std::uint64_t logical_bytes, std::uint64_t page);

// summary.json's "trace" block of one trace.
TraceRecord trace_record(const TraceSettings& s, const PlacedTrace& placed,
                         const ReplayResult& result, const std::optional<Partition>& partition,
                         const std::vector<std::string>& warnings);
// summary.json's experiment for trace `k`; throws if it replayed nothing.
ExperimentRecord trace_experiment(const Traces& t, std::size_t k, const PlacedTrace& placed,
                                  const ReplayResult& result);
// The console lines of a replay: the traces, their runs and their counts.
void print_traces(std::ostream& out, const Traces& t,
                  const std::vector<std::unique_ptr<PlacedTrace>>& placed,
                  const std::vector<ReplayResult>& results, const DeviceConfig& config,
                  std::uint64_t logical_bytes);

}  // namespace ssdlab::sim
