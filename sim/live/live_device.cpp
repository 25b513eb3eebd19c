#include "sim/live/live_device.h"

#include <fmt/format.h>
#include <sys/prctl.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>

#include "common/error.h"
#include "common/output_error.h"
#include "sim/report/report.h"
#include "sim/run/run_session.h"
#include "workloads/state_enforcement.h"

namespace ssdlab::sim {
namespace {

// The model thread spins (instead of sleeping) for the last stretch before
// its next event, so that a reply leaves on time rather than after the
// scheduler's wake-up latency.
constexpr TimeNs kSpinNs = 30'000;

class NoArrivals final : public IoSource {
 public:
  std::optional<SourceIo> next() override { return std::nullopt; }
};
NoArrivals no_arrivals;

std::int64_t steady_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

std::uint64_t key_of(std::uint32_t stream, std::uint64_t io) {
  return (std::uint64_t{stream} << 48) | io;
}

SimOptions session_options(const LiveOptions& options, const std::string& outdir) {
  SimOptions sim = options.sim;
  sim.outdir = outdir;
  sim.workload = "live";
  sim.quiet = true;
  sim.state_cache = false;
  sim.names = {"config=", "io-log=", "load-state=", "save-state="};
  return sim;
}

// What a live device does not serve, refused at start rather than ignored:
// an NBD export is one range, served from one submission queue.
void check_live_config(const DeviceConfig& config, const std::string& path) {
  if (!config.namespaces.empty())
    throw make_error(
        "config={}: the device has namespaces ([[namespace]] or host.namespaces), and a live "
        "device serves its whole logical space as one export; leave them out here (serving a "
        "namespace per export is not built yet)",
        path);
  if (config.controller.host_queues.several())
    throw make_error(
        "config={}: the device has {} submission queues ([[host.queues]]), and a live device "
        "serves every connection from one; give at most one",
        path, config.controller.host_queues.queues.size());
}

}  // namespace

LiveDevice::LiveDevice(LiveOptions options, std::ostream& out,
                       std::function<void(const std::string&)> warn)
    : options_(std::move(options)), out_(out), warn_(std::move(warn)) {
  check_live_options(options_);
  if (options_.io_log.empty()) {
    // The run driver writes its outputs somewhere: a folder of our own, removed at the end.
    std::string folder = (std::filesystem::temp_directory_path() / "ssdlab-live.XXXXXX").string();
    if (!::mkdtemp(folder.data())) throw make_error("cannot create a temporary folder");
    options_.sim.outdir = folder;
  } else {
    options_.sim.outdir = options_.io_log;
  }
  options_.sim = session_options(options_, options_.sim.outdir);
  session_ = std::make_unique<RunSession>(options_.sim, out_);
  check_live_config(session_->config(), options_.sim.config);
  // An NBD client writes anywhere and knows no zone commands: a zoned device
  // is served only behind the host's log, which makes it a conventional one.
  if (const ZoneStack* zoned = session_->ssd().zoned(); zoned && !zoned->log())
    throw make_error(
        "{}: a zoned device (ftl.type = \"zoned\") takes writes only at its zones' write "
        "pointers; serve it through a host log ([host.log], docs/zns.md)",
        options_.sim.config);
  if (!session_->loaded_state())
    session_->precondition(options_.sim.precondition.empty()
                               ? workloads::PreconditionSpec{}
                               : workloads::parse_precondition(options_.sim.precondition),
                           "preconditioned");
  bytes_ = session_->ssd().logical_bytes();
  data_ = make_data_store(options_.data, bytes_, options_.allow_destroy);
  simulator_ = &session_->start(true, 0);
  simulator_->listen(this);
  groups_.push_back(RunGroup{"live", 0, 0, 0, false});
  for (std::uint32_t s = 0; s < kStreams; ++s)
    streams_.push_back(HostStream{&no_arrivals, 0, s, 0, 0, 0, 0});
  simulator_->open(streams_, groups_);
  base_ = simulator_->now();
  anchor_ = steady_ns();
  wall_start_ = std::chrono::steady_clock::now();
  model_ = std::thread([this] { model_loop(); });
}

LiveDevice::~LiveDevice() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  model_cv_.notify_one();
  if (model_.joinable()) model_.join();
  if (options_.io_log.empty()) {
    std::error_code ignored;
    std::filesystem::remove_all(options_.sim.outdir, ignored);
  }
}

TimeNs LiveDevice::sim_now() const { return base_ + (steady_ns() - anchor_); }

std::uint32_t LiveDevice::connect() { return connections_++ % kStreams; }

std::string LiveDevice::failed(const std::string& why) {
  ++failed_;
  return why;
}

void LiveDevice::admit(IoMode mode, std::uint64_t offset, std::uint32_t size) {
  std::lock_guard lock(mutex_);
  if (failure_ != EIO && (failure_ != ENOSPC || mode == IoMode::kRead)) return;
  ++requests_;  // received, and failed: counted in summary.json, not in io.csv
  throw RequestError(failure_, failed(fmt::format("{} of {} bytes at {}: refused: {}",
                                                  io_mode_letter(mode), size, offset,
                                                  failure_why_)));
}

void LiveDevice::serve(std::uint32_t stream, IoMode mode, std::uint64_t offset,
                       std::uint32_t size) {
  Ticket ticket;
  SourceIo io{};
  io.mode = mode;
  io.offset = offset;
  io.size = size;
  std::unique_lock lock(mutex_);
  // Stamped under the lock: the model thread, which reads the clock under
  // it too, never processes past an arrival it has not seen.
  arrivals_.push_back(Arrival{stream, io, sim_now(), &ticket, false});
  ++requests_;
  arrived_.store(true, std::memory_order_release);
  model_cv_.notify_one();
  ticket.done_cv.wait(lock, [&] { return ticket.done >= 0; });
  lock.unlock();
  if (ticket.error) throw RequestError(ticket.error, failed(ticket.why));
  const TimeNs lag = std::max<TimeNs>(0, sim_now() - ticket.done);
  std::lock_guard lag_lock(lag_mutex_);
  ++lag_.replies;
  lag_.total_ns += lag;
  lag_.max_ns = std::max(lag_.max_ns, lag);
  if (static_cast<double>(lag) <= options_.late_us * 1000) return;
  if (++lag_.late < next_warning_) return;
  next_warning_ *= 10;  // 1, 10, 100, ... late replies
  warn_(fmt::format(
      "ssdlab: {} replies left more than {} us after their simulated completion (this one "
      "{:.1f} us late, the most {:.1f} us): the host does not keep up with the model's time; "
      "io.csv keeps the model's times",
      lag_.late, options_.late_us, static_cast<double>(lag) / 1000,
      static_cast<double>(lag_.max_ns) / 1000));
}

void LiveDevice::flush() {
  Ticket ticket;
  std::unique_lock lock(mutex_);
  arrivals_.push_back(Arrival{0, SourceIo{}, sim_now(), &ticket, true});
  ++flushes_;
  arrived_.store(true, std::memory_order_release);
  model_cv_.notify_one();
  ticket.done_cv.wait(lock, [&] { return ticket.done >= 0; });
}

LagCounters LiveDevice::lag() const {
  std::lock_guard lock(lag_mutex_);
  return lag_;
}

void LiveDevice::model_loop() {
  ::prctl(PR_SET_TIMERSLACK, 1UL);  // timed waits wake on time, not up to 50 us late
  std::vector<Arrival> batch;
  for (;;) {
    TimeNs horizon = 0;
    bool stop = false;
    {
      std::lock_guard lock(mutex_);
      horizon = sim_now();
      batch.swap(arrivals_);
      arrived_.store(false, std::memory_order_relaxed);
      stop = stopping_;
    }
    step(batch, horizon);
    reply(horizon);
    if (stop) return;
    wait_for(simulator_->next_event());
  }
}

void LiveDevice::step(std::vector<Arrival>& batch, TimeNs horizon) {
  // An exception out of the model, other than a request refused alone
  // (enter()) and the end of life (Simulator::end_of_life()), leaves the
  // model in a state nobody knows: it stops, and every request fails.
  const auto guarded = [&](Ticket* ticket, auto body) {
    try {
      body();
    } catch (const std::exception& error) {
      const std::string why = fmt::format("the model failed: {}", error.what());
      try {
        simulator_->abandon(why);
      } catch (const std::exception&) {  // (it stays stopped: failure_ below)
      }
      fail(EIO, why);
      if (ticket && ticket->done < 0 && !ticket->error) {
        ticket->error = EIO;
        ticket->why = why;
        done_.emplace_back(ticket, horizon);
      }
    }
  };
  for (Arrival& arrival : batch) guarded(arrival.ticket, [&] { enter(arrival); });
  batch.clear();
  guarded(nullptr, [&] {
    if (failure_) return;
    simulator_->advance_to(horizon);
    if (simulator_->end_of_life()) fail(ENOSPC, simulator_->stopped());
  });
}

void LiveDevice::enter(Arrival& arrival) {
  const std::uint64_t order = sequence_++;
  if (arrival.flush) {
    flush_waiting_.emplace_back(order, arrival.ticket);
    return;
  }
  if (failure_) {
    // After the end of life a read returns the kept data at once (the model
    // serves nothing more); anything else fails as admit() refuses it.
    const bool read = failure_ == ENOSPC && arrival.io.mode == IoMode::kRead;
    if (read) ++reads_after_end_;
    if (!read) {
      arrival.ticket->error = failure_;
      arrival.ticket->why = fmt::format("{} of {} bytes at {}: refused: {}",
                                        io_mode_letter(arrival.io.mode), arrival.io.size,
                                        arrival.io.offset, failure_why_);
    }
    done_.emplace_back(arrival.ticket, arrival.at);
    return;
  }
  // A read of pages never written reads them as if written before the run
  // (as a trace's reads are: Ssd::prefill), so that it costs a flash read.
  if (arrival.io.mode == IoMode::kRead)
    prefilled_ += session_->ssd().prefill(arrival.io.offset, arrival.io.size);
  simulator_->advance_to(arrival.at);  // (a failure here is not this request's)
  std::uint64_t io = 0;
  try {
    io = simulator_->arrive(arrival.stream, arrival.io, arrival.at);
  } catch (const OutputError&) {
    throw;  // an output that cannot be written: not this request's doing
  } catch (const Error& error) {
    // Refused at its submission (ssdlab::Error: bad input, not a broken
    // model): this request fails alone.
    arrival.ticket->error = EIO;
    arrival.ticket->why = error.what();
    done_.emplace_back(arrival.ticket, arrival.at);
    return;
  }
  waiting_[key_of(arrival.stream, io)] = {arrival.ticket, order};
  open_.insert(order);
  if (simulator_->end_of_life()) fail(ENOSPC, simulator_->stopped());
}

void LiveDevice::fail(int code, const std::string& why) {
  if (failure_) return;
  {
    std::lock_guard lock(mutex_);
    failure_ = code;
    failure_why_ = code != ENOSPC || why.starts_with("end of life") ? why : "end of life: " + why;
  }
  // As `ssdlab sim` says it (plan_run.cpp), and what the server does now.
  warn_(fmt::format("ssdlab: {}{}; {} (io.csv and summary.json are written at shutdown)",
                    code == ENOSPC ? "DEVICE END OF LIFE: " : "", failure_why_,
                    code == ENOSPC ? "writes and trims now fail with ENOSPC, reads are served"
                                   : "every request now fails with EIO"));
  // The requests in the device never complete: each fails now.
  for (auto& [key, waiting] : waiting_) {
    waiting.first->error = code;
    waiting.first->why = failure_why_;
    done_.emplace_back(waiting.first, simulator_->now());
  }
  waiting_.clear();
  open_.clear();
}

void LiveDevice::completed(std::uint32_t stream, std::uint64_t io, TimeNs at, bool media_error) {
  const auto found = waiting_.find(key_of(stream, io));
  if (found == waiting_.end()) return;
  if (media_error) {
    // A read no ECC step corrected ([errors], docs/errors.md): the host
    // gets an error, as a drive's media error reaches it.
    Ticket* ticket = found->second.first;
    ticket->error = EIO;
    ticket->why = fmt::format("io {}: a read with a page no ECC step corrected (a media error)",
                              io);
  }
  done_.emplace_back(found->second.first, at);
  open_.erase(found->second.second);
  waiting_.erase(found);
}

void LiveDevice::reply(TimeNs now) {
  // A flush completes once everything that arrived before it has.
  const std::uint64_t oldest = open_.empty() ? sequence_ : *open_.begin();
  std::erase_if(flush_waiting_, [&](const std::pair<std::uint64_t, Ticket*>& flush) {
    if (flush.first > oldest) return false;
    done_.emplace_back(flush.second, now);
    return true;
  });
  if (done_.empty()) return;
  std::lock_guard lock(mutex_);
  for (auto& [ticket, at] : done_) {
    ticket->done = at;
    ticket->done_cv.notify_one();
  }
  done_.clear();
}

void LiveDevice::wait_for(TimeNs next) {
  std::unique_lock lock(mutex_);
  while (arrivals_.empty() && !stopping_) {
    if (next == flash::kNever) {
      model_cv_.wait(lock);
      continue;
    }
    const TimeNs left = next - sim_now();
    if (left <= 0) return;
    if (left > kSpinNs) {
      model_cv_.wait_for(lock, std::chrono::nanoseconds(left - kSpinNs));
      continue;
    }
    lock.unlock();
    while (sim_now() < next && !arrived_.load(std::memory_order_acquire)) {
    }
    return;
  }
}

}  // namespace ssdlab::sim
