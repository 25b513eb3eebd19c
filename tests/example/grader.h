// The assignment's grader (docs/assignment.md, "How it is graded"): checks
// of a cleaning FTL that a student does not write or edit. It drives an FTL
// through a full device and then uniform random one-page overwrites, every
// write through the verifier, and checks each write's commands:
//   - every cleaning victim is the emptiest candidate: it held no more valid
//     pages than any block of its plane that was sealed before the write:
//     full, and not one of the two blocks of its plane programmed last (an
//     FTL may keep a full block active, for host or for cleaning writes,
//     until it needs the next page);
//   - a victim's erase runs after the moves of its valid pages (a higher
//     stage);
//   - write amplification within `wa_bound` x that of the page-mapped FTL
//     (the reference) on the same writes.
// Findings are sentences for a student: what was seen, where, and which step
// of the assignment it concerns. tests/example/assignment_test.cpp grades
// the example FTL; tests/ftl/grader_test.cpp checks the grader itself on the
// page-mapped FTL's policies.
#pragma once

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "common/error.h"
#include "common/rng.h"
#include "ftl/ftl.h"
#include "ftl/verifier.h"

namespace ssdlab::testing {

struct Grade {
  double write_amplification = 0;
  std::uint64_t victims = 0;          // blocks cleaned in the graded writes
  std::uint64_t writes = 0;           // host writes done (fill included)
  std::vector<std::string> findings;  // empty: passed
  std::string failure;                // the FTL or the verifier stopped the run
};

namespace grading {

inline std::string plural(std::uint64_t n, const char* one) {
  return fmt::format("{} {}{}", n, one, n == 1 ? "" : "s");
}

// Checks one write's commands against the blocks' state before it.
inline void check_write(const ftl::Ftl& ftl, const flash::CommandList& out,
                        const std::vector<std::uint32_t>& valid_before,
                        const std::vector<bool>& sealed_before, std::uint64_t write,
                        Grade& grade) {
  const auto& g = ftl.nand().geometry();
  std::vector<std::pair<flash::BlockId, int>> moved;  // (source block, highest stage)
  std::vector<std::pair<flash::BlockId, std::uint32_t>> moves_from;  // (block, pages)
  const auto add_move = [&](flash::Ppn src, int stage) {
    if (src == flash::kNoPage) return;
    const flash::BlockId block = g.block_of(src);
    auto it = std::find_if(moves_from.begin(), moves_from.end(),
                           [&](auto& m) { return m.first == block; });
    if (it == moves_from.end()) {
      moves_from.emplace_back(block, 1);
      moved.emplace_back(block, stage);
    } else {
      ++it->second;
      auto& highest = std::find_if(moved.begin(), moved.end(),
                                   [&](auto& m) { return m.first == block; })->second;
      highest = std::max(highest, stage);
    }
  };
  for (const auto& c : out)
    if (c.op == flash::Op::kCopyBack || c.op == flash::Op::kMove) {
      add_move(c.src, c.stage);
      add_move(c.src2, c.stage);
    }
  // Blocks cleaned by this write: none of them is a candidate for another
  // victim of the same write (cleaning until a mark takes the emptiest first).
  std::vector<bool> erased(g.blocks());
  for (const auto& c : out)
    if (c.op == flash::Op::kErase)
      for (const flash::Ppn first : {c.ppn, c.ppn2})
        if (first != flash::kNoPage) erased[g.block_of(first)] = true;
  for (const auto& c : out) {
    if (c.op != flash::Op::kErase) continue;
    for (const flash::Ppn first : {c.ppn, c.ppn2}) {
      if (first == flash::kNoPage) continue;
      const flash::BlockId victim = g.block_of(first);
      ++grade.victims;
      std::uint32_t valid = 0;
      for (const auto& [block, pages] : moves_from)
        if (block == victim) valid = pages;
      for (const auto& [block, stage] : moved)
        if (block == victim && c.stage <= stage && grade.findings.size() < 5)
          grade.findings.push_back(fmt::format(
              "write {}: the erase of block {} has stage {}, but a move of one of its valid "
              "pages has stage {}: the erase would run before or alongside the moves and "
              "destroy the pages still being copied; give the erase a higher stage than every "
              "move of its block (docs/assignment.md, step 5: stage 1 after moves of stage 0)",
              write, victim, c.stage, stage));
      // The emptiest sealed block of the victim's plane before the write.
      const flash::BlockId first_of_plane = victim / g.blocks_per_plane * g.blocks_per_plane;
      std::uint32_t fewest = std::numeric_limits<std::uint32_t>::max();
      flash::BlockId emptiest = 0;
      for (flash::BlockId b = first_of_plane; b < first_of_plane + g.blocks_per_plane; ++b)
        if (!erased[b] && sealed_before[b] && valid_before[b] < fewest)
          fewest = valid_before[b], emptiest = b;
      if (valid > fewest && grade.findings.size() < 5)
        grade.findings.push_back(fmt::format(
            "write {}: your FTL cleaned block {}, which held {}, while block {} of the same "
            "plane, sealed before this write, held only {}: greedy cleaning picks the sealed "
            "block with the fewest valid pages (docs/assignment.md, step 3; nand_.valid_pages)",
            write, victim, plural(valid, "valid page"), emptiest, plural(fewest, "valid page")));
    }
  }
}

}  // namespace grading

// Fills `ftl`'s logical pages once, in order, then `overwrites` uniformly
// random one-page writes (seeded by `seed`); grades the overwrites.
inline Grade grade_cleaning(ftl::Ftl& ftl, std::uint64_t overwrites, std::uint64_t seed) {
  Grade grade;
  const auto& g = ftl.nand().geometry();
  ftl::Verifier verifier(g, ftl.logical_pages(), ftl.config().copy_back);
  flash::CommandList out;
  std::vector<std::uint32_t> valid(g.blocks());
  std::vector<bool> sealed(g.blocks());
  std::vector<std::uint64_t> programmed(g.blocks());  // sequence of its last program, 0: none
  std::uint64_t programs = 0;
  Rng rng(seed);
  const std::uint64_t fill = ftl.logical_pages();
  std::uint64_t host_pages_graded = 0, flash_pages_before = 0;
  for (std::uint64_t i = 0; i < fill + overwrites; ++i) {
    const bool graded = i >= fill;
    if (i == fill) flash_pages_before = ftl.stats().flash_pages_written;
    if (graded)
      for (std::uint32_t plane = 0; plane < g.planes(); ++plane) {
        const flash::BlockId first = plane * g.blocks_per_plane;
        std::uint64_t last = 0, second = 0;  // the plane's two latest programs
        for (flash::BlockId b = first; b < first + g.blocks_per_plane; ++b)
          if (programmed[b] > last) second = last, last = programmed[b];
          else if (programmed[b] > second) second = programmed[b];
        for (flash::BlockId b = first; b < first + g.blocks_per_plane; ++b) {
          sealed[b] = ftl.nand().is_full(b) && programmed[b] < second;
          valid[b] = ftl.nand().valid_pages(b);
        }
      }
    const ftl::Lpn lpn = graded ? rng.uniform(ftl.logical_pages()) : i;
    out.clear();
    try {
      ftl.write({lpn, 1, false, false}, out);
    } catch (const Error& error) {
      grade.failure = fmt::format("your FTL failed at write {} (logical page {}): {}", i + 1, lpn,
                                  error.what());
      return grade;
    } catch (const std::exception& error) {
      grade.failure = fmt::format("your FTL failed at write {} (logical page {}): {}", i + 1, lpn,
                                  error.what());
      return grade;
    }
    try {
      verifier.host_write({lpn, 1, false, false}, out);
    } catch (const std::exception& error) {
      grade.failure = fmt::format(
          "write {} (logical page {}): the verifier found a page read or moved from the wrong "
          "place: {}. The usual cause: after moving a valid page, map_ still points at its "
          "old page, or the old page was not invalidated (docs/assignment.md, step 4)",
          i + 1, lpn, error.what());
      return grade;
    }
    ++grade.writes;
    for (const auto& c : out)
      if (c.op == flash::Op::kProgram || c.op == flash::Op::kCopyBack || c.op == flash::Op::kMove)
        for (const flash::Ppn ppn : {c.ppn, c.ppn2})
          if (ppn != flash::kNoPage) programmed[g.block_of(ppn)] = ++programs;
    if (graded) {
      ++host_pages_graded;
      grading::check_write(ftl, out, valid, sealed, i + 1, grade);
    }
  }
  try {
    ftl.check_invariants();
  } catch (const std::exception& error) {
    grade.failure = fmt::format("after the writes, check_invariants() failed: {}", error.what());
    return grade;
  }
  grade.write_amplification =
      static_cast<double>(ftl.stats().flash_pages_written - flash_pages_before) /
      static_cast<double>(std::max<std::uint64_t>(1, host_pages_graded));
  return grade;
}

}  // namespace ssdlab::testing
