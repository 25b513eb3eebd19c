// --timeline: every flash operation of part of a run as Chrome/Perfetto
// trace-event JSON (FORMATS.md, "Chrome / Perfetto trace events"), for
// Perfetto UI (ui.perfetto.dev) and chrome://tracing.
//
// One process per channel holds one track (thread) for its bus, one per die
// (the whole command, waits included) and one per plane (the array
// operation); a "Host" process holds the host requests, in as many lanes as
// overlap. Cleaning work is named "... [cleaning]" and has category
// "cleaning". The file is written under a temporary name and renamed by
// commit(), so a failed run leaves none that looks complete.
#pragma once

#include <fmt/format.h>

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <iterator>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include "flash/geometry.h"
#include "flash/timeline.h"
#include "flash/timeline_observer.h"
#include "sim/controller/ssd_observer.h"
#include "sim/results/output.h"

namespace ssdlab::sim {

// How every timeline file starts (an existing file that does not is not
// replaced by --timeline).
inline constexpr std::string_view kTimelineStart = "{\"traceEvents\":[";

// Which part of a run is recorded: operations that overlap the window
// [start_ns, end_ns) and belong to the first `ios` host I/Os.
struct TimelineBound {
  TimeNs start_ns = 0;
  TimeNs end_ns = std::numeric_limits<TimeNs>::max();
  std::uint64_t ios = std::numeric_limits<std::uint64_t>::max();
};

// From --timeline-window START:END (simulated µs, either side may be empty)
// and --timeline-ios N (0: not given). Neither given: the first 1000 I/Os.
// Throws ssdlab::Error on a malformed window.
TimelineBound parse_timeline_bound(const std::string& window, std::uint64_t ios);

class TimelineTrace final : public flash::TimelineObserver, public SsdObserver {
 public:
  TimelineTrace(std::filesystem::path path, const flash::Geometry& geometry, TimelineBound bound);
  ~TimelineTrace() override;  // removes the temporary file unless committed
  TimelineTrace(const TimelineTrace&) = delete;
  TimelineTrace& operator=(const TimelineTrace&) = delete;

  // Cells of several bits: array phases on the planes are labelled with the
  // page type of their page ("PROGRAM upper"), or "SLC" in an SLC-mode block,
  // as `timeline` (which must outlive this) tells them.
  void label_page_types(const flash::FlashTimeline* timeline) { cells_ = timeline; }

  void phase(flash::Resource resource, std::uint32_t index, flash::Phase phase, TimeNs start,
             TimeNs end, const flash::Command& command) override;
  void request_done(const HostIo& request, TimeNs submitted, TimeNs done) override;

  // Closes the JSON and completes the temporary file (finish), then renames
  // it into place (publish; finishes first if needed); commit() is both. A
  // failed write (a full disk), here or during the run, throws
  // ssdlab::OutputError naming the file; with SSDLAB_TEST_FAIL_WRITE naming
  // it, writes fail as on a full disk (sim/results/output.h).
  void finish();
  void publish();
  void commit() { publish(); }
  std::uint64_t events() const { return events_; }
  const std::filesystem::path& path() const { return path_; }

  // Track ids (Chrome "tid"s are unique over the whole file).
  static constexpr std::uint32_t kHostPid = 1;

 private:
  bool in_bound(TimeNs start, TimeNs end) const {
    return recording_ && end > bound_.start_ns && start < bound_.end_ns;
  }
  // Appends to the file through buffer_; write() empties it into the file.
  template <typename... Args>
  void print(fmt::format_string<Args...> format, Args&&... args) {
    fmt::format_to(std::back_inserter(buffer_), format, std::forward<Args>(args)...);
    if (buffer_.size() >= kFlushBytes) write();
  }
  void write();
  void write_metadata();
  void name_track(std::uint32_t pid, std::uint32_t tid, const std::string& name,
                  std::uint32_t sort_index);
  void event(const char* name, const char* suffix, const char* category, std::uint32_t pid,
             std::uint32_t tid, TimeNs start, TimeNs end, const std::string& args);
  std::string command_args(const flash::Command& command) const;
  std::string plane_phase_name(flash::Phase phase, const flash::Command& command) const;

  std::filesystem::path path_;
  TemporaryFile temporary_;  // becomes path_ at publish()
  flash::Geometry geometry_;
  const flash::FlashTimeline* cells_ = nullptr;  // page types and SLC mode (null: SLC cells)
  TimelineBound bound_;
  static constexpr std::size_t kFlushBytes = 1 << 16;
  std::FILE* file_ = nullptr;  // temporary_'s, until finish()
  fmt::memory_buffer buffer_;
  bool fail_for_test_ = false;  // SSDLAB_TEST_FAIL_WRITE names the file
  bool finished_ = false;
  bool recording_ = true;  // false after the first bound_.ios host I/Os
  bool first_event_ = true;
  std::uint64_t requests_ = 0;
  std::uint64_t events_ = 0;
  std::vector<TimeNs> lane_free_;  // host lanes: when each is free again
};

}  // namespace ssdlab::sim
