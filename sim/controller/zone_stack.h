// The layers that serve a zoned device's requests above the controller's
// core (docs/zns.md; docs/layout.md, "The controller as parts"): the host's
// log ([host.log], host_log.h), if there is one, over the zone part
// (zone_front.h), over the write buffer (write_buffer_front.h), over the
// core, which writes and reads flash. A request goes down once: the log's
// device commands go to the zone part here, never back through the Ssd
// that handed the request down, and the zone part hands its pages to the
// buffer or, without one, to the core (Core).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>

#include "common/host_io.h"
#include "common/state_io.h"
#include "common/units.h"
#include "flash/command.h"
#include "ftl/ftl.h"
#include "ftl/zones.h"
#include "sim/config/config.h"
#include "sim/controller/host_log.h"
#include "sim/controller/power_cut.h"
#include "sim/controller/ssd_observer.h"
#include "sim/controller/ssd_part.h"
#include "sim/controller/write_buffer_front.h"
#include "sim/controller/zone_front.h"

namespace ssdlab::sim {

class ZoneStack final : public SsdPart, private HostLog::Device {
 public:
  // A request's tag that asks for its completion at once (Ssd::kWait).
  static constexpr std::uint64_t kWait = ~std::uint64_t{0};

  // What the stack asks of the controller's core below it. The core's
  // command list (commands()) is the one the zone part fills.
  class Core {
   public:
    virtual flash::CommandList& commands() = 0;
    // The host's pages `runs`, written or read on flash from `now`: the
    // completion, or with a tag other than kWait, only if known at once
    // (Ssd::start). A read moves the read units of `request` (read_units.h).
    virtual std::optional<TimeNs> flash_write(ftl::PageRuns runs, TimeNs now, WriteOrigin origin,
                                              std::uint64_t tag) = 0;
    virtual std::optional<TimeNs> flash_read(const ftl::PageRange& range, TimeNs now,
                                             std::uint64_t tag, const HostIo* request) = 0;
    // The zone action's commands (a reset's, as a trim of `range`; a
    // finish's padding, as background work), emitted and scheduled as host
    // writes from `now`.
    virtual std::optional<TimeNs> submit(CommandSource source, const ftl::PageRange* range,
                                         TimeNs now, std::uint64_t tag) = 0;
    // Functionally (preconditioning): the FTL writes `range` into the
    // command list, or the list is only emitted.
    virtual void write_at_once(const ftl::PageRange& range) = 0;
    virtual void emit(CommandSource source, const ftl::PageRange* range,
                      Acknowledge acknowledge) = 0;
    // Bytes the host asked to write (the device's, the host log's cleaning
    // included), and a functional request done.
    virtual void host_wrote(std::uint64_t bytes) = 0;
    virtual void after_request() = 0;

   protected:
    ~Core() = default;
  };

  // How the last request serve() took ended: its status and the offset it
  // was served at (an append's, the one the device chose).
  struct Outcome {
    ftl::ZoneStatus status = ftl::ZoneStatus::kSuccess;
    std::uint64_t offset = 0;
  };

  // `page_size`: bytes of a logical page; `buffer`: the write buffer below
  // the zone part, or null. Throws ssdlab::Error if the config's host log
  // does not fit the device.
  ZoneStack(const DeviceConfig& config, ftl::ZonedDevice& device, std::uint32_t page_size,
            WriteBufferFront* buffer, Core& core, bool verify);
  ZoneStack(const ZoneStack&) = delete;
  ZoneStack& operator=(const ZoneStack&) = delete;

  // How a zoned device's write buffer packs: in whole stripes of each zone.
  // Throws ssdlab::Error if a write-back buffer is not power-protected.
  static WriteBufferFront::Packing buffer_packing(const DeviceConfig& config,
                                                  const ftl::ZonedDevice& device);

  // A host request at `now`, tagged as Ssd::start's.
  std::optional<TimeNs> serve(const HostIo& request, TimeNs now, std::uint64_t tag);
  // The host writes [offset, offset + size) without time (preconditioning).
  void write_functionally(std::uint64_t offset, std::uint64_t size);

  const ZoneFront& front() const { return front_; }
  const Outcome& outcome() const { return outcome_; }
  const HostLog* log() const { return log_.get(); }

  // Checkpoints: the host log's section (HLOG), if there is a log; not
  // optional (it maps the host's data). The stack is listed for this alone
  // (SsdCore::list_parts): it takes no hook.
  std::optional<PartCheckpoint> checkpoint() const override {
    if (!log_) return std::nullopt;
    return PartCheckpoint{"HLOG", "a host log (host.log)", false};
  }
  void save_state(StateWriter& out) const override;
  void load_state(StateReader& in) override;

 private:
  std::optional<TimeNs> serve_zoned(const HostIo& request, TimeNs now, std::uint64_t tag);
  // Pages a zone random write area committed, written.
  std::optional<TimeNs> commit_pages(const ftl::PageRange& range, TimeNs now, std::uint64_t tag);
  // What the zone at byte `offset` (if one starts there) holds in its ZRWA
  // and the buffer, written.
  void flush_zone(std::uint64_t offset, TimeNs now);
  // A write past the buffer's capacity: the pages it holds of the write's
  // zone below the write, written first (a zone is programmed in order).
  void flush_below(const ftl::PageRange& range, TimeNs now);
  // What the host log asks of the device (HostLog::Device).
  TimeNs command(const HostIo& io, TimeNs now) override;
  void functional(const HostIo& io) override;

  ftl::ZonedDevice& device_;
  ZoneFront front_;
  WriteBufferFront* buffer_;
  Core& core_;
  ControllerConfig controller_;
  Outcome outcome_;
  std::unique_ptr<HostLog> log_;
};

}  // namespace ssdlab::sim
