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

void VersionShadow::begin_write(const PageRange* range) {
  writing_ = range;
  if (range) written_.assign(range->count, false);
}

std::optional<flash::Lpn> VersionShadow::end_write() {
  std::optional<flash::Lpn> missing;
  if (writing_) {
    const auto it = std::find(written_.begin(), written_.end(), false);
    if (it != written_.end()) missing = writing_->first + (it - written_.begin());
  }
  writing_ = nullptr;
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
      if (writing_ && lpn >= writing_->first && lpn < writing_->first + writing_->count &&
          !written_[lpn - writing_->first]) {
        // The host's new data: a new version from its first program on.
        written_[lpn - writing_->first] = true;
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
