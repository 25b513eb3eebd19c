// The simulated SSD as a live device: requests from real programs (through
// the nbdkit plugin, nbdkit_plugin.cpp) enter the one host loop
// (sim/engine/simulator.h) as they arrive, and each returns at its simulated
// completion, simulated time anchored to the wall clock.
//
// One model thread owns the device: callers hand it their requests under a
// mutex (stamped with the simulated time of their arrival, which is the wall
// clock's since the start) and wait on a condition variable. The model
// thread processes events only up to the wall clock's present, so a reply is
// never early; whatever a request waits in the host queue, the flash
// scheduler, cleaning or the write buffer counts as it would in `ssdlab sim`,
// and with nothing outstanding the device idles (Ssd::idle) until the next
// arrival. When the host cannot keep up (the model's work, or the machine),
// replies leave after their simulated completions: the lag counters and a
// warning say so, and io.csv keeps the model's times.
//
// Nothing in the model ends the server (issue 51): a request the device
// cannot serve fails alone with an errno for its NBD reply (RequestError),
// and the device goes on. At its end of life (ftl::EndOfLife) the requests
// in the device then fail with ENOSPC, later writes and trims fail with
// ENOSPC and reads are served from the kept data at once (a worn-out drive
// is read-only); if the model fails otherwise (an FTL bug), every request
// then fails with EIO. Either way the server keeps answering, and io.csv and
// summary.json are written at shutdown with what completed: failed requests
// are counted in summary.json's live block, never in io.csv.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <ostream>
#include <set>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

#include "common/error.h"
#include "common/io_mode.h"
#include "common/units.h"
#include "sim/engine/simulator.h"
#include "sim/live/data_store.h"
#include "sim/live/live_options.h"

namespace ssdlab::sim {

class RunSession;

// A request answered with an error: `code` is the errno of its NBD reply
// (EIO, or ENOSPC at the device's end of life).
class RequestError : public Error {
 public:
  RequestError(int code, const std::string& message) : Error(message), code_(code) {}
  int code() const { return code_; }

 private:
  int code_;
};

// How closely the replies kept to the simulated completions.
struct LagCounters {
  std::uint64_t replies = 0, late = 0;  // late: lag above LiveOptions::late_us
  TimeNs total_ns = 0, max_ns = 0;      // lag: reply time - simulated completion
};

class LiveDevice : private Simulator::CompletionListener {
 public:
  // Builds the device (config, load-state, precondition: RunSession), its
  // data store, and starts the model thread with the clock at zero (or the
  // loaded state's time). `warn` receives the lag warnings. Throws
  // ssdlab::Error on bad options.
  LiveDevice(LiveOptions options, std::ostream& out, std::function<void(const std::string&)> warn);
  ~LiveDevice() override;

  std::uint64_t bytes() const { return bytes_; }
  DataStore& data() { return *data_; }
  // A new connection: its stream (the io.csv `process`).
  std::uint32_t connect();
  // Throws RequestError (counted as failed) for a request the device will
  // not serve: a write or trim after the end of life (ENOSPC), anything after
  // the model failed (EIO). Other failures come from serve().
  void admit(IoMode mode, std::uint64_t offset, std::uint32_t size);
  // Serves one request of `stream` (trims: IoMode::kTrim); returns at its
  // simulated completion, or throws RequestError if it failed in the model.
  void serve(std::uint32_t stream, IoMode mode, std::uint64_t offset, std::uint32_t size);
  // Returns once every request that arrived before it has completed.
  void flush();
  LagCounters lag() const;
  // Stops the model thread (no request may be in flight), completes the
  // run and writes io.csv and summary.json (and the state, if asked).
  void finish();

 private:
  // Connections share these streams in turn (io.csv `process` = connection
  // number modulo this); each numbers its I/Os 0, 1, ...
  static constexpr std::uint32_t kStreams = 64;
  struct Ticket {
    std::condition_variable done_cv;
    TimeNs done = -1;  // the simulated completion, once known
    int error = 0;     // else the errno it failed with, and why
    std::string why;
  };
  struct Arrival {
    std::uint32_t stream;
    SourceIo io;  // io.time unused: `at`
    TimeNs at;
    Ticket* ticket;
    bool flush;
  };

  TimeNs sim_now() const;  // the wall clock on the simulated one
  void model_loop();
  void enter(Arrival& arrival);
  // The model's step between arrivals; a failure in it handled (fail()).
  void step(std::vector<Arrival>& batch, TimeNs horizon);
  // After the end of life or a failure of the model: every request in the
  // device fails with `code`, and so do later ones (reads after the end of
  // life excepted).
  void fail(int code, const std::string& why);
  void reply(TimeNs now);
  // Counts a failed request; the message of its reply.
  std::string failed(const std::string& why);
  // Waits until the wall clock reaches `next` (kNever: no end), an arrival,
  // or the stop.
  void wait_for(TimeNs next);
  void completed(std::uint32_t stream, std::uint64_t io, TimeNs at, bool media_error) override;

  LiveOptions options_;
  std::ostream& out_;
  std::function<void(const std::string&)> warn_;
  std::unique_ptr<RunSession> session_;
  Simulator* simulator_ = nullptr;
  std::unique_ptr<DataStore> data_;
  std::uint64_t bytes_ = 0;
  std::vector<HostStream> streams_;
  std::vector<RunGroup> groups_;
  TimeNs base_ = 0;            // the simulated time at the anchor
  std::int64_t anchor_ = 0;    // the steady clock then, ns
  std::chrono::steady_clock::time_point wall_start_;

  std::mutex mutex_;
  std::condition_variable model_cv_;
  std::vector<Arrival> arrivals_;
  std::atomic<bool> arrived_{false};  // arrivals_ is not empty (the spin's check)
  bool stopping_ = false;
  std::thread model_;
  std::atomic<std::uint32_t> connections_{0};
  std::uint64_t requests_ = 0, flushes_ = 0;  // under mutex_
  // Set once by the model thread: ENOSPC (end of life) or EIO (the model
  // failed), and why. Read under mutex_.
  int failure_ = 0;
  std::string failure_why_;
  std::atomic<std::uint64_t> failed_{0}, reads_after_end_{0};

  // The model thread's: requests in the device by (stream, io) with their
  // arrival order, the order of those not complete, flushes waiting.
  std::unordered_map<std::uint64_t, std::pair<Ticket*, std::uint64_t>> waiting_;
  std::set<std::uint64_t> open_;
  std::vector<std::pair<std::uint64_t, Ticket*>> flush_waiting_;
  std::vector<std::pair<Ticket*, TimeNs>> done_;
  std::uint64_t sequence_ = 0;
  std::uint64_t prefilled_ = 0;  // pages read before any write (Ssd::prefill)

  mutable std::mutex lag_mutex_;
  LagCounters lag_;
  std::uint64_t next_warning_ = 1;  // the late count that warns next
  bool finished_ = false;
};

}  // namespace ssdlab::sim
