#include "sim/engine/simulator.h"

#include <fmt/format.h>

#include <algorithm>
#include <memory>

#include "common/error.h"
#include "sim/engine/ftl_failure.h"
#include "sim/engine/plan_process.h"  // (a final source: its next() inlines where it can)
#include "sim/results/run_samples.h"
#include "workloads/generator.h"

namespace ssdlab::sim {
Simulator::Simulator(Ssd& ssd, IoLog* log)
    : ssd_(ssd), host_queue_(ssd.config().controller), path_(ssd), recorder_(log) {}

std::vector<RunResult> Simulator::run(std::span<const HostStream> streams,
                                      std::span<const RunGroup> groups) {
  open(streams, groups);
  return close();
}

void Simulator::open(std::span<const HostStream> streams, std::span<const RunGroup> groups) {
  path_.count_time_to(now_);  // the time before the run, not in it
  recorder_.open(groups, now_, ssd_);
  host_queue_.clear();
  outstanding_ = 0;
  expired_ = false;
  streams_.begin(streams, now_);
}

void Simulator::step(TimeNs until) {
  for (;;) {
    advance_flash(until);
    if (queue_.empty() || queue_.next_time() > until) return;
    if (const auto at = cuts_.next(); at && queue_.next_time() > *at) {
      cut_power(*at);
      continue;
    }
    auto entry = queue_.pop();
    now_ = entry.time;
    try {
      handle(entry.event);
      if (outstanding_ == 0) idle_until_next_arrival();
    } catch (const ftl::EndOfLife& error) {
      stop_run(error.what(), true);
    }
  }
}

void Simulator::stop_run(const std::string& why, bool end_of_life) {
  // The I/O that hit it never completes; those outstanding are dropped.
  recorder_.stop(why, end_of_life);
  while (!queue_.empty()) queue_.pop();
  drop_flash();
  host_queue_.clear();
  outstanding_ = 0;
}

std::vector<RunResult> Simulator::close() {
  step(flash::kNever);
  ssd_.core().settle();  // cleaning still queued is reserved, as it would run
  if (expired_ && !recorder_.end_of_life())
    recorder_.stop(fmt::format("{} blocks expired (lifetime limit {})",
                               ssd_.ftl().stats().blocks_retired, expired_limit_),
                   false);
  path_.count_time_to(now_);
  std::vector<RunResult> results = recorder_.close(now_, ssd_);
  streams_.clear();
  return results;
}

void Simulator::handle(const Event& event) {
  if (const auto* arrival = std::get_if<Arrival>(&event)) return arrive(*arrival);
  const auto& done = std::get<Completion>(event);
  if (stages_ && done.stage == Stage::kDevice)
    stages_->flash_done(io_key(done.stream, done.io), now_);
  if (path_.on() && on_the_way(done)) return;
  --outstanding_;
  const HostStream& stream = streams_.spec(done.stream);
  recorder_.completed(stream, done.io, done.request, done.submitted, now_, done.refused,
                      done.read_class);
  if (stages_) {
    const RunGroup& group = recorder_.group(stream.group);
    stages_->completed(io_key(done.stream, done.io),
                       IoRowName{group.name, group.run, stream.process, done.io}, done.submitted,
                       now_);
  }
  if (listener_) listener_->completed(done.stream, done.io, now_, done.media_error);
  ++completed_;
  if (progress_) progress_->tick(completed_);
  const bool closed = stream.slots > 0;
  if (host_queue_.unlimited()) {
    if (closed) submit_next(done.stream);
    return;
  }
  // The slot frees first; the stream's next I/O then queues behind those
  // waiting, and the policy picks among all of them.
  host_queue_.complete(stream.queue);
  if (closed) submit_next(done.stream);
  dispatch_waiting();
}

void Simulator::arrive(const Arrival& arrival) {
  switch (arrival.kind) {
    case Arrival::Kind::kSlot:
      if (submit_next(arrival.stream)) streams_.fill_slot(arrival.stream, now_);
      return;
    case Arrival::Kind::kGiven:
      return submit(arrival.stream, arrival.io, arrival.retry);
    case Arrival::Kind::kOpen: {
      const bool stop = expired();  // then no more arrivals from any stream
      if (!stop) submit(arrival.stream, streams_.pending(arrival.stream));
      return streams_.advance_open(arrival.stream, now_, stop);
    }
  }
}

bool Simulator::expired() {
  if (expired_limit_ && ssd_.ftl().stats().blocks_retired >= expired_limit_) expired_ = true;
  return expired_;
}

bool Simulator::submit_next(std::uint32_t index) {
  if (expired()) return false;
  const std::optional<SourceIo> io = streams_.spec(index).source->next();
  if (!io) return false;
  if (io->time > 0)  // the slot idles: time function pause/burst
    streams_.queue_after_pause(index, now_, *io);
  else
    submit(index, *io);
  return true;
}

void Simulator::submit(std::uint32_t index, const SourceIo& io, std::uint64_t retry) {
  const bool fresh = retry == kFresh;
  const HostStream& stream = streams_.spec(index);
  const std::uint64_t number = fresh ? streams_.take_io(index) : retry;
  QueuedRequest queued{index, number, now_, io, !fresh, stream.queue};
  // The map entries of the stream's next I/Os are cache misses: let them
  // load while this one is served.
  const IoSource& source = *stream.source;
  if (fresh) ssd_.prefetch(source.peek(0), source.peek(1));
  // The tenant comes from the stream; the placement identifier too where the
  // stream has one (a plan's placement_id), else from the source (a trace
  // tagged by the lifetime oracle; none otherwise).
  queued.request.flow = stream.flow;
  // (A plan's Reclaim Unit Handle Update comes with the source's I/O.)
  if (stream.placement != 0)
    queued.request.placement = (io.placement & kRuhUpdate) | stream.placement;
  if (host_queue_.unlimited()) return dispatch(queued);
  host_queue_.arrive(queued);
  dispatch_waiting();
}

void Simulator::dispatch(const QueuedRequest& r) {
  if (stages_) stages_->dispatched(io_key(r.stream, r.io), r.request.flow, now_);
  if (path_.on())
    if (const std::optional<HostPath::Step> step = path_.send(r.request, now_)) {
      ++outstanding_;  // the device holds it from now (its slot is taken)
      queue_.push(step->at, Completion::of(r, step->stage));
      return;
    }
  start(r);
}

bool Simulator::on_the_way(const Completion& event) {
  if (event.stage == Stage::kToFlash) {
    --outstanding_;  // start() counts it again
    start(QueuedRequest{event.stream, event.io, event.submitted, event.request, event.resubmitted,
                        streams_.spec(event.stream).queue});
    return true;
  }
  const std::optional<HostPath::Step> step =
      path_.after(event.stage, event.request, event.refused, now_);
  if (!step) return false;
  Completion next = event;
  next.stage = step->stage;
  queue_.push(step->at, next);
  return true;
}

void Simulator::start(const QueuedRequest& r) {
  const HostIo& io = r.request;
  std::optional<TimeNs> done;
  // The tag under which a queued request's completion comes back.
  const std::uint32_t tag = in_flight_.next_tag();
  const bool attribute = recorder_.attributes_cleaning();
  const std::uint64_t moved_before = attribute ? pages_moved() : 0;
  if (stages_) stages_->starting(io_key(r.stream, r.io), now_);
  try {
    done = ssd_.start(io, now_, tag);
    if (stages_) stages_->started();
  } catch (...) {
    const HostStream& stream = streams_.spec(r.stream);
    const RunGroup& group = recorder_.group(stream.group);
    rethrow_as_ftl_failure(
        ssd_.config().ftl.type, "run",
        fmt::format(
            "experiment {}, run {}, process {}, io {}: {} of {} bytes at offset {}, at {} us",
            group.name, group.run, stream.process, r.io, io_mode_letter(io.mode), io.size,
            io.offset, format_us(now_ - recorder_.start())));
  }
  const HostStream& spec = streams_.spec(r.stream);
  if (attribute) recorder_.moved(spec.group, pages_moved() - moved_before);
  const bool media_error = !ssd_.core().media_errors().empty();
  if (media_error) recorder_.media_errors(spec, r.io, io, ssd_.core().media_errors());
  ++outstanding_;
  // The response time counts the wait in the host queue. On a zoned device
  // the offset is where it was served (an append's, the device's choice).
  Completion completion = Completion::of(r, Stage::kDevice);
  if (const ZoneStack* zoned = ssd_.zoned()) {
    const ZoneStack::Outcome& outcome = zoned->outcome();
    completion.request.offset = outcome.offset;
    completion.refused = outcome.status != ftl::ZoneStatus::kSuccess;
    if (completion.refused) recorder_.refused(spec, r.io, io, outcome.status);
  }
  completion.media_error = media_error;
  if (io.mode == IoMode::kRead) completion.read_class = ssd_.core().read_page_class();
  if (!done) return in_flight_.hold(completion);  // queued in the flash scheduler
  if (!r.resubmitted) cuts_.dispatched(now_, *done);
  queue_.push(*done, completion);
}

void Simulator::advance_flash(TimeNs until) {
  for (;;) {
    const TimeNs next = ssd_.core().next_flash_event();
    if (next == flash::kNever || next > until || (!queue_.empty() && next > queue_.next_time()))
      return;
    // Nothing of the host's comes before its next event, nor before `until`
    // (a live device's next arrival).
    ssd_.core().advance_flash(next,
                              std::min(queue_.empty() ? flash::kNever : queue_.next_time(), until));
    for (const Ssd::Completed& done : ssd_.core().completions()) {
      queue_.push(std::max(done.at, now_),
                  in_flight_.release(static_cast<std::uint32_t>(done.tag)));
    }
    ssd_.core().completions().clear();
  }
}

std::uint64_t Simulator::pages_moved() const {
  const ftl::FtlStats& stats = ssd_.ftl().stats();
  return stats.copy_backs + stats.inter_plane_moves;
}

void Simulator::drop_flash() {
  ssd_.core().settle();
  ssd_.core().completions().clear();
  in_flight_.clear();
}

void Simulator::dispatch_waiting() {
  while (auto request = host_queue_.dispatch()) dispatch(*request);
}

void Simulator::idle_until_next_arrival() {
  if (queue_.empty() || queue_.next_time() <= now_) return;
  idle(now_, queue_.next_time());
}

void Simulator::idle(TimeNs from, TimeNs until) {
  try {
    ssd_.idle(from, until);
  } catch (...) {
    rethrow_as_ftl_failure(
        ssd_.config().ftl.type, "idle cleaning",
        fmt::format("idle from {} us to {} us", format_us(from), format_us(until)));
  }
}

}  // namespace ssdlab::sim
