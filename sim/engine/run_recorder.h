// What the host loop (simulator.h) records of the run in progress: each
// I/O's io.csv row as it completes, and per group of streams (RunGroup) the
// figures its RunResult gives at the end: every completion in order
// (RunSamples, so that the start-up phase can be cut after the fact), the
// served I/Os' spans and reads by page type where asked, the cleaning its
// writes cause where attributed, the device's counters over the run, and
// why the run stopped early. The commands a zoned device refused and the
// reads no ECC step corrected go to their own logs (refused.csv,
// errors.csv) as they are started.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "common/host_io.h"
#include "common/units.h"
#include "ftl/zones.h"
#include "sim/controller/read_errors.h"
#include "sim/engine/io_source.h"
#include "sim/results/device_counters.h"
#include "sim/results/output.h"
#include "sim/results/page_type_reads.h"
#include "sim/results/row_log.h"
#include "sim/results/run_result.h"
#include "sim/results/run_samples.h"

namespace ssdlab::sim {

class Ssd;

class RunRecorder {
 public:
  // `log` may be null: no per-I/O output.
  explicit RunRecorder(IoLog* log) : log_(log) {}

  // What the results keep (Simulator's setters of the same names).
  void set_percentiles(std::vector<double> percents) { percentiles_ = std::move(percents); }
  void set_exact_samples(std::uint64_t limit) { exact_samples_ = limit; }
  void keep_io_spans(bool on) { keep_spans_ = on; }
  void attribute_cleaning(bool on) { attribute_ = on; }
  bool attributes_cleaning() const { return attribute_; }
  void log_refusals(RowLog* log) { refusal_log_ = log; }
  void log_media_errors(RowLog* log) { error_log_ = log; }

  // A run of `groups` starts at `now` on `ssd` (its counters are read now).
  void open(std::span<const RunGroup> groups, TimeNs now, const Ssd& ssd);
  TimeNs start() const { return start_; }
  const RunGroup& group(std::uint32_t index) const { return groups_[index]; }

  // I/O `io` of a stream (`spec`), `request` (its offset where the device
  // served it), submitted at `submitted`, completes at `now`: its row, and
  // its share of its group's figures. `refused`: a zoned device refused it;
  // `read_class`: a read's page class (0: none).
  void completed(const HostStream& spec, std::uint64_t io, const HostIo& request, TimeNs submitted,
                 TimeNs now, bool refused, std::uint8_t read_class) {
    const IoMode mode = request.mode;
    const std::uint32_t size = request.size;
    const RunGroup& group = groups_[spec.group];
    const TimeNs response = now - submitted;
    if (log_)
      log_->row(group.name, group.run, spec.process, io, submitted - start_, response, mode,
                request.offset, size);
    // Only served reads and writes are in the run's figures; trims, refusals
    // and zone management commands are counted apart (RunSamples::Kind).
    const RunSamples::Kind kind = RunSamples::kind_of(mode, refused);
    samples_[spec.group].add(submitted - start_, response, io, size, kind);
    if (keep_spans_ && kind == RunSamples::Kind::kServed && io >= group.io_ignore)
      spans_[spec.group].push_back({submitted - start_, now - start_});
    if (read_class && kind == RunSamples::Kind::kServed && io >= group.io_ignore)
      page_type_reads_[spec.group].add(read_class, response);
  }
  // Pages cleaning moved while a write of group `group` was started.
  void moved(std::uint32_t group, std::uint64_t pages) { moved_[group] += pages; }
  // A zoned device refused `request` (I/O `io` of a stream, `spec`) with
  // `status`; its row in refused.csv.
  void refused(const HostStream& spec, std::uint64_t io, const HostIo& request,
               ftl::ZoneStatus status);
  // The pages of `request` no ECC step corrected; their rows in errors.csv.
  void media_errors(const HostStream& spec, std::uint64_t io, const HostIo& request,
                    std::span<const MediaError> errors);

  // The run stops early for `why` (at the device's end of life, or not).
  void stop(const std::string& why, bool end_of_life) {
    stopped_ = why;
    end_of_life_ = end_of_life;
  }
  const std::string& stopped() const { return stopped_; }
  bool end_of_life() const { return end_of_life_; }

  // The run ends at `now`: one result per group, in order.
  std::vector<RunResult> close(TimeNs now, const Ssd& ssd);

 private:
  IoLog* log_;
  RowLog* refusal_log_ = nullptr;
  RowLog* error_log_ = nullptr;
  std::vector<double> percentiles_;  // empty: kDefaultPercentiles
  std::uint64_t exact_samples_ = kDefaultExactSamples;
  bool keep_spans_ = false;
  bool attribute_ = false;
  // The run in progress: its groups, start, and the device's counters then.
  const RunGroup* groups_ = nullptr;
  TimeNs start_ = 0;
  DeviceCounters before_;
  std::vector<RunSamples> samples_;
  std::vector<std::vector<IoSpan>> spans_;      // keep_io_spans(): per group
  std::vector<PageTypeReads> page_type_reads_;  // per group, on cells of several bits
  std::vector<std::uint64_t> moved_;            // attribute_cleaning(): per group
  std::string stopped_;
  bool end_of_life_ = false;
};

}  // namespace ssdlab::sim
