#include "sim/controller/map_units.h"

#include <stdexcept>

namespace ssdlab::sim {

using flash::Command;
using flash::Op;

std::size_t MapUnitFlash::carrier(flash::Ppn unit, Op op) const {
  // A read rides on its page's read; a program (padding included) or move
  // on its page's program or move (a page cleaning filled starts with one).
  const auto reads = [](Op o) { return o == Op::kRead; };
  const flash::Ppn at = page(unit);
  for (std::size_t i = flash_.size(); i-- > 0;) {
    const Command& c = flash_[i];
    if (c.op != Op::kErase && reads(c.op) == reads(op) && (c.ppn == at || c.ppn2 == at)) return i;
  }
  throw std::logic_error("a map unit's command rides on no command of its flash page");
}

void MapUnitFlash::read_source(const Command& rider, std::size_t carrier) {
  const flash::Ppn src = page(rider.src);
  const Command& move = flash_[carrier];
  if (move.src == src || move.src2 == src) return;  // the move reads it
  // (A move's riders follow it: its other sources are the last ones noted.)
  for (auto s = sources_.rbegin(); s != sources_.rend() && s->second == carrier; ++s)
    if (s->first == src) return;
  Command extra = flash::page_command(Op::kRead, src, rider.lpn, rider.stage);
  extra.cleaning = rider.cleaning;
  extra.read_units = static_cast<std::uint16_t>(read_units_per_unit_);
  sources_.emplace_back(src, carrier);
  flash_.push_back(extra);
}

void MapUnitFlash::to_flash(flash::CommandList& commands, std::vector<std::uint32_t>* carriers) {
  flash_.clear();
  sources_.clear();
  if (carriers) carriers->clear();
  for (const Command& unit : commands) {
    if (!unit.rides) {
      if (carriers) carriers->push_back(static_cast<std::uint32_t>(flash_.size()));
      Command c = unit;
      c.ppn = page(c.ppn);
      c.ppn2 = page(c.ppn2);
      c.src = page(c.src);
      c.src2 = page(c.src2);
      if (c.op == Op::kRead && read_units_per_unit_)
        c.read_units = static_cast<std::uint16_t>(read_units_per_unit_ * (c.two_plane() ? 2 : 1));
      flash_.push_back(c);
      continue;
    }
    const std::size_t on = carrier(unit.ppn, unit.op);
    if (carriers) carriers->push_back(static_cast<std::uint32_t>(on));
    if (unit.op == Op::kRead && read_units_per_unit_)
      flash_[on].read_units =
          static_cast<std::uint16_t>(flash_[on].read_units + read_units_per_unit_);
    else if (unit.op == Op::kMove)
      read_source(unit, on);
  }
  commands.assign(flash_.begin(), flash_.end());  // (copied: each list keeps its storage)
}

}  // namespace ssdlab::sim
