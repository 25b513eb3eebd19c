#include "sim/sweep/sweep_progress.h"

#include <fmt/format.h>

#include <algorithm>

namespace ssdlab::sim {

SweepProgress::SweepProgress(bool quiet, std::size_t jobs)
    : SweepProgress(Progress::on_terminal(quiet, "sweep", jobs * kScale, "jobs"), jobs) {}

SweepProgress::SweepProgress(Progress progress, std::size_t /*jobs*/)
    : progress_(std::move(progress)) {
  progress_.set_scale(kScale);
  progress_.set_detail([this] { return detail(); });
  progress_.draw(0);
}

Progress::Observer SweepProgress::observer(std::size_t id) {
  if (!progress_.enabled()) return {};
  return [this, id](std::string_view stage, std::uint64_t done, std::uint64_t total) {
    report(id, stage, done, total);
  };
}

std::uint64_t SweepProgress::parts(bool preconditioned, std::string_view stage,
                                   std::uint64_t done, std::uint64_t total) {
  if (total == 0) return 0;
  const std::uint64_t fraction = std::min(done, total) * kScale / total;
  if (stage.starts_with("preconditioning")) return fraction / 2;
  return preconditioned ? kScale / 2 + fraction / 2 : fraction;
}

void SweepProgress::report(std::size_t id, std::string_view stage, std::uint64_t done,
                           std::uint64_t total) {
  std::lock_guard lock(mutex_);
  Running& job = running_[id];
  job.preconditioned = job.preconditioned || stage.starts_with("preconditioning");
  job.stage = std::string(stage);
  job.done = done;
  job.total = total;
  // Never backwards: a plan re-enforces its state between experiments.
  job.parts = std::max(job.parts, parts(job.preconditioned, stage, done, total));
  progress_.update(parts_done());
}

void SweepProgress::finished(std::size_t id, const std::function<void()>& print) {
  std::lock_guard lock(mutex_);
  running_.erase(id);
  ++done_;
  progress_.clear();
  print();
  progress_.draw(parts_done());
}

void SweepProgress::finish() {
  std::lock_guard lock(mutex_);
  progress_.finish();
}

std::uint64_t SweepProgress::parts_done() const {
  std::uint64_t parts = done_ * kScale;
  for (const auto& [id, job] : running_) parts += job.parts;
  return parts;
}

std::string SweepProgress::detail() const {
  constexpr std::size_t kShown = 3;  // the line stays on one terminal row
  std::string text;
  std::size_t shown = 0;
  for (const auto& [id, job] : running_) {
    if (shown++ == kShown) {
      text += fmt::format(", +{} running", running_.size() - kShown);
      break;
    }
    const std::string_view stage = std::string_view(job.stage).substr(0, job.stage.find(' '));
    text += fmt::format("{}job-{:05} {} {:.0f}%", shown == 1 ? "; " : ", ", id, stage,
                        job.total ? 100.0 * static_cast<double>(std::min(job.done, job.total)) /
                                        static_cast<double>(job.total)
                                  : 0.0);
  }
  return text;
}

}  // namespace ssdlab::sim
