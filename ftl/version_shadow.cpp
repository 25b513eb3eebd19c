#include "ftl/version_shadow.h"

#include <algorithm>

namespace ssdlab::ftl {

using flash::Op;

VersionShadow::VersionShadow(const flash::Geometry& geometry, std::uint64_t logical_pages,
                             bool version_metadata)
    : geometry_(geometry),
      version_metadata_(version_metadata),
      versions_(logical_pages, 0),
      content_(geometry.pages(), 0) {}

void VersionShadow::begin_write(PageRuns runs) {
  // (A write buffer's flush with placement handles sends its runs group
  // by group, each group sorted: writing_index() looks them up by address.)
  const auto by_first = [](const PageRange& a, const PageRange& b) { return a.first < b.first; };
  writing_ = runs;
  if (!std::is_sorted(runs.begin(), runs.end(), by_first)) {
    sorted_.assign(runs.begin(), runs.end());
    std::sort(sorted_.begin(), sorted_.end(), by_first);
    writing_ = sorted_;
  }
  run_start_.clear();
  std::uint64_t pages = 0;
  for (const PageRange& run : writing_) {
    run_start_.push_back(pages);
    pages += run.count;
  }
  written_.assign(pages, false);
}

std::int64_t VersionShadow::writing_index(flash::Lpn lpn) const {
  // The run that would hold `lpn`: the last starting at or before it.
  const auto after = std::upper_bound(writing_.begin(), writing_.end(), lpn,
                                      [](flash::Lpn l, const PageRange& run) { return l < run.first; });
  if (after == writing_.begin()) return -1;
  const PageRange& run = *(after - 1);
  if (lpn >= run.first + run.count) return -1;
  return static_cast<std::int64_t>(run_start_[after - 1 - writing_.begin()] + (lpn - run.first));
}

std::optional<flash::Lpn> VersionShadow::end_write() {
  std::optional<flash::Lpn> missing;
  for (std::size_t r = 0; r < writing_.size() && !missing; ++r)
    for (std::uint32_t i = 0; i < writing_[r].count; ++i)
      if (!written_[run_start_[r] + i]) {
        missing = writing_[r].first + i;
        break;
      }
  writing_ = {};
  return missing;
}

std::uint32_t VersionShadow::version(flash::Lpn lpn) const {
  if (lpn < versions_.size()) return versions_[lpn];
  const auto it = metadata_versions_.find(lpn);
  return it == metadata_versions_.end() ? 0 : it->second;
}

std::uint32_t& VersionShadow::version_of(flash::Lpn lpn) {
  return lpn < versions_.size() ? versions_[lpn] : metadata_versions_[lpn];
}

std::uint32_t VersionShadow::apply(flash::Ppn ppn, flash::Lpn lpn, Op op, flash::Ppn src,
                                   bool host_data) {
  std::uint32_t fresh = 0;
  switch (op) {
    case Op::kRead:
      break;
    case Op::kProgram:
      if (lpn == flash::kNoLpn) {  // padding: the page holds no logical data
        content_[ppn] = 0;
        break;
      }
      if (const std::int64_t at = writing_.empty() ? -1 : writing_index(lpn);
          at >= 0 && !written_[at]) {
        // The host's new data: a new version from its first program on.
        written_[at] = true;
        fresh = versions_[lpn] = next_version_++;
      }
      if (lpn >= versions_.size()) {
        if (!version_metadata_) {
          content_[ppn] = 0;
          break;
        }
        metadata_versions_[lpn] = next_version_++;
      }
      content_[ppn] = version(lpn);
      break;
    case Op::kCopyBack:
    case Op::kMove:
      content_[ppn] = content_[src];
      // The old version merged with the host's new data (a synchronous
      // gang's copy-back, flash/command.h): the new version.
      if (host_data) fresh = apply(ppn, lpn, Op::kProgram, flash::kNoPage, false);
      break;
    case Op::kErase:
      std::fill_n(content_.begin() + geometry_.first_page(geometry_.block_of(ppn)),
                  geometry_.pages_per_block, 0);
      break;
  }
  return fresh;
}

bool VersionShadow::adopt(const flash::NandArray& nand, flash::Ppn* bad) {
  std::fill(versions_.begin(), versions_.end(), 0);
  metadata_versions_.clear();
  std::fill(content_.begin(), content_.end(), 0);
  for (flash::Ppn ppn = 0; ppn < content_.size(); ++ppn) {
    if (!nand.is_valid(ppn)) continue;
    const flash::Lpn lpn = nand.lpn_at(ppn);
    if (lpn == flash::kNoLpn) {
      *bad = ppn;
      return false;
    }
    version_of(lpn) = 1;
    content_[ppn] = 1;
  }
  next_version_ = 2;
  return true;
}

}  // namespace ssdlab::ftl
