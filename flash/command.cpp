#include "flash/command.h"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>
#include <unordered_map>

namespace ssdlab::flash {

const char* op_name(Op op) {
  switch (op) {
    case Op::kRead:
      return "READ";
    case Op::kProgram:
      return "PROGRAM";
    case Op::kErase:
      return "ERASE";
    case Op::kCopyBack:
      return "COPYBACK";
    case Op::kMove:
      return "MOVE";
  }
  return "?";
}

std::string check_legal(const Geometry& g, const Command& c, bool copy_back_allowed) {
  const std::uint64_t pages = g.pages();
  if (c.ppn >= pages) return fmt::format("{} of page {} beyond the device", op_name(c.op), c.ppn);
  if (c.two_plane()) {
    if (c.op == Op::kCopyBack || c.op == Op::kMove)
      return fmt::format("{} has no two-plane form", op_name(c.op));
    if (c.ppn2 >= pages) return fmt::format("two-plane page {} beyond the device", c.ppn2);
    if (!g.is_two_plane_pair(g.plane_of(c.ppn), g.plane_of(c.ppn2)))
      return fmt::format("two-plane {} on planes {} and {}, not an allowed pair of one die",
                         op_name(c.op), g.plane_of(c.ppn), g.plane_of(c.ppn2));
    if (g.page_in_block(c.ppn) != g.page_in_block(c.ppn2))
      return fmt::format("two-plane {} at different page offsets {} and {}", op_name(c.op),
                         g.page_in_block(c.ppn), g.page_in_block(c.ppn2));
  }
  if (c.host_data && c.op != Op::kCopyBack)
    return fmt::format("{} with host data: only a COPYBACK merges host data", op_name(c.op));
  switch (c.op) {
    case Op::kErase:
      if (g.page_in_block(c.ppn) != 0 || (c.two_plane() && g.page_in_block(c.ppn2) != 0))
        return fmt::format("ERASE of page {} not on a block boundary", c.ppn);
      break;
    case Op::kCopyBack:
      if (!copy_back_allowed) return "COPYBACK used while copy-back is disabled";
      if (c.src >= pages) return fmt::format("COPYBACK source {} beyond the device", c.src);
      if (g.plane_of(c.src) != g.plane_of(c.ppn))
        return fmt::format("COPYBACK from plane {} to plane {}: copy-back stays inside one plane",
                           g.plane_of(c.src), g.plane_of(c.ppn));
      break;
    case Op::kMove:
      if (c.src >= pages) return fmt::format("MOVE source {} beyond the device", c.src);
      break;
    case Op::kRead:
    case Op::kProgram:
      break;
  }
  return {};
}

void stage_reprograms_after_erases(CommandList& list, std::uint32_t pages_per_block) {
  // Per block: the stage of its latest erase so far, and the latest stage a
  // moved command reads it in. By block, not searched: a foreground
  // cleaning's list erases thousands of victims among millions of moves.
  std::unordered_map<std::uint32_t, unsigned> erased, read_late;
  const auto set_stage = [&list](std::size_t j, unsigned stage) {
    if (stage > 255u)
      throw std::logic_error("a cleaning list reprograms its erased blocks past stage 255");
    list[j].stage = static_cast<std::uint8_t>(stage);
  };
  for (std::size_t j = 0; j < list.size(); ++j) {
    const Command c = list[j];
    if (!c.cleaning || c.op == Op::kRead) continue;
    unsigned stage = c.stage;
    if (c.op == Op::kErase) {
      // After every move out of it, which a program below may have delayed.
      for (const Ppn page : {c.ppn, c.ppn2})
        if (page != kNoPage)
          if (const auto r = read_late.find(page / pages_per_block); r != read_late.end())
            stage = std::max(stage, r->second + 1);
      set_stage(j, stage);
      for (const Ppn page : {c.ppn, c.ppn2})
        if (page != kNoPage) erased[page / pages_per_block] = stage;
      continue;
    }
    if (erased.empty()) continue;
    for (const Ppn page : {c.ppn, c.ppn2})
      if (page != kNoPage)
        if (const auto e = erased.find(page / pages_per_block); e != erased.end())
          stage = std::max(stage, e->second + 1);
    if (stage == c.stage) continue;
    set_stage(j, stage);
    for (const Ppn src : {c.src, c.src2}) {
      if (src == kNoPage) continue;
      unsigned& late = read_late.try_emplace(src / pages_per_block, stage).first->second;
      late = std::max(late, stage);
    }
  }
}

}  // namespace ssdlab::flash
