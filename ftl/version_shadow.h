// Which version of its logical page each physical page holds, followed from
// the command stream alone: the model the verifier (every read must find the
// latest version, ftl/verifier.h) and the power-cut recorder (what a cut
// leaves on flash, sim/controller/power_cut.h) share.
//
// Every host write gives each of its logical pages a new version at the
// page's first program (or copy-back merging the host's data); a program
// stores the logical page's current version, a copy-back or move carries the
// source page's, an erase clears the block, a padding program (no logical
// page) stores nothing. Logical pages beyond the host's (an FTL's own
// metadata, such as DFTL's translation pages) are versioned on each of
// their programs, if the owner asks for it. Memory: 4 bytes per physical and
// per logical page.
#pragma once

#include <cstdint>
#include <optional>
#include <unordered_map>
#include <vector>

#include "flash/command.h"
#include "flash/geometry.h"
#include "ftl/ftl.h"

namespace ssdlab::ftl {

class VersionShadow {
 public:
  // `version_metadata`: each program of a page beyond the host's logical
  // pages is its new latest version (the verifier checks reads of them);
  // otherwise such pages hold nothing the shadow tracks.
  VersionShadow(const flash::Geometry& geometry, std::uint64_t logical_pages,
                bool version_metadata);

  // The host write of `runs` (one range, or a write of several runs, each
  // page once, in any order) whose commands are applied next, or none.
  void begin_write(PageRuns runs);
  // After its commands: the first page of the write that got no new version
  // (no program carried it), or nullopt if every page did.
  std::optional<flash::Lpn> end_write();

  // Applies one page of a command (reads change nothing). Returns the new
  // version a host page of the current write got from it, or 0.
  std::uint32_t apply(flash::Ppn ppn, flash::Lpn lpn, flash::Op op, flash::Ppn src,
                      bool host_data);

  // The latest version of `lpn` (0: never written, or trimmed).
  std::uint32_t version(flash::Lpn lpn) const;
  void forget(flash::Lpn lpn) { versions_[lpn] = 0; }  // a trim
  // The version `ppn` holds (0: erased, or nothing tracked).
  std::uint32_t content(flash::Ppn ppn) const { return content_[ppn]; }
  void set_content(flash::Ppn ppn, std::uint32_t version) { content_[ppn] = version; }
  std::uint64_t logical_pages() const { return versions_.size(); }
  std::uint64_t physical_pages() const { return content_.size(); }
  std::uint32_t next_version() const { return next_version_; }

  // Takes every valid page of `nand` as holding the latest version of its
  // logical page (a loaded checkpoint); everything else holds nothing.
  // Returns false, with *bad set, if a valid page names no logical page.
  bool adopt(const flash::NandArray& nand, flash::Ppn* bad);

 private:
  std::uint32_t& version_of(flash::Lpn lpn);

  flash::Geometry geometry_;
  bool version_metadata_;
  std::vector<std::uint32_t> versions_;  // per host logical page
  std::unordered_map<flash::Lpn, std::uint32_t> metadata_versions_;  // beyond the host's pages
  std::vector<std::uint32_t> content_;  // per physical page
  std::uint32_t next_version_ = 1;
  // Where `lpn` is among the pages of the write being applied (the index in
  // written_), or -1 if it is not one of them.
  std::int64_t writing_index(flash::Lpn lpn) const;

  PageRuns writing_;               // the host write being applied, if any (sorted)
  std::vector<PageRange> sorted_;  // its runs sorted, when they came in another order
  std::vector<bool> written_;  // its pages that got their new version, run after run
  std::vector<std::uint64_t> run_start_;  // each run's first index in written_
};

}  // namespace ssdlab::ftl
