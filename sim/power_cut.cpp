#include "sim/power_cut.h"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

namespace ssdlab::sim {

using flash::Op;
using flash::Ppn;

ScanCost scan_cost(const flash::NandArray& nand, const flash::Timing& timing) {
  const flash::Geometry& g = nand.geometry();
  std::vector<std::uint64_t> die_pages(g.dies(), 0);
  ScanCost cost;
  for (flash::BlockId block = 0; block < g.blocks(); ++block) {
    const std::uint32_t written = nand.write_pointer(block);
    const std::uint64_t pages = written + (written < g.pages_per_block ? 1 : 0);
    die_pages[g.die_of_plane(g.plane_of_block(block))] += pages;
    cost.pages_read += pages;
  }
  const TimeNs oob_ns = timing.transfer_ns(g.oob_size);
  for (std::uint32_t channel = 0; channel < g.channels; ++channel) {
    TimeNs busiest_die = 0;
    std::uint64_t channel_pages = 0;
    for (std::uint32_t die = 0; die < g.dies(); ++die) {
      if (g.channel_of_die(die) != channel) continue;
      channel_pages += die_pages[die];
      busiest_die = std::max(
          busiest_die, static_cast<TimeNs>(die_pages[die]) * (timing.command_ns + timing.read_ns));
    }
    if (channel_pages == 0) continue;
    const TimeNs bus = static_cast<TimeNs>(channel_pages) * oob_ns;
    cost.scan_ns = std::max(cost.scan_ns, std::max(busiest_die, bus) + oob_ns);
  }
  return cost;
}

PowerCutRecorder::PowerCutRecorder(const flash::Geometry& geometry, std::uint64_t logical_pages,
                                   std::uint32_t pages_per_lpn)
    : geometry_(geometry),
      pages_per_lpn_(pages_per_lpn),
      content_(geometry.pages(), 0),
      version_(logical_pages, 0),
      acknowledged_(logical_pages, 0),
      floor_(logical_pages, 0) {}

void PowerCutRecorder::apply_one(Ppn ppn, flash::Lpn lpn, Op op, Ppn src) {
  switch (op) {
    case Op::kRead:
      break;
    case Op::kProgram:
      if (lpn == flash::kNoLpn) {  // padding
        content_[ppn] = 0;
        break;
      }
      if (writing_ && lpn >= writing_->first && lpn < writing_->first + writing_->count &&
          !written_[lpn - writing_->first]) {
        written_[lpn - writing_->first] = true;
        version_[lpn] = next_version_++;
        current_.versions.emplace_back(lpn, version_[lpn]);
      }
      content_[ppn] = version_[lpn];
      break;
    case Op::kCopyBack:
    case Op::kMove:
      content_[ppn] = content_[src];
      break;
    case Op::kErase:
      std::fill_n(content_.begin() + geometry_.first_page(geometry_.block_of(ppn)),
                  geometry_.pages_per_block, 0);
      break;
  }
}

void PowerCutRecorder::apply(const ftl::PageRange* range, const flash::CommandList& commands,
                             std::vector<flash::NandArray::BlockImage> erased, bool functional) {
  writing_ = range;
  if (range) {
    current_ = PendingWrite{};
    written_.assign(range->count, false);
  }
  batch_start_ = pending_.size();
  std::size_t next_image = 0;
  for (const flash::Command& command : commands) {
    Pending pending{command, 0, {}, {}};
    if (command.op == Op::kErase) {
      const flash::BlockId block = geometry_.block_of(command.ppn);
      if (next_image >= erased.size() || erased[next_image].block != block)
        throw std::logic_error(
            fmt::format("power cut: the erase of block {} left no image on the NAND array", block));
      pending.image = std::move(erased[next_image++]);
      const auto first = content_.begin() + geometry_.first_page(block);
      pending.content.assign(first, first + geometry_.pages_per_block);
    }
    apply_one(command.ppn, command.lpn, command.op, command.src);
    if (command.two_plane()) apply_one(command.ppn2, command.lpn2, command.op, command.src);
    if (!functional) pending_.push_back(std::move(pending));
  }
  writing_ = nullptr;
  if (functional && range) acknowledge(current_);
}

void PowerCutRecorder::trimmed(const ftl::PageRange& range) {
  if (range.count == 0) return;
  const flash::Lpn first = range.first + (range.partial_first ? 1 : 0);
  const flash::Lpn end = range.first + range.count - (range.partial_last ? 1 : 0);
  for (flash::Lpn lpn = first; lpn < end; ++lpn) {
    acknowledged_[lpn] = 0;
    floor_[lpn] = next_version_;
  }
}

void PowerCutRecorder::completes(std::size_t index, TimeNs end) {
  pending_.at(batch_start_ + index).end = end;
}

void PowerCutRecorder::host_write_done(TimeNs done) {
  current_.done = done;
  writes_.push_back(std::move(current_));
  current_ = PendingWrite{};
}

void PowerCutRecorder::acknowledge(const PendingWrite& write) {
  for (const auto& [lpn, version] : write.versions)
    acknowledged_[lpn] = std::max(acknowledged_[lpn], version);
}

void PowerCutRecorder::settle(TimeNs now) {
  while (!pending_.empty() && pending_.front().end <= now) pending_.pop_front();
  batch_start_ = pending_.size();
  std::erase_if(writes_, [&](const PendingWrite& write) {
    if (write.done > now) return false;
    acknowledge(write);
    return true;
  });
}

void PowerCutRecorder::undo(const Pending& pending, flash::NandArray& nand,
                            PowerCutReport& report) {
  const flash::Command& command = pending.command;
  switch (command.op) {
    case Op::kRead:
      return;
    case Op::kErase: {
      nand.restore(pending.image);
      std::copy(pending.content.begin(), pending.content.end(),
                content_.begin() + geometry_.first_page(pending.image.block));
      ++report.erases_undone;
      return;
    }
    case Op::kProgram:
    case Op::kCopyBack:
    case Op::kMove:
      for (const Ppn ppn : {command.ppn, command.ppn2}) {
        if (ppn == flash::kNoPage) continue;
        nand.tear(ppn);
        content_[ppn] = 0;
        ++report.torn_pages;
      }
      return;
  }
}

void PowerCutRecorder::cut(TimeNs at, flash::NandArray& nand, PowerCutReport& report) {
  settle(at);
  for (auto it = pending_.rbegin(); it != pending_.rend(); ++it)
    if (it->end > at) undo(*it, nand, report);
  pending_.clear();
  batch_start_ = 0;
  report.writes_in_flight = writes_.size();
  writes_.clear();
}

void PowerCutRecorder::check_page(flash::Lpn lpn, Ppn ppn, PowerCutReport& report) const {
  const std::uint32_t acknowledged = acknowledged_[lpn];
  auto problem = [&](std::uint64_t& counter, const std::string& what) {
    ++counter;
    if (report.first_problem.empty()) report.first_problem = what;
  };
  if (ppn == flash::kNoPage) {
    if (acknowledged != 0)
      problem(report.lost_writes,
              fmt::format("logical page {} (acknowledged version {}) is not mapped after the mount",
                          lpn, acknowledged));
    return;
  }
  const std::uint32_t found = content_[ppn];
  for (std::uint32_t i = 1; i < pages_per_lpn_; ++i)
    if (content_[ppn + i] != found)
      return problem(report.lost_writes,
                     fmt::format("logical page {} reads back a mix of versions", lpn));
  if (found == 0 || found > version_[lpn])
    return problem(report.lost_writes,
                   fmt::format("logical page {} reads back garbage (page {})", lpn, ppn));
  if (found < acknowledged)
    return problem(report.lost_writes,
                   fmt::format("logical page {} reads back version {}, but version {} was "
                               "acknowledged",
                               lpn, found, acknowledged));
  if (found < floor_[lpn])
    problem(report.resurrected_pages,
            fmt::format("logical page {} reads back version {}, trimmed after it", lpn, found));
}

void PowerCutRecorder::check(const ftl::Ftl& ftl, PowerCutReport& report) {
  for (flash::Lpn lpn = 0; lpn < acknowledged_.size(); ++lpn) {
    const Ppn ppn = ftl.locate(lpn);
    check_page(lpn, ppn, report);
    ++report.pages_checked;
    if (ppn != flash::kNoPage) acknowledged_[lpn] = std::max(acknowledged_[lpn], content_[ppn]);
  }
}

}  // namespace ssdlab::sim
