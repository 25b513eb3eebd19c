// Power-loss simulation: what a cut leaves on flash, what the mount costs,
// and whether every acknowledged write survived.
//
// A cut at simulated time T:
//  - every flash command that had not completed by T is undone on the NAND
//    array (newest first): an interrupted program leaves its page torn
//    (garbage that fails ECC; the page stays used), an interrupted erase
//    leaves the block as it was. Commands are reserved first come first
//    served on each die, so a later command on a block never completes
//    before an earlier one;
//  - controller RAM is lost (the FTL's maps, free lists, victim buckets,
//    wear-leveler queues, log blocks; the NAND valid bits); the FTL rebuilds
//    it by an OOB scan (ftl/oob_scan.h) and may merge what it found;
//  - a host write is acknowledged when it completed at or before T; every
//    acknowledged write must read back with its version or a newer one of a
//    write in flight at the cut, each logical page resolving to one whole
//    version (never garbage); a page whose last acknowledged event was no
//    write must not read back data older than it.
// The recorder tracks the data version of every physical page from the
// command stream (as ftl/verifier.h does, with undo) and keeps the commands
// still in flight. Memory, power-cut runs only: 4 bytes per physical page and
// 8 per logical page, plus the NAND array's 8-byte sequence numbers.
#pragma once

#include <cstdint>
#include <deque>
#include <limits>
#include <string>
#include <vector>

#include "common/units.h"
#include "flash/command.h"
#include "flash/nand_array.h"
#include "flash/timing.h"
#include "ftl/ftl.h"
#include "ftl/version_shadow.h"

namespace ssdlab::sim {

// Mount time of the OOB scan (state the model, README "Power loss and
// recovery"): each block is read up to its write pointer plus its first
// erased page (which ends the scan of that block). A page read costs the
// array read on its die and the OOB transfer (oob_size bytes) on its
// channel; dies of a channel interleave, so a channel takes the longer of
// its busiest die's array time and its bus time, plus one transfer to drain
// the pipeline; channels work in parallel. With summary pages
// (`summary_bytes`, ftl::summary_page_bytes(); 0: none) a closed block is
// one read of its summary page (array read, then summary_bytes on the bus)
// instead of a read of each page (ftl/oob_scan.h). With map units
// (`units_per_page` > 1; `nand` in units) the pages read are units, and one
// array read serves every unit of a flash page (the OOB area holds them all).
struct ScanCost {
  std::uint64_t pages_read = 0;
  TimeNs scan_ns = 0;
};
ScanCost scan_cost(const flash::NandArray& nand, const flash::Timing& timing,
                   std::uint32_t summary_bytes = 0, std::uint32_t units_per_page = 1);

struct PowerCutReport {
  TimeNs at = 0;                       // when the cut happened
  TimeNs mount_done = 0;               // when the device takes requests again
  std::uint64_t pages_scanned = 0;     // OOB reads of the scan
  TimeNs scan_ns = 0;                  // their time (scan_cost)
  TimeNs merge_ns = 0;                 // time of the flash commands the mount appended
  std::uint64_t mount_commands = 0;    // those commands
  std::uint64_t torn_pages = 0;        // programs interrupted by the cut
  // Pages of a wordline whose later program the cut interrupted, lost with
  // it (paired page loss): on multi-pass cells (timing.cell.program =
  // "multi-pass") its earlier passes, corrupted (fidelity review G13); on
  // one-shot cells the pages staged for its one program (G1).
  std::uint64_t paired_pages_lost = 0;
  std::uint64_t erases_undone = 0;     // erases interrupted by the cut
  std::uint64_t writes_in_flight = 0;  // host writes not acknowledged at the cut
  // Write buffer (README "Power loss and recovery"): a volatile buffer's
  // acknowledged logical pages that did not reach flash (by design, not
  // counted in lost_writes); a power-protected buffer's flush on hold-up
  // energy, charged to the mount (from `at` to the scan's start).
  std::uint64_t buffered_writes_lost = 0;
  TimeNs hold_up_ns = 0;
  std::uint64_t requests_resubmitted = 0;  // I/Os in flight the host sends again
  std::uint64_t pages_checked = 0;         // logical pages read back after the mount
  std::uint64_t lost_writes = 0;           // acknowledged logical-page writes not read back
  std::uint64_t resurrected_pages = 0;     // pages reading back data older than their last event
  std::string first_problem;               // the first lost or resurrected page, in words
  bool recovered() const { return lost_writes == 0 && resurrected_pages == 0; }
};

// When a recorded command list's host write is acknowledged: once its
// programs complete (host_write_done()), or at once (a functional write:
// preconditioning, no time passes, all of it is on flash).
enum class Acknowledge : std::uint8_t { kWhenDone, kAtOnce };
// Who acknowledged a host write to the host: the controller when the write
// completed, or a write-back buffer when it took the data (a flush).
enum class WriteOrigin : std::uint8_t { kHost, kBufferFlush };

// How a torn program harms the pages programmed before it: on cells
// programmed in several passes, a wordline's later pass moves the cells'
// charge from the levels its earlier passes left toward their final
// levels, so a cut during it leaves the wordline's earlier pages
// unreadable too: "a programming operation can corrupt the paired page
// under abnormal termination" (Lee et al., "Adaptive Paired Page Prebackup
// Scheme for MLC NAND Flash Memory", IEEE TCAD 33(7), 2014, §1; Micron's
// advice on linux-mtd, 2015-03-16: after a power loss during an upper page
// program, check the lower page). One-shot wordlines program every page at
// once, at the last: the pages staged before it (whose commands ended with
// their transfer) are on flash only if that program completes, and a cut
// during it leaves them torn as well (issue 54 item 1).
struct PairedPages {
  std::uint32_t bits = 1;            // pages per wordline (1: no pairing)
  std::uint32_t units_per_page = 1;  // the recorder's pages per flash page (map units)
};

class PowerCutRecorder {
 public:
  PowerCutRecorder(const flash::Geometry& geometry, std::uint64_t logical_pages,
                   std::uint32_t pages_per_lpn, PairedPages paired = {});

  // Every command list the FTL produced, in order, before it is scheduled:
  // `ranges` of a host write (their pages get new versions), none otherwise.
  // `erased` holds the images of the blocks the list erases, in order.
  // Each command gets an id (consecutive, never reused) for completes(); the
  // list's first is returned.
  std::uint64_t apply(ftl::PageRuns ranges, const flash::CommandList& commands,
                      std::vector<flash::NandArray::BlockImage> erased,
                      Acknowledge acknowledge = Acknowledge::kWhenDone);
  // The id of command `index` of the list last applied.
  std::uint64_t batch_id(std::size_t index) const { return batch_start_ + index; }
  // A host trim, acknowledged when submitted: older data must not come back.
  void trimmed(const ftl::PageRange& range);
  // Command `id` completes at `end`. A command never given a time (a
  // preemptible cleaning round's, not yet reserved) counts as in flight.
  void completes(std::uint64_t id, TimeNs end);
  // The host write last applied is acknowledged at `done` (today: when its
  // last program completes). kBufferFlush: the write is a write-back
  // buffer's flush, which the host had acknowledged when the buffer took it;
  // at a cut before `done` its pages that did not reach flash count as
  // buffered_writes_lost (a power-protected buffer is modelled by the Ssd
  // holding the device up until every reserved command completed).
  void host_write_done(TimeNs done, WriteOrigin origin = WriteOrigin::kHost);
  // Forgets what had completed by `now` (it can no longer be undone).
  void settle(TimeNs now);
  // The cut: undoes on `nand` every command not completed by `at` and drops
  // the writes not acknowledged by then. `buffered`: the logical pages a
  // volatile write buffer held (acknowledged, never given to the FTL).
  void cut(TimeNs at, flash::NandArray& nand, PowerCutReport& report,
           std::vector<flash::Lpn> buffered = {});
  // After the mount: checks every logical page `ftl` maps against what was
  // acknowledged; counts into `report`. What the mount found is from now on
  // what the host has (a write in flight that made it to flash counts as
  // acknowledged by the mount).
  void check(const ftl::Ftl& ftl, PowerCutReport& report);

 private:
  static constexpr TimeNs kNotScheduled = std::numeric_limits<TimeNs>::max();
  struct Pending {  // a command not yet known to be complete
    flash::Command command;
    TimeNs end = kNotScheduled;
    // Erase: each block before it (two for a two-plane erase) and its pages'
    // versions before it.
    std::vector<flash::NandArray::BlockImage> images;
    std::vector<std::vector<std::uint32_t>> contents;
  };
  struct PendingWrite {
    TimeNs done = 0;
    bool from_buffer = false;
    std::vector<std::pair<flash::Lpn, std::uint32_t>> versions;
  };
  void apply_one(flash::Ppn ppn, flash::Lpn lpn, flash::Op op, flash::Ppn src, bool host_data);
  void undo(const Pending& pending, flash::NandArray& nand, PowerCutReport& report);
  // Tears the earlier pages of torn page `ppn`'s wordline (PairedPages).
  void tear_paired(flash::Ppn ppn, flash::NandArray& nand, PowerCutReport& report);
  void acknowledge(const PendingWrite& write);
  void check_page(flash::Lpn lpn, flash::Ppn ppn, PowerCutReport& report) const;

  flash::Geometry geometry_;
  std::uint32_t pages_per_lpn_;
  PairedPages paired_;
  ftl::VersionShadow shadow_;                // data versions, as the verifier follows them
  std::vector<std::uint32_t> acknowledged_;  // per logical page: latest acknowledged
  // Per logical page: versions below this are older than an acknowledged
  // trim and must not come back.
  std::vector<std::uint32_t> floor_;
  std::deque<Pending> pending_;    // functional order
  std::uint64_t popped_ = 0;       // id of pending_.front()
  std::uint64_t batch_start_ = 0;  // id of the list last applied's first
  // At the last cut: logical pages a volatile write buffer lost (held, or
  // flushed in flight with the version flushed; 0 if never flushed).
  std::vector<std::pair<flash::Lpn, std::uint32_t>> buffered_at_cut_;
  std::vector<PendingWrite> writes_;  // host writes not yet acknowledged
  PendingWrite current_;
};

}  // namespace ssdlab::sim
