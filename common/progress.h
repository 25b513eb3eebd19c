// Progress of long work (preconditioning, runs, trace replay, sweeps) on a
// terminal: one line on stderr, rewritten in place ("\r") with the count
// done, the rate and the time left, at most four times a second, and erased
// when the work ends, so that what follows prints on a clean line.
//
// Off the terminal (stderr redirected to a file or a pipe) and with --quiet
// nothing is printed at all: logs and captured outputs stay as they were.
// Progress never touches io.csv or summary.json.
//
// Cost: the hot loop calls tick() with its running count every item; only
// every kCheckEvery-th call reads the clock, and a disabled Progress returns
// at once (a compare and a branch).
//
//   Progress progress = Progress::on_terminal(quiet, "preconditioning", total, "pages");
//   for (...) progress.tick(done);
//   progress.finish();
//
// Inside a sweep, each job's stages (preconditioning, simulating) report to
// the sweep instead (Progress::reporting): the same ticks, but the numbers
// go to an observer, which draws one line for the whole sweep.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

namespace ssdlab {

class Progress {
 public:
  using Clock = std::function<std::chrono::steady_clock::time_point()>;
  // Receives the text to write as is ("\r", the line, padding).
  using Sink = std::function<void(std::string_view)>;
  // Receives a stage's label ("simulating"), items done and total (0:
  // unknown), instead of a line on the terminal.
  using Observer =
      std::function<void(std::string_view label, std::uint64_t done, std::uint64_t total)>;

  static constexpr std::uint64_t kCheckEvery = 4096;  // items between clock reads
  static constexpr std::chrono::milliseconds kInterval{250};

  // Disabled: prints nothing.
  Progress() = default;
  // `total` 0: unknown (no percentage, no ETA). `unit` names the items
  // ("pages", "I/Os", "jobs", "bytes": bytes print as MiB).
  Progress(std::string label, std::uint64_t total, std::string unit, Sink sink, Clock clock);
  ~Progress();  // finish()
  Progress(Progress&&) noexcept;
  Progress& operator=(Progress&&) noexcept;

  // Enabled only if stderr is a terminal and not `quiet`; writes to stderr.
  static Progress on_terminal(bool quiet, std::string label, std::uint64_t total, std::string unit);
  // Reports to `observer` (at most every kInterval, as the line is drawn);
  // without one, on_terminal(quiet, ...).
  static Progress reporting(const Observer& observer, bool quiet, std::string label,
                            std::uint64_t total, std::string unit);

  // Counts are in 1/`scale` of an item: a sweep counts thousandths of a job
  // (jobs part done), and shows "14.3/36 jobs".
  void set_scale(std::uint64_t scale) { scale_ = scale ? scale : 1; }
  // Text appended to each line ("; job-00003 simulating 40%").
  void set_detail(std::function<std::string()> detail) { detail_ = std::move(detail); }

  bool enabled() const { return static_cast<bool>(sink_); }
  // `done` items so far; cheap: the clock is read every kCheckEvery calls.
  void tick(std::uint64_t done) {
    if (sink_ && ++calls_ % kCheckEvery == 0) update(done);
  }
  // Reads the clock now (for slow items such as sweep jobs); redraws if the
  // last line is at least kInterval old.
  void update(std::uint64_t done);
  // Draws the line now, whatever the interval (slow items: a sweep's first
  // line, before any job is done, and after each job's own output line).
  void draw(std::uint64_t done);
  // Erases the line (before other output goes to the terminal); the next
  // update() draws it again.
  void clear();
  // Erases the line if one was printed; later calls do nothing.
  void finish();

  // The line for `done` items after `seconds` (no "\r"), at `rate` items
  // per second (negative: the average, done / seconds). Exposed for tests.
  std::string line(std::uint64_t done, double seconds, double rate = -1) const;

  // The rate shown is that of the last whole window of this length (work
  // slows down as it goes: preconditioning starts sequential and ends
  // cleaning), the average until one has passed.
  static constexpr std::chrono::seconds kRateWindow{5};

 private:
  std::string label_, unit_;
  std::uint64_t total_ = 0;
  Sink sink_;
  Clock clock_;
  Observer observer_;  // set: numbers go here, not a line to sink_
  std::function<std::string()> detail_;
  std::uint64_t scale_ = 1;
  std::chrono::steady_clock::time_point start_{}, last_{};
  std::uint64_t calls_ = 0;
  std::chrono::steady_clock::time_point window_start_{};
  std::uint64_t window_done_ = 0;
  double window_rate_ = -1;  // of the last whole window; negative: none yet
  std::size_t shown_ = 0;    // length of the line on screen, 0: none
};

// "1h02m", "3m05s", "42s": a duration for the ETA.
std::string format_eta(double seconds);

}  // namespace ssdlab
