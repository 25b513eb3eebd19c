#include "sim/views/timeline_trace.h"

#include <fmt/format.h>

#include <array>
#include <cerrno>
#include <charconv>
#include <optional>
#include <string_view>

#include "common/error.h"
#include "common/output_error.h"
#include "sim/controller/ssd.h"
#include "sim/results/output.h"

namespace ssdlab::sim {
namespace fs = std::filesystem;

namespace {

constexpr std::uint64_t kDefaultIos = 1000;

// Chrome's "tid"s: the host lanes, then per channel its bus, and per die the
// die followed by its planes.
std::uint32_t channel_pid(std::uint32_t channel) {
  return 2 + channel;
}
// An asynchronous shared-control gang's control bus: a process after the
// channels, with one track.
std::uint32_t control_pid(const flash::Geometry& g, std::uint32_t control_bus) {
  return channel_pid(g.channels) + control_bus;
}
constexpr std::uint32_t kControlTid = 1;
std::uint32_t bus_tid(std::uint32_t channel) {
  return 1000000 * (channel + 1);
}
std::uint32_t die_tid(const flash::Geometry& g, std::uint32_t die) {
  const std::uint32_t in_channel = die % (g.packages_per_channel * g.dies_per_package);
  return bus_tid(g.channel_of_die(die)) + 1 + in_channel * (1 + g.planes_per_die);
}
std::uint32_t plane_tid(const flash::Geometry& g, std::uint32_t plane) {
  return die_tid(g, g.die_of_plane(plane)) + 1 + g.plane_in_die(plane);
}

std::optional<double> parse_us(std::string_view text) {
  double value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || value < 0) return std::nullopt;
  return value;
}

}  // namespace

TimelineBound parse_timeline_bound(const std::string& window, std::uint64_t ios) {
  TimelineBound bound;
  if (!window.empty()) {
    const auto colon = window.find(':');
    const auto start = colon == std::string::npos ? std::nullopt
                       : colon == 0               ? std::optional<double>(0.0)
                                    : parse_us(std::string_view(window).substr(0, colon));
    const std::string_view rest =
        colon == std::string::npos ? "" : std::string_view(window).substr(colon + 1);
    const auto end = rest.empty() ? std::optional<double>(-1.0) : parse_us(rest);
    if (!start || !end || (*end >= 0 && *end <= *start))
      throw make_error(
          "--timeline-window '{}': expected START:END in simulated microseconds, END > START "
          "(e.g. 0:5000; either side may be left empty)",
          window);
    bound.start_ns = static_cast<TimeNs>(*start * 1000.0);
    if (*end >= 0) bound.end_ns = static_cast<TimeNs>(*end * 1000.0);
  }
  if (ios > 0)
    bound.ios = ios;
  else if (window.empty())
    bound.ios = kDefaultIos;
  return bound;
}

TimelineTrace::TimelineTrace(fs::path path, const flash::Geometry& geometry, TimelineBound bound)
    : path_(std::move(path)), temporary_(path_), geometry_(geometry), bound_(bound) {
  // An earlier timeline at path_ stays until publish() replaces it: a run
  // that fails leaves it as it was, like a checkpoint.
  file_ = temporary_.file();
  fail_for_test_ = write_fails_for_test(path_);
  print("{}\n", kTimelineStart);
  write_metadata();
}

void TimelineTrace::write() {
  if (fail_for_test_) throw write_failed(path_.string(), ENOSPC);
  if (buffer_.size() > 0 && std::fwrite(buffer_.data(), 1, buffer_.size(), file_) != buffer_.size())
    throw write_failed(path_.string(), errno);
  buffer_.clear();
}

TimelineTrace::~TimelineTrace() = default;  // temporary_ removes itself unless published

void TimelineTrace::name_track(std::uint32_t pid, std::uint32_t tid, const std::string& name,
                               std::uint32_t sort_index) {
  print(
      "{}{{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":{},\"tid\":{},\"args\":{{\"name\":"
      "\"{}\"}}}},\n{{\"ph\":\"M\",\"name\":\"thread_sort_index\",\"pid\":{},\"tid\":{},"
      "\"args\":{{\"sort_index\":{}}}}}",
      first_event_ ? "" : ",\n", pid, tid, name, pid, tid, sort_index);
  first_event_ = false;
}

void TimelineTrace::write_metadata() {
  auto process = [&](std::uint32_t pid, const std::string& name) {
    print(
        "{}{{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":{},\"args\":{{\"name\":\"{}\"}}}}"
        ",\n{{\"ph\":\"M\",\"name\":\"process_sort_index\",\"pid\":{},\"args\":{{"
        "\"sort_index\":{}}}}}",
        first_event_ ? "" : ",\n", pid, name, pid, pid);
    first_event_ = false;
  };
  process(kHostPid, "Host");
  const flash::Geometry& g = geometry_;
  for (std::uint32_t channel = 0; channel < g.channels; ++channel) {
    const std::uint32_t pid = channel_pid(channel);
    // A synchronous gang is one channel whose bus is its members' data paths
    // (shared control), or their one shared bus (shared bus).
    if (g.lockstep()) {
      process(pid, fmt::format("Gang {} ({} packages in lockstep)", channel, g.members()));
      name_track(pid, bus_tid(channel),
                 g.lanes() > 1 ? fmt::format("Bus {} ({} data paths)", channel, g.lanes())
                               : fmt::format("Bus {} (shared by {} packages)", channel, g.members()),
                 0);
    } else {
      process(pid, fmt::format("Channel {}", channel));
      name_track(pid, bus_tid(channel), fmt::format("Bus {}", channel), 0);
    }
  }
  if (g.shared_control_bus())
    for (std::uint32_t control = 0; control < g.control_buses(); ++control) {
      const std::uint32_t pid = control_pid(g, control);
      process(pid, fmt::format("Gang {} control bus (channels {}-{})", control,
                               control * g.gang_size, (control + 1) * g.gang_size - 1));
      name_track(pid, kControlTid, fmt::format("Control bus {}", control), 0);
    }
  for (std::uint32_t die = 0; die < g.dies(); ++die) {
    const std::uint32_t pid = channel_pid(g.channel_of_die(die));
    const std::uint32_t base = bus_tid(g.channel_of_die(die));
    name_track(pid, die_tid(g, die), fmt::format("Die {} (package {})", die, g.package_of_die(die)),
               die_tid(g, die) - base);
    for (std::uint32_t p = 0; p < g.planes_per_die; ++p) {
      const std::uint32_t plane = die * g.planes_per_die + p;
      name_track(pid, plane_tid(g, plane), fmt::format("Die {} / Plane {}", die, p),
                 plane_tid(g, plane) - base);
    }
  }
}

void TimelineTrace::event(const char* name, const char* suffix, const char* category,
                          std::uint32_t pid, std::uint32_t tid, TimeNs start, TimeNs end,
                          const std::string& args) {
  print(
      ",\n{{\"ph\":\"X\",\"name\":\"{}{}\",\"cat\":\"{}\",\"pid\":{},\"tid\":{},\"ts\":{},"
      "\"dur\":{},\"args\":{{{}}}}}",
      name, suffix, category, pid, tid, format_us(start), format_us(end - start), args);
  ++events_;
}

std::string TimelineTrace::command_args(const flash::Command& command) const {
  const flash::Geometry& g = geometry_;
  std::string args = fmt::format("\"block\":{},\"page\":{}", g.block_of(command.ppn),
                                 g.page_in_block(command.ppn));
  if (command.lpn != flash::kNoLpn) args += fmt::format(",\"lpn\":{}", command.lpn);
  if (command.retry) args += ",\"retry\":true";  // (flash errors: docs/errors.md)
  if (command.two_plane())
    args += fmt::format(",\"block2\":{},\"lpn2\":{}", g.block_of(command.ppn2),
                        command.lpn2 == flash::kNoLpn ? -1 : std::int64_t{command.lpn2});
  if (command.src != flash::kNoPage)
    args += fmt::format(",\"src_block\":{},\"src_page\":{}", g.block_of(command.src),
                        g.page_in_block(command.src));
  return args;
}

// An array phase's name; with cells of several bits, and the page type of
// the page it reads (a move's or copy-back's source) or programs.
std::string TimelineTrace::plane_phase_name(flash::Phase phase,
                                            const flash::Command& command) const {
  std::string name = flash::phase_name(phase);
  if (!cells_ || phase == flash::Phase::kArrayErase) return name;
  const bool source = phase == flash::Phase::kArrayRead && command.src != flash::kNoPage;
  const flash::Ppn ppn = source ? command.src : command.ppn;
  if (cells_->in_slc_mode(ppn)) return name + " SLC";
  return name + " " + flash::page_type_name(geometry_.cell_type, cells_->page_type(ppn));
}

void TimelineTrace::phase(flash::Resource resource, std::uint32_t index, flash::Phase phase,
                          TimeNs start, TimeNs end, const flash::Command& command) {
  if (!in_bound(start, end)) return;
  const char* category = command.cleaning ? "cleaning" : "host";
  const char* suffix = command.cleaning ? " [cleaning]" : "";
  const flash::Geometry& g = geometry_;
  switch (resource) {
    case flash::Resource::kBus:
      event(flash::phase_name(phase), suffix, category, channel_pid(index), bus_tid(index), start,
            end, command_args(command));
      break;
    case flash::Resource::kDie: {
      // The plane tracks' spelling, so that one operation has one colour.
      const char* op =
          command.op == flash::Op::kCopyBack ? "COPY-BACK" : flash::op_name(command.op);
      const std::string name = std::string(op) + (command.two_plane() ? " 2-plane" : "");
      event(name.c_str(), suffix, category, channel_pid(g.channel_of_die(index)), die_tid(g, index),
            start, end, command_args(command));
      break;
    }
    case flash::Resource::kPlane:
      event(plane_phase_name(phase, command).c_str(), suffix, category,
            channel_pid(g.channel_of_die(g.die_of_plane(index))), plane_tid(g, index), start, end,
            command_args(command));
      break;
    case flash::Resource::kControlBus:
      event(flash::phase_name(phase), suffix, category, control_pid(g, index), kControlTid, start,
            end, command_args(command));
      break;
  }
}

void TimelineTrace::request_done(const HostIo& request, TimeNs submitted, TimeNs done) {
  const std::uint64_t number = requests_++;
  if (in_bound(submitted, std::max(done, submitted + 1))) {
    // Overlapping requests (queue depth > 1) go to separate lanes, since the
    // events of one track must nest.
    std::size_t lane = 0;
    while (lane < lane_free_.size() && lane_free_[lane] > submitted) ++lane;
    if (lane == lane_free_.size()) {
      lane_free_.push_back(0);
      name_track(kHostPid, 1 + static_cast<std::uint32_t>(lane),
                 fmt::format("Requests (lane {})", lane), static_cast<std::uint32_t>(lane));
    }
    lane_free_[lane] = done;
    // (One name per IoMode, in its order.)
    constexpr std::array<const char*, static_cast<std::size_t>(IoMode::kZoneFlush) + 1> kNames = {
        "READ",        "WRITE",     "TRIM",       "ZONE APPEND", "ZONE RESET",
        "ZONE FINISH", "ZONE OPEN", "ZONE CLOSE", "ZRWA FLUSH"};
    event(kNames.at(static_cast<std::uint8_t>(request.mode)), "", "request", kHostPid,
          1 + static_cast<std::uint32_t>(lane), submitted, done,
          fmt::format("\"io\":{},\"offset\":{},\"size\":{}", number, request.offset, request.size));
  }
  if (requests_ >= bound_.ios) recording_ = false;
}

void TimelineTrace::finish() {
  if (finished_) return;
  print("\n],\"displayTimeUnit\":\"ns\"}}\n");
  write();
  const bool flushed = std::fflush(file_) == 0 && !std::ferror(file_);
  const int flush_error = errno;
  const bool closed = temporary_.close();
  const int close_error = errno;
  file_ = nullptr;
  finished_ = true;
  if (!flushed || !closed) throw write_failed(path_.string(), flushed ? close_error : flush_error);
}

void TimelineTrace::publish() {
  finish();
  temporary_.publish("the timeline");
}

}  // namespace ssdlab::sim
