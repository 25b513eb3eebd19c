#include "sim/engine/run_recorder.h"

#include <fmt/format.h>

#include <array>

#include "sim/controller/ssd.h"
#include "sim/report/device_snapshot.h"

namespace ssdlab::sim {
namespace {

// The name of each read page class (flash::FlashTimeline::read_page_class).
std::array<std::string, PageTypeReads::kClasses> page_class_names(flash::CellType cell) {
  std::array<std::string, PageTypeReads::kClasses> names;
  for (std::uint32_t type = 0; type < flash::bits_per_cell(cell); ++type)
    names[1 + type] = flash::page_type_name(cell, type);
  names[flash::FlashTimeline::kSlcModeReadClass] = "slc";
  return names;
}

}  // namespace

void RunRecorder::open(std::span<const RunGroup> groups, TimeNs now, const Ssd& ssd) {
  start_ = now;
  before_ = device_counters_of(ssd);
  groups_ = groups.data();
  samples_.clear();
  samples_.reserve(groups.size());
  for (const RunGroup& group : groups) samples_.emplace_back(group, exact_samples_);
  moved_.assign(groups.size(), 0);
  spans_.assign(keep_spans_ ? groups.size() : 0, {});
  const bool multi_bit = ssd.config().geometry.cell_type != flash::CellType::kSlc;
  page_type_reads_.assign(multi_bit ? groups.size() : 0, {});
  stopped_.clear();
  end_of_life_ = false;
}

std::vector<RunResult> RunRecorder::close(TimeNs now, const Ssd& ssd) {
  const std::span<const RunGroup> groups(groups_, samples_.size());
  const DeviceCounters device = device_counters_of(ssd) - before_;
  const auto names = page_class_names(ssd.config().geometry.cell_type);
  std::vector<RunResult> results;
  for (std::size_t g = 0; g < groups.size(); ++g) {
    RunResult& result = results.emplace_back();
    RunSamples& samples = samples_[g];
    result.stats = percentiles_.empty() ? samples.summarize(&result.startup)
                                        : samples.summarize(&result.startup, percentiles_);
    if (!stopped_.empty()) {
      // Stopped early: the run is the I/Os that completed, not its count.
      const std::uint64_t measured = result.stats.count - result.stats.ignored - samples.apart();
      result.stats.count = samples.completed();
      result.stats.ignored = samples.completed() - measured - samples.apart();
    }
    result.run = groups[g].run;
    result.start_ns = start_;
    result.end_ns = now;
    result.device = device;
    result.stopped = stopped_;
    result.end_of_life = end_of_life_;
    result.pages_moved_by_writes = moved_[g];
    if (keep_spans_) result.io_spans = std::move(spans_[g]);
    if (!page_type_reads_.empty()) result.reads_by_page_type = page_type_reads_[g].records(names);
  }
  samples_.clear();
  groups_ = nullptr;
  return results;
}

void RunRecorder::refused(const HostStream& spec, std::uint64_t io, const HostIo& request,
                          ftl::ZoneStatus status) {
  if (!refusal_log_) return;
  const RunGroup& group = groups_[spec.group];
  refusal_log_->row(fmt::format("{},{},{},{},{},{},{},{},0x{:03X}", group.name, group.run,
                                spec.process, io, io_mode_letter(request.mode), request.offset,
                                request.size, ftl::zone_status_name(status),
                                static_cast<unsigned>(status)));
}

void RunRecorder::media_errors(const HostStream& spec, std::uint64_t io, const HostIo& request,
                               std::span<const MediaError> errors) {
  if (!error_log_) return;
  const RunGroup& group = groups_[spec.group];
  for (const MediaError& e : errors)
    error_log_->row(fmt::format("{},{},{},{},{},{},{},{},{},{},{:.6g}", group.name, group.run,
                                spec.process, io, io_mode_letter(request.mode), request.offset,
                                request.size, e.lpn, e.ppn, e.bit_errors, e.rber));
}

}  // namespace ssdlab::sim
