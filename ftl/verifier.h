// Verification mode: checks, from the command stream alone, that every read
// returns the latest write.
//
// The verifier knows nothing of an FTL's internals. It follows the command
// stream in a version shadow (ftl/version_shadow.h, shared with the
// power-cut recorder: a version per logical page, bumped on each host write,
// and the version each physical page holds), and every read (host,
// read-modify-write or cleaning), copy-back or move must find the latest
// version of the logical page it names. A host read must read every written page of its
// range, and must not touch flash for a never-written one. The first violation
// throws VerificationError. Memory: 4 bytes per physical and per logical page.
//
// Logical pages beyond the host's (an FTL's own metadata in flash pages, such
// as DFTL's translation pages) are checked the same way, except that each
// program of one is its new latest version (no host write announces it).
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "flash/command.h"
#include "flash/geometry.h"
#include "ftl/ftl.h"
#include "ftl/version_shadow.h"

namespace ssdlab::ftl {

class VerificationError : public std::logic_error {
 public:
  using std::logic_error::logic_error;
};

class Verifier {
 public:
  Verifier(const flash::Geometry& geometry, std::uint64_t logical_pages, bool copy_back_allowed);

  // Call with the commands an FTL appended for each request, in order.
  void host_write(const PageRange& range, const CommandList& commands) {
    host_write(PageRuns{&range, 1}, commands);
  }
  // A write of several runs in one command list (Ftl::write_runs()).
  void host_write(PageRuns runs, const CommandList& commands);
  void host_read(const PageRange& range, const CommandList& commands);
  void host_trim(const PageRange& range, const CommandList& commands);
  void background(const CommandList& commands);  // cleaning, wear leveling

  std::uint64_t pages_checked() const { return pages_checked_; }

  // Takes the data `nand` holds as written (a state loaded from a checkpoint,
  // whose earlier writes this verifier never saw): every valid page holds the
  // latest version of the logical page in its OOB area, every other page
  // holds nothing readable. Call before the first command.
  void adopt(const flash::NandArray& nand);

 private:
  void apply(const CommandList& commands);
  // `host_data`: a copy-back that merges the host's new data (Command).
  void apply_one(flash::Ppn ppn, flash::Lpn lpn, flash::Op op, flash::Ppn src, bool host_data);
  void expect_latest(flash::Ppn ppn, flash::Lpn lpn, const char* what);

  flash::Geometry geometry_;
  bool copy_back_allowed_;
  VersionShadow shadow_;
  std::vector<flash::Lpn> read_lpns_;  // scratch
  std::uint64_t pages_checked_ = 0;
};

}  // namespace ssdlab::ftl
