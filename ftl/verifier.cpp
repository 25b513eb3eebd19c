#include "ftl/verifier.h"

#include <fmt/format.h>

#include <algorithm>

namespace ssdlab::ftl {

using flash::Op;

Verifier::Verifier(const flash::Geometry& geometry, std::uint64_t logical_pages,
                   bool copy_back_allowed)
    : geometry_(geometry),
      copy_back_allowed_(copy_back_allowed),
      version_(logical_pages, 0),
      content_(geometry.pages(), 0) {}

std::uint32_t& Verifier::version_of(flash::Lpn lpn) {
  return lpn < version_.size() ? version_[lpn] : metadata_version_[lpn];
}

void Verifier::expect_latest(flash::Ppn ppn, flash::Lpn lpn, const char* what) {
  ++pages_checked_;
  if (lpn == flash::kNoLpn)
    throw VerificationError(fmt::format("{} of page {} names no logical page", what, ppn));
  if (version_of(lpn) == 0)
    throw VerificationError(
        fmt::format("{} of page {} for logical page {}, which holds no data", what, ppn, lpn));
  if (content_[ppn] != version_of(lpn))
    throw VerificationError(fmt::format(
        "{} of page {} for logical page {} finds version {}, but the latest write is version {}",
        what, ppn, lpn, content_[ppn], version_of(lpn)));
}

void Verifier::apply_one(flash::Ppn ppn, flash::Lpn lpn, Op op, flash::Ppn src, bool host_data) {
  switch (op) {
    case Op::kRead:
      expect_latest(ppn, lpn, "read");
      read_lpns_.push_back(lpn);
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
        version_[lpn] = next_version_++;
      }
      // FTL metadata (DFTL's translation pages): every program is its latest version.
      if (lpn >= version_.size()) metadata_version_[lpn] = next_version_++;
      if (version_of(lpn) == 0)
        throw VerificationError(
            fmt::format("program of page {} for logical page {} that holds no data", ppn, lpn));
      content_[ppn] = version_of(lpn);
      break;
    case Op::kCopyBack:
    case Op::kMove:
      expect_latest(src, lpn, op == Op::kMove ? "move" : "copy-back");
      content_[ppn] = content_[src];
      // The old version merged with the host's new data: the new version.
      if (host_data) apply_one(ppn, lpn, Op::kProgram, flash::kNoPage, false);
      break;
    case Op::kErase: {
      const flash::Ppn first = geometry_.first_page(geometry_.block_of(ppn));
      std::fill_n(content_.begin() + first, geometry_.pages_per_block, 0);
      break;
    }
  }
}

void Verifier::apply(const CommandList& commands) {
  read_lpns_.clear();
  for (const flash::Command& command : commands) {
    const std::string illegal = flash::check_legal(geometry_, command, copy_back_allowed_);
    if (!illegal.empty()) throw VerificationError("illegal command: " + illegal);
    apply_one(command.ppn, command.lpn, command.op, command.src, command.host_data);
    if (command.two_plane())
      apply_one(command.ppn2, command.lpn2, command.op, command.src, command.host_data);
  }
}

void Verifier::host_write(const PageRange& range, const CommandList& commands) {
  // In list order: reads (read-modify-write) and cleaning moves before a
  // logical page's first program see its old version; that program and all
  // after it the new one.
  writing_ = &range;
  written_.assign(range.count, false);
  try {
    apply(commands);
  } catch (...) {
    writing_ = nullptr;
    throw;
  }
  writing_ = nullptr;
  for (std::uint32_t i = 0; i < range.count; ++i)
    if (!written_[i])
      throw VerificationError(
          fmt::format("host write of logical page {} programmed no flash page", range.first + i));
}

void Verifier::host_read(const PageRange& range, const CommandList& commands) {
  apply(commands);
  std::sort(read_lpns_.begin(), read_lpns_.end());
  for (flash::Lpn lpn = range.first; lpn < range.first + range.count; ++lpn) {
    const bool was_read = std::binary_search(read_lpns_.begin(), read_lpns_.end(), lpn);
    if (version_[lpn] != 0 && !was_read)
      throw VerificationError(
          fmt::format("host read of logical page {} (version {}) touched no flash page holding it",
                      lpn, version_[lpn]));
  }
}

void Verifier::host_trim(const PageRange& range, const CommandList& commands) {
  apply(commands);
  if (range.count == 0) return;
  const flash::Lpn first = range.first + (range.partial_first ? 1 : 0);
  const flash::Lpn end = range.first + range.count - (range.partial_last ? 1 : 0);
  for (flash::Lpn lpn = first; lpn < end; ++lpn) version_[lpn] = 0;
}

void Verifier::adopt(const flash::NandArray& nand) {
  std::fill(version_.begin(), version_.end(), 0);
  metadata_version_.clear();
  std::fill(content_.begin(), content_.end(), 0);
  for (flash::Ppn ppn = 0; ppn < content_.size(); ++ppn) {
    if (!nand.is_valid(ppn)) continue;
    const flash::Lpn lpn = nand.lpn_at(ppn);
    if (lpn == flash::kNoLpn)
      throw VerificationError(fmt::format("adopted valid page {} holds no logical page", ppn));
    version_of(lpn) = 1;
    content_[ppn] = 1;
  }
  next_version_ = 2;
}

void Verifier::background(const CommandList& commands) {
  apply(commands);
}

}  // namespace ssdlab::ftl
