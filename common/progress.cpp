#include "common/progress.h"

#include <fmt/format.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <utility>

namespace ssdlab {

Progress::Progress(std::string label, std::uint64_t total, std::string unit, Sink sink, Clock clock)
    : label_(std::move(label)),
      unit_(std::move(unit)),
      total_(total),
      sink_(std::move(sink)),
      clock_(std::move(clock)) {
  if (sink_) start_ = last_ = window_start_ = clock_();
}

Progress::~Progress() {
  finish();
}

Progress::Progress(Progress&& other) noexcept {
  *this = std::move(other);
}

Progress& Progress::operator=(Progress&& other) noexcept {
  if (this == &other) return *this;
  finish();
  label_ = std::move(other.label_);
  unit_ = std::move(other.unit_);
  total_ = other.total_;
  sink_ = std::exchange(other.sink_, nullptr);
  clock_ = std::move(other.clock_);
  observer_ = std::move(other.observer_);
  detail_ = std::move(other.detail_);
  scale_ = other.scale_;
  start_ = other.start_;
  last_ = other.last_;
  window_start_ = other.window_start_;
  window_done_ = other.window_done_;
  window_rate_ = other.window_rate_;
  calls_ = other.calls_;
  shown_ = std::exchange(other.shown_, 0);
  return *this;
}

Progress Progress::on_terminal(bool quiet, std::string label, std::uint64_t total,
                               std::string unit) {
  if (quiet || !::isatty(STDERR_FILENO)) return {};
  return Progress(
      std::move(label), total, std::move(unit),
      [](std::string_view text) {
        std::fwrite(text.data(), 1, text.size(), stderr);
        std::fflush(stderr);
      },
      [] { return std::chrono::steady_clock::now(); });
}

Progress Progress::reporting(const Observer& observer, bool quiet, std::string label,
                             std::uint64_t total, std::string unit) {
  if (!observer) return on_terminal(quiet, std::move(label), total, std::move(unit));
  Progress progress(
      std::move(label), total, std::move(unit), [](std::string_view) {},
      [] { return std::chrono::steady_clock::now(); });
  progress.observer_ = observer;
  return progress;
}

void Progress::update(std::uint64_t done) {
  if (!sink_) return;
  if (clock_() - last_ < kInterval) return;
  draw(done);
}

void Progress::draw(std::uint64_t done) {
  if (!sink_) return;
  const auto now = clock_();
  last_ = now;
  if (observer_) {
    observer_(label_, done, total_);
    return;
  }
  if (now - window_start_ >= kRateWindow && done >= window_done_) {
    window_rate_ = static_cast<double>(done - window_done_) /
                   std::chrono::duration<double>(now - window_start_).count();
    window_start_ = now;
    window_done_ = done;
  }
  const std::string text =
      line(done, std::chrono::duration<double>(now - start_).count(), window_rate_);
  // Pad over what a longer earlier line left on screen.
  const std::size_t pad = shown_ > text.size() ? shown_ - text.size() : 0;
  sink_("\r" + text + std::string(pad, ' '));
  shown_ = text.size();
}

void Progress::clear() {
  if (!sink_ || shown_ == 0) return;
  // "\r", the line's width of blanks, "\r" (built in place: GCC 12's
  // -Wrestrict misreads the concatenation).
  std::string blank(shown_ + 2, ' ');
  blank.front() = blank.back() = '\r';
  sink_(blank);
  shown_ = 0;
}

void Progress::finish() {
  clear();
  sink_ = nullptr;
}

std::string format_eta(double seconds) {
  const auto s = static_cast<std::uint64_t>(std::llround(std::max(0.0, seconds)));
  if (s >= 3600) return fmt::format("{}h{:02}m", s / 3600, s % 3600 / 60);
  if (s >= 60) return fmt::format("{}m{:02}s", s / 60, s % 60);
  return fmt::format("{}s", s);
}

namespace {

// Counts as people read them: 4096, 153.6M, 1.25G.
std::string count_text(double n) {
  if (n < 10 && n != std::floor(n)) return fmt::format("{:.2f}", n);  // 0.05 jobs/s
  if (n >= 1e9) return fmt::format("{:.2f}G", n / 1e9);
  if (n >= 1e6) return fmt::format("{:.1f}M", n / 1e6);
  return fmt::format("{:.0f}", n);
}

}  // namespace

std::string Progress::line(std::uint64_t done, double seconds, double rate) const {
  const bool bytes = unit_ == "bytes";
  const double scale = static_cast<double>(scale_);
  const auto amount = [bytes, scale](std::uint64_t n) {
    if (scale > 1) return fmt::format("{:.1f}", static_cast<double>(n) / scale);
    return bytes ? fmt::format("{:.1f}", static_cast<double>(n) / (1 << 20))
                 : count_text(static_cast<double>(n));
  };
  const std::string unit = bytes ? "MiB" : unit_;
  std::string text = label_ + ": " + amount(done);
  if (total_ > 0)
    text += fmt::format("/{} {} ({:.0f}%)", amount(total_), unit,
                        100.0 * static_cast<double>(done) / static_cast<double>(total_));
  else
    text += " " + unit;
  if (rate < 0 && seconds > 0) rate = static_cast<double>(done) / seconds;
  if (rate > 0) {
    text += bytes ? fmt::format(", {:.1f} MiB/s", rate / (1 << 20))
                  : fmt::format(", {} {}/s", count_text(rate / scale), unit);
    if (total_ > done) text += ", ETA " + format_eta(static_cast<double>(total_ - done) / rate);
  }
  if (detail_) text += detail_();
  return text;
}

}  // namespace ssdlab
