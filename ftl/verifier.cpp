#include "ftl/verifier.h"

#include <fmt/format.h>

#include <algorithm>

namespace ssdlab::ftl {

using flash::Op;

Verifier::Verifier(const flash::Geometry& geometry, std::uint64_t logical_pages,
                   bool copy_back_allowed)
    : geometry_(geometry),
      copy_back_allowed_(copy_back_allowed),
      shadow_(geometry, logical_pages, /*version_metadata=*/true) {}

void Verifier::expect_latest(flash::Ppn ppn, flash::Lpn lpn, const char* what) {
  ++pages_checked_;
  if (lpn == flash::kNoLpn)
    throw VerificationError(fmt::format("{} of page {} names no logical page", what, ppn));
  const std::uint32_t latest = shadow_.version(lpn);
  if (latest == 0)
    throw VerificationError(
        fmt::format("{} of page {} for logical page {}, which holds no data", what, ppn, lpn));
  if (shadow_.content(ppn) != latest)
    throw VerificationError(fmt::format(
        "{} of page {} for logical page {} finds version {}, but the latest write is version {}",
        what, ppn, lpn, shadow_.content(ppn), latest));
}

void Verifier::apply_one(flash::Ppn ppn, flash::Lpn lpn, Op op, flash::Ppn src, bool host_data) {
  if (op == Op::kRead) {
    expect_latest(ppn, lpn, "read");
    read_lpns_.push_back(lpn);
    return;
  }
  if (op == Op::kCopyBack || op == Op::kMove)
    expect_latest(src, lpn, op == Op::kMove ? "move" : "copy-back");
  shadow_.apply(ppn, lpn, op, src, host_data);
  const bool stores_data = (op == Op::kProgram && lpn != flash::kNoLpn) || host_data;
  if (stores_data && shadow_.version(lpn) == 0)
    throw VerificationError(
        fmt::format("program of page {} for logical page {} that holds no data", ppn, lpn));
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

void Verifier::host_write(PageRuns runs, const CommandList& commands) {
  // In list order: reads (read-modify-write) and cleaning moves before a
  // logical page's first program see its old version; that program and all
  // after it the new one.
  shadow_.begin_write(runs);
  try {
    apply(commands);
  } catch (...) {
    shadow_.end_write();
    throw;
  }
  if (const auto missing = shadow_.end_write())
    throw VerificationError(
        fmt::format("host write of logical page {} programmed no flash page", *missing));
}

void Verifier::host_read(const PageRange& range, const CommandList& commands) {
  apply(commands);
  std::sort(read_lpns_.begin(), read_lpns_.end());
  for (flash::Lpn lpn = range.first; lpn < range.first + range.count; ++lpn) {
    const bool was_read = std::binary_search(read_lpns_.begin(), read_lpns_.end(), lpn);
    if (shadow_.version(lpn) != 0 && !was_read)
      throw VerificationError(
          fmt::format("host read of logical page {} (version {}) touched no flash page holding it",
                      lpn, shadow_.version(lpn)));
  }
}

void Verifier::host_trim(const PageRange& range, const CommandList& commands) {
  apply(commands);
  if (range.count == 0) return;
  const flash::Lpn first = range.first + (range.partial_first ? 1 : 0);
  const flash::Lpn end = range.first + range.count - (range.partial_last ? 1 : 0);
  for (flash::Lpn lpn = first; lpn < end; ++lpn) shadow_.forget(lpn);
}

void Verifier::adopt(const flash::NandArray& nand) {
  flash::Ppn bad = 0;
  if (!shadow_.adopt(nand, &bad))
    throw VerificationError(fmt::format("adopted valid page {} holds no logical page", bad));
}

void Verifier::background(const CommandList& commands) {
  apply(commands);
}

}  // namespace ssdlab::ftl
