// --trace-ftl N: the FTL's decisions for the first N host I/Os, one readable
// line each (allocate, invalidate, read, pick victim, move, erase), for
// students stepping through an FTL.
//
// The decisions are derived from the command lists the FTL emits, so any FTL
// is traced without hooks of its own: a program of logical page L allocates
// its page, and invalidates the page that held L before (known from a shadow
// map that follows every command, preconditioning included); a cleaning erase
// names its victim, whose valid pages are the moves out of that block.
// FTLs that explain their victims (page-mapped, DFTL: Ftl::explain_victims)
// add the candidates each was chosen from, while the log is written.
#pragma once

#include <cstdint>
#include <map>
#include <ostream>
#include <string>
#include <vector>

#include "flash/geometry.h"
#include "sim/controller/ssd_observer.h"

namespace ssdlab::sim {

class FtlTrace final : public SsdObserver {
 public:
  // Writes to `out` (which must outlive the trace). `file`, if not empty,
  // is the file `out` writes to: a failed write of it (a full disk) throws
  // ssdlab::OutputError naming it, as does flush(); with SSDLAB_TEST_FAIL_WRITE
  // naming it, every write fails (sim/results/output.h).
  FtlTrace(std::ostream& out, const flash::Geometry& geometry, std::uint64_t logical_pages,
           std::uint64_t ios, std::string file = {});

  void commands(CommandSource source, ftl::PageRuns ranges,
                const flash::CommandList& commands) override;
  void request_done(const HostIo& request, TimeNs submitted, TimeNs done) override;

  std::uint64_t lines() const { return lines_; }
  // Where the FTL puts its victims' candidates (Ssd::explain_victims); no
  // longer wanted once the first N host I/Os are logged.
  ftl::VictimExplanations* explanations() { return &explanations_; }
  // Flushes the log; throws OutputError if any write of the file failed.
  void flush();

 private:
  bool logging() const { return requests_ < ios_; }
  std::string where(flash::Ppn ppn) const;  // page 123 [ch0 die1 plane2 block 3 page 4]
  void line(const std::string& text);
  void check_written();  // throws OutputError once a write of file_ failed
  // Follows (and, when logging, prints) one command.
  void follow(const flash::Command& command, flash::Ppn ppn, flash::Lpn lpn, bool print);
  // "pick victim" for the block of `page` (once per command list), with its
  // candidates if the FTL explained the choice.
  void announce_victim(flash::Ppn page);

  std::ostream& out_;
  std::string file_;  // the file out_ writes to, or empty
  bool fail_for_test_ = false;
  flash::Geometry geometry_;
  std::uint64_t ios_;
  std::uint64_t requests_ = 0;
  std::uint64_t lines_ = 0;
  std::vector<flash::Ppn> location_;  // logical page -> physical page, from the commands
  std::vector<flash::BlockId> victims_announced_;         // scratch, per command list
  std::map<flash::BlockId, std::uint32_t> victim_moves_;  // scratch: moves out of each block
  ftl::VictimExplanations explanations_;                  // of the command list being followed
};

}  // namespace ssdlab::sim
