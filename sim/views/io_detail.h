// --io-detail: io_detail.csv beside io.csv (whose columns do not change),
// one row per I/O in completion order, saying where its response time went.
//
//   rt_us = host_queue_us + to_flash_us + flash_us + from_flash_us
//   flash_us = array_us + bus_us + behind_tenant_us + behind_io_us
//              + behind_cleaning_us + behind_fold_us + other_us
//
// host_queue_us: from submission until the host queue let it go (arbitration,
// the device's queue depth); to_flash_us: from then until the controller
// started it (the host link, a firmware core, firmware time, the data path,
// thermal throttling); flash_us: from then until its flash part was done
// (decoding included); from_flash_us: from then until the host had it (the
// data path and the link back). The flash part is split instant by instant,
// over the flash time of the I/O's own commands (the commands the FTL
// emitted for it, matched to the phases the timeline reserves by their
// pages): array_us while any of its commands is in an array operation,
// else bus_us while any moves over a bus; else it waits, and the wait is
// counted behind what holds a die or a channel's bus its commands use, in
// this order: another
// tenant's I/O (behind_tenant_us), another I/O of its own tenant or host
// writes of no request, a write buffer's flush (behind_io_us), cleaning
// (behind_cleaning_us), an SLC cache's folding (behind_fold_us: cleaning
// work on a block in SLC mode); other_us when none holds one (a bus held
// by another die, a stage waiting for the one before, the controller, a
// write buffer's acknowledgement). pages and slc_mode_pages count the flash
// pages its own commands read or programmed, page_types names each (lower,
// middle, upper, top; slc in a block in SLC mode; empty on SLC cells).
//
// Approximations: a two-plane command joined from two I/Os' commands counts
// for both; a die is held by what its die phase spans (a command's whole
// time on it, waits for the bus included), a bus by its transfers and
// command cycles; the commands a request's start emits for others (a write
// buffer's flush) count as its own.
#pragma once

#include <cstdint>
#include <deque>
#include <string>
#include <unordered_map>
#include <vector>

#include "flash/timeline_observer.h"
#include "sim/controller/ssd.h"
#include "sim/controller/ssd_observer.h"
#include "sim/results/io_stages.h"
#include "sim/results/row_log.h"

namespace ssdlab::sim {

inline constexpr std::string_view kIoDetailHeader =
    "experiment,run,process,io,rt_us,host_queue_us,to_flash_us,flash_us,from_flash_us,array_us,"
    "bus_us,behind_tenant_us,behind_io_us,behind_cleaning_us,behind_fold_us,other_us,pages,"
    "slc_mode_pages,page_types";

class IoDetail final : public flash::TimelineObserver, public SsdObserver, public IoStageListener {
 public:
  // Observes `ssd` (attached here, detached when destroyed) and writes rows
  // to `log`.
  IoDetail(Ssd& ssd, RowLog& log);
  ~IoDetail() override;
  IoDetail(const IoDetail&) = delete;
  IoDetail& operator=(const IoDetail&) = delete;

  void phase(flash::Resource resource, std::uint32_t index, flash::Phase phase, TimeNs start,
             TimeNs end, const flash::Command& command) override;
  void commands(CommandSource source, ftl::PageRuns ranges,
                const flash::CommandList& commands) override;

  void dispatched(std::uint64_t key, std::uint16_t flow, TimeNs at) override;
  void starting(std::uint64_t key, TimeNs at) override;
  void started() override { current_ = nullptr; }
  void flash_done(std::uint64_t key, TimeNs at) override;
  void completed(std::uint64_t key, const IoRowName& row, TimeNs submitted, TimeNs at) override;

  // Where a wait is counted (the columns behind_tenant_us .. other_us).
  enum Behind : std::uint8_t { kTenant, kIo, kCleaning, kFold, kOther, kBehindKinds };

 private:
  struct Span {
    TimeNs start, end;
  };
  struct Request {
    std::uint16_t flow = 0;
    TimeNs dispatched = -1, started = -1, flash_done = -1;
    std::vector<Span> array, bus;     // its own commands' phases
    std::vector<std::uint32_t> held;  // the dies and buses they held (holders_ slots)
    std::vector<flash::Ppn> pages;    // pages registered in own_ (to forget them)
    std::uint32_t page_count = 0, slc_mode_pages = 0;
    std::string page_types;
    // Filled at flash_done: array, bus, then each Behind kind (ns).
    TimeNs array_ns = 0, bus_ns = 0;
    TimeNs behind_ns[kBehindKinds] = {};
  };
  // What held a die for a span: an I/O (its key and tenant), or work of
  // another kind.
  struct Holder {
    TimeNs start, end;
    std::uint64_t key;  // kNoKey: not an I/O
    std::uint16_t flow;
    Behind kind;  // kTenant for an I/O (then told apart by flow), kIo, kCleaning, kFold
  };
  static constexpr std::uint64_t kNoKey = ~std::uint64_t{0};

  Request& fresh(std::uint64_t key);
  void forget_pages(std::uint64_t key, Request& request);
  // The I/Os whose pages `command` serves (at most two: a two-plane join).
  std::size_t owners_of(const flash::Command& command, std::uint64_t (&keys)[2]) const;
  flash::Ppn page_of(flash::Ppn address) const {
    return address == flash::kNoPage ? address : address / units_per_page_;
  }
  void split(Request& request, std::uint64_t key) const;
  void prune(TimeNs before);

  Ssd& ssd_;
  RowLog& log_;
  std::uint32_t units_per_page_ = 1;  // map units: the FTL names units
  bool multi_bit_ = false;
  std::unordered_map<std::uint64_t, Request> requests_;
  Request* current_ = nullptr;  // between starting() and started()
  std::uint64_t current_key_ = kNoKey;
  // Pages the in-flight I/Os' own commands read or program, to their I/O.
  std::unordered_multimap<flash::Ppn, std::uint64_t> own_;
  // What held each die (slot: the die) and each channel's bus (slot: dies +
  // the channel), in the order reserved.
  std::vector<std::deque<Holder>> holders_;
  std::uint32_t dies_ = 0;
  std::string row_;
};

}  // namespace ssdlab::sim
