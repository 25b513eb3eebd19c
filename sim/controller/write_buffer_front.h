// The controller's DRAM write buffer in front of the FTL (controller.
// write_buffer; Agrawal et al. §3.3): how host requests use it and when it
// flushes. The bookkeeping of what it holds is WriteBuffer's
// (write_buffer.h); the flash work goes through the controller's core.
//
// Write-back: a write is acknowledged once its data crossed the host link into
// DRAM; the FTL sees it only when it is flushed, each page with its write's
// placement identifier (FDP handles, streams: a flush splits its runs where
// the identifiers change).
//
// Packing (map units smaller than the flash page, ftl/page_mapped/page_mapped_units.h):
// a flush gathers the buffered units of each allocation pool into whole flash
// pages before they are programmed, as a drive's controller gathers them per
// die: it writes a multiple of a page's units per pool, in chunks of one page
// per plane of the pool (one FTL call each, ftl::Ftl::write_runs, whose space
// frees when the chunk is on flash); the units left over stay in DRAM, the
// oldest, for the next flush. Only a flush of everything (idle, power) or a
// buffer with no whole page to give pads a page. Write-through: a write goes
// to flash as without a buffer and also stays in DRAM. Either way a read that
// hits is served from DRAM and never reaches the FTL, so the verifier sees
// only flash reads of pages whose latest version is on flash.
#pragma once

#include <cstdint>
#include <vector>

#include "common/state_io.h"
#include "common/units.h"
#include "ftl/ftl.h"
#include "ftl/page_runs.h"
#include "sim/config/config.h"
#include "sim/controller/cleaning_clock.h"
#include "sim/controller/page_packing.h"
#include "sim/controller/power_cut.h"
#include "sim/controller/ssd_part.h"
#include "sim/controller/write_buffer.h"

namespace ssdlab::sim {

class WriteBufferFront final : public SsdPart {
 public:
  // What the buffer asks of the controller's core: host reads and writes of
  // whole logical pages on flash (through the FTL, the observers and the
  // scheduler; each returns when it completes), and its cleaning clock.
  class Flash {
   public:
    // `runs`: one range, or with packing a chunk's (ftl/page_runs.h).
    virtual TimeNs write(ftl::PageRuns runs, TimeNs now, WriteOrigin origin) = 0;
    // The allocation pool whose flash pages `lpn` is written to
    // (ftl::Ftl::pool_of_page).
    virtual std::uint32_t pack_pool(ftl::Lpn lpn) const = 0;
    // The placement handle a write of `lpn` with identifier `placement` goes
    // to (ftl::Ftl::write_handle).
    virtual std::uint32_t write_handle(ftl::Lpn lpn, std::uint8_t placement) const = 0;
    // The pages of a wordline `pool`'s next flushed pages fill
    // (ftl::Ftl::host_wordline_pages).
    virtual std::uint32_t wordline_pages(std::uint32_t pool) const = 0;
    virtual TimeNs read(const ftl::PageRange& range, TimeNs now) = 0;
    virtual CleaningClock& cleaning() = 0;

   protected:
    ~Flash() = default;
  };

  // How a flush packs: the FTL's logical pages per flash page (1: no
  // packing) and the planes of each allocation pool (a chunk's pages).
  // With host-guided placement (`handles` above 1), each pool's units pack
  // per handle, whose pages are in its own blocks, and a flush writes each
  // pool and handle's units in one stretch (issue 53 item 2: "gathered per
  // die, and per placement stream where one exists").
  // With `whole_chunks` (one-shot wordlines), a chunk is a wordline per
  // plane (Flash::wordline_pages: its pages, of the blocks the pool's writes
  // go to) and a pool gives whole chunks only: then every plane of the pool
  // is at the same page offset after a flush, and the planes of a die keep
  // programming their wordlines together, as two-plane programs.
  //
  // A zoned device's buffer (docs/zns.md, "The write buffer") packs per
  // zone: each zone a pool, whose chunk is a stripe, a wordline of
  // `wordline` pages on each plane of the zone's dies; it keeps a zone's
  // partial stripe at idle (`partial_waits`), since its DRAM is
  // power-protected and the zone's next writes complete the stripe.
  struct Packing {
    std::uint32_t units_per_page = 1;
    std::uint32_t planes_per_pool = 1;
    bool whole_chunks = false;
    std::uint32_t pools = 1;
    std::uint32_t handles = 1;
    std::uint32_t wordline = 0;  // a chunk's wordline pages; 0: the FTL's (Flash::wordline_pages)
    bool partial_waits = false;
  };
  WriteBufferFront(const ControllerConfig& controller, std::uint32_t logical_page_size,
                   Flash& flash, Packing packing);

  // A host write or read of `range` (`bytes` on the host link) at `now`;
  // returns when it completes.
  TimeNs write(const ftl::PageRange& range, std::uint32_t bytes, TimeNs now);
  TimeNs read(const ftl::PageRange& range, std::uint32_t bytes, TimeNs now);
  // True, with its pages counted as misses, if the buffer holds no page of
  // `range`: the caller then reads it from flash as a device without a buffer
  // does (queued with the other reads, so that they join into multi-plane
  // reads). False, nothing counted, if it holds one (read() serves it).
  bool misses_all(const ftl::PageRange& range);
  // Forgets buffered copies of logical pages [first, end): they were
  // trimmed, or written past the buffer, and must not reach flash later.
  void drop(ftl::Lpn first, ftl::Lpn end);
  // A write-back buffer writes everything it holds to flash from `now`: the
  // host is idle, or the power is going and the buffer is power-protected.
  void flush_all(TimeNs now);
  // The host is idle at `now`: flush_all(), or with Packing::partial_waits
  // only the whole chunks.
  void flush_at_idle(TimeNs now);
  // Its hooks as a part of the controller (ssd_part.h): trimmed pages and
  // pages written functionally are dropped (a buffered copy must not reach
  // flash later), an idle period starts with flush_at_idle(), and a Reclaim
  // Unit Handle Update with flush_all().
  void trimmed(const ftl::PageRange& range) override {
    drop(range.first + (range.partial_first ? 1 : 0),
         range.first + range.count - (range.partial_last ? 1 : 0));
  }
  void written_functionally(ftl::PageRuns runs) override {
    for (const ftl::PageRange& run : runs) drop(run.first, run.first + run.count);
  }
  void idle_begins(TimeNs from) override { flush_at_idle(from); }
  void before_handle_update(TimeNs now) override { flush_all(now); }
  // Writes the pages it holds of logical pages [first, end) to flash from
  // `now`, oldest first, whole chunks or not (a zoned device's zone that is
  // finished, or written past the buffer).
  void flush_range(ftl::Lpn first, ftl::Lpn end, TimeNs now);
  bool power_protected() const { return controller_.buffer_power_protected; }
  // Power loss: DRAM is gone. Returns what it held that the host had been
  // told is written (none for write-through).
  std::vector<ftl::Lpn> discard();

  bool holds(ftl::Lpn lpn) const override { return buffer_.contains(lpn); }
  bool holds_data() const { return buffer_.held() > 0; }
  const WriteBuffer& buffer() const { return buffer_; }

  // Its checkpoint sections (WBFR, WBUF): the buffer's contents and
  // admission clock; not optional (the pages it holds are the host's).
  std::optional<PartCheckpoint> checkpoint() const override {
    return PartCheckpoint{"WBFR", "a write buffer (controller.write_buffer)", false};
  }
  void save_state(StateWriter& out) const override;
  void load_state(StateReader& in) override;

 private:
  // Writes the `count` oldest buffered pages to flash from `now`, in runs of
  // consecutive pages; their space frees when the flush completes. With
  // packing, the units that fill no whole page wait, unless the flush would
  // then write fewer than `at_least` pages.
  void flush(std::uint64_t count, TimeNs now, std::uint64_t at_least);
  // Writes flush_pages_ (taken from the buffer, oldest first) to flash from
  // `now`: packed as flush() says, or with `pack` false in runs of
  // consecutive pages as they come.
  void write_taken(TimeNs now, std::uint64_t at_least, bool pack);
  // Writes `runs` as one flush write from `now`; their `pages` free when it
  // completes. Returns the foreground cleaning's end if it cleaned.
  void write_chunk(ftl::PageRuns runs, std::uint64_t pages, TimeNs now, TimeNs& cleaning_end);
  TimeNs transfer_ns(std::uint64_t bytes) const;
  // The packing group of `lpn` (buffered with its placement identifier): its
  // pool, and with handles its handle (group = pool + pools x handle).
  std::uint32_t pack_group(ftl::Lpn lpn) const {
    const std::uint32_t pool = flash_.pack_pool(lpn);
    if (packing_.handles <= 1) return pool;
    return pool + packing_.pools * flash_.write_handle(lpn, buffer_.placement(lpn));
  }
  // Units of one chunk of packing group `group`: a page (with whole_chunks a
  // wordline) per plane of its pool.
  std::size_t chunk_units(std::uint32_t group) const {
    const std::uint32_t wordline = !packing_.whole_chunks ? 1
                                   : packing_.wordline
                                       ? packing_.wordline
                                       : flash_.wordline_pages(group % packing_.pools);
    return std::size_t{packing_.units_per_page} * wordline * packing_.planes_per_pool;
  }
  // chunk_'s runs of consecutive pages (runs_): sorted over the chunk, or
  // with handles group after group (chunk_groups_), each group sorted.
  void runs_in_groups();
  // `runs` split where their pages' placement identifiers change, each run
  // with its pages' identifier, and the identifiers forgotten (their pages
  // are on their way to flash); the runs live until the next call.
  ftl::PageRuns with_placements(ftl::PageRuns runs);
  // A write larger than the buffer, or any write with write-through.
  TimeNs write_to_flash(const ftl::PageRange& range, TimeNs now);

  ControllerConfig controller_;
  std::uint32_t logical_page_size_;
  Flash& flash_;
  WriteBuffer buffer_;
  std::uint64_t high_ = 0, low_ = 0;  // flush marks, in pages
  TimeNs admit_ = 0;  // buffered writes enter in order: the last one's entry
  Packing packing_;
  std::vector<ftl::Lpn> flush_pages_;
  PagePacker packer_;
  std::vector<ftl::Lpn> chunk_;
  std::vector<std::size_t> chunk_groups_;  // with handles: where each group's units start
  std::vector<ftl::PageRange> runs_, group_runs_;
  std::vector<ftl::Lpn> group_lpns_;
  std::vector<ftl::PageRange> placed_runs_;  // with_placements()
};

}  // namespace ssdlab::sim
