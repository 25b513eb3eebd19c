// The controller's DRAM write buffer in front of the FTL (controller.
// write_buffer; Agrawal et al. §3.3): how host requests use it and when it
// flushes. The bookkeeping of what it holds is WriteBuffer's
// (write_buffer.h); the flash work goes through the controller's core.
//
// Write-back: a write is acknowledged once its data crossed the host link into
// DRAM; the FTL sees it only when it is flushed. Write-through: a write goes
// to flash as without a buffer and also stays in DRAM. Either way a read that
// hits is served from DRAM and never reaches the FTL, so the verifier sees
// only flash reads of pages whose latest version is on flash.
#pragma once

#include <cstdint>
#include <vector>

#include "common/state_io.h"
#include "common/units.h"
#include "ftl/ftl.h"
#include "sim/controller/cleaning_clock.h"
#include "sim/config/config.h"
#include "sim/controller/power_cut.h"
#include "sim/controller/write_buffer.h"

namespace ssdlab::sim {

class WriteBufferFront {
 public:
  // What the buffer asks of the controller's core: host reads and writes of
  // whole logical pages on flash (through the FTL, the observers and the
  // scheduler; each returns when it completes), and its cleaning clock.
  class Flash {
   public:
    virtual TimeNs write(const ftl::PageRange& range, TimeNs now, WriteOrigin origin) = 0;
    virtual TimeNs read(const ftl::PageRange& range, TimeNs now) = 0;
    virtual CleaningClock& cleaning() = 0;

   protected:
    ~Flash() = default;
  };

  WriteBufferFront(const ControllerConfig& controller, std::uint32_t logical_page_size,
                   Flash& flash);

  // A host write or read of `range` (`bytes` on the host link) at `now`;
  // returns when it completes.
  TimeNs write(const ftl::PageRange& range, std::uint32_t bytes, TimeNs now);
  TimeNs read(const ftl::PageRange& range, std::uint32_t bytes, TimeNs now);
  // Forgets buffered copies of logical pages [first, end): they were
  // trimmed, or written past the buffer, and must not reach flash later.
  void drop(ftl::Lpn first, ftl::Lpn end);
  // A write-back buffer writes everything it holds to flash from `now`: the
  // host is idle, or the power is going and the buffer is power-protected.
  void flush_all(TimeNs now);
  bool power_protected() const { return controller_.buffer_power_protected; }
  // Power loss: DRAM is gone. Returns what it held that the host had been
  // told is written (none for write-through).
  std::vector<ftl::Lpn> discard();

  bool holds(ftl::Lpn lpn) const { return buffer_.contains(lpn); }
  bool holds_data() const { return buffer_.held() > 0; }
  const WriteBuffer& buffer() const { return buffer_; }

  // Its checkpoint section (WBUF): the buffer's contents and admission clock.
  void save_state(StateWriter& out) const;
  void load_state(StateReader& in);

 private:
  // Writes the `count` oldest buffered pages to flash from `now`, in runs of
  // consecutive pages; their space frees when the flush completes.
  void flush(std::uint64_t count, TimeNs now);
  TimeNs transfer_ns(std::uint64_t bytes) const;
  // A write larger than the buffer, or any write with write-through.
  TimeNs write_to_flash(const ftl::PageRange& range, TimeNs now);

  ControllerConfig controller_;
  std::uint32_t logical_page_size_;
  Flash& flash_;
  WriteBuffer buffer_;
  std::uint64_t high_ = 0, low_ = 0;  // flush marks, in pages
  TimeNs admit_ = 0;  // buffered writes enter in order: the last one's entry
  std::vector<ftl::Lpn> flush_pages_;
};

}  // namespace ssdlab::sim
