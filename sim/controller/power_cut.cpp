#include "sim/controller/power_cut.h"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

#include "ftl/oob_scan.h"

namespace ssdlab::sim {

using flash::Op;
using flash::Ppn;

ScanCost scan_cost(const flash::NandArray& nand, const flash::Timing& timing,
                   std::uint32_t summary_bytes, std::uint32_t units_per_page) {
  const flash::Geometry& g = nand.geometry();
  std::vector<std::uint64_t> die_pages(g.dies(), 0);
  std::vector<TimeNs> channel_bus(g.channels, 0);
  const TimeNs oob_ns = timing.transfer_ns(g.oob_size);
  const TimeNs summary_ns = timing.transfer_ns(summary_bytes);
  ScanCost cost;
  for (flash::BlockId block = 0; block < g.blocks(); ++block) {
    const std::uint32_t die = g.die_of_plane(g.plane_of_block(block));
    const std::uint64_t pages = ftl::scan_pages_of_block(nand, block, summary_bytes != 0);
    // (Map units: one array read gives every unit of a flash page.)
    die_pages[die] += (pages + units_per_page - 1) / units_per_page;
    cost.pages_read += pages;
    const bool summary = ftl::read_by_summary(nand, block, summary_bytes != 0);
    channel_bus[g.channel_of_die(die)] +=
        summary ? summary_ns : static_cast<TimeNs>(pages) * oob_ns;
  }
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
    cost.scan_ns = std::max(cost.scan_ns, std::max(busiest_die, channel_bus[channel]) + oob_ns);
  }
  return cost;
}

PowerCutRecorder::PowerCutRecorder(const flash::Geometry& geometry, std::uint64_t logical_pages,
                                   std::uint32_t pages_per_lpn, PairedPages paired)
    : geometry_(geometry),
      pages_per_lpn_(pages_per_lpn),
      paired_(paired),
      shadow_(geometry, logical_pages, /*version_metadata=*/false),
      acknowledged_(logical_pages, 0),
      floor_(logical_pages, 0) {}

void PowerCutRecorder::apply_one(Ppn ppn, flash::Lpn lpn, Op op, Ppn src, bool host_data) {
  // An FTL's own metadata (DFTL's translation pages, beyond the host's
  // logical pages) holds no host data to check: the shadow leaves it out.
  if (const std::uint32_t fresh = shadow_.apply(ppn, lpn, op, src, host_data))
    current_.versions.emplace_back(lpn, fresh);
}

std::uint64_t PowerCutRecorder::apply(ftl::PageRuns ranges,
                                      const flash::CommandList& commands,
                                      std::vector<flash::NandArray::BlockImage> erased,
                                      Acknowledge when) {
  const bool functional = when == Acknowledge::kAtOnce;
  shadow_.begin_write(ranges);
  if (!ranges.empty()) current_ = PendingWrite{};
  batch_start_ = popped_ + pending_.size();
  std::vector<bool> taken(erased.size(), false);
  for (const flash::Command& command : commands) {
    Pending pending{command, kNotScheduled, {}, {}};
    if (command.op == Op::kErase) {
      // (A two-plane erase, a zone reset's, erased two blocks: their images
      // are in the order of the FTL's erases, which the join may reorder.)
      for (const Ppn at : {command.ppn, command.ppn2}) {
        if (at == flash::kNoPage) continue;
        const flash::BlockId block = geometry_.block_of(at);
        std::size_t i = 0;
        while (i < erased.size() && (taken[i] || erased[i].block != block)) ++i;
        if (i == erased.size())
          throw std::logic_error(fmt::format(
              "power cut: the erase of block {} left no image on the NAND array", block));
        taken[i] = true;
        pending.images.push_back(std::move(erased[i]));
        const Ppn first = geometry_.first_page(block);
        pending.contents.emplace_back();
        for (Ppn ppn = first; ppn < first + geometry_.pages_per_block; ++ppn)
          pending.contents.back().push_back(shadow_.content(ppn));
      }
    }
    apply_one(command.ppn, command.lpn, command.op, command.src, command.host_data);
    if (command.two_plane())
      apply_one(command.ppn2, command.lpn2, command.op, command.src, command.host_data);
    if (!functional) pending_.push_back(std::move(pending));
  }
  // Every page of a host write gets its new version from some command (a
  // program, or a copy-back merging the host's data): else the check could
  // not see it lost.
  if (const auto missing = shadow_.end_write())
    throw std::logic_error(fmt::format(
        "power cut: the host write of logical page {} left it without its new version", *missing));
  if (functional && !ranges.empty()) acknowledge(current_);
  return batch_start_;
}

void PowerCutRecorder::trimmed(const ftl::PageRange& range) {
  if (range.count == 0) return;
  const flash::Lpn first = range.first + (range.partial_first ? 1 : 0);
  const flash::Lpn end = range.first + range.count - (range.partial_last ? 1 : 0);
  for (flash::Lpn lpn = first; lpn < end; ++lpn) {
    acknowledged_[lpn] = 0;
    floor_[lpn] = shadow_.next_version();
  }
}

void PowerCutRecorder::completes(std::uint64_t id, TimeNs end) {
  if (id < popped_) throw std::logic_error("power cut: a settled command completes again");
  pending_.at(id - popped_).end = end;
}

void PowerCutRecorder::host_write_done(TimeNs done, WriteOrigin origin) {
  current_.done = done;
  current_.from_buffer = origin == WriteOrigin::kBufferFlush;
  writes_.push_back(std::move(current_));
  current_ = PendingWrite{};
}

void PowerCutRecorder::acknowledge(const PendingWrite& write) {
  // A version older than a trim of its page is not the host's data any
  // more, however late its write completes: a write and a trim of one page
  // in flight together take effect in the order the device took them (the
  // FTL's, which the trim log's sequence numbers record), not in the order
  // they complete. NVMe orders no two commands in flight; the mount rightly
  // finds such a page trimmed.
  for (const auto& [lpn, version] : write.versions)
    if (version >= floor_[lpn]) acknowledged_[lpn] = std::max(acknowledged_[lpn], version);
}

void PowerCutRecorder::settle(TimeNs now) {
  while (!pending_.empty() && pending_.front().end <= now) {
    pending_.pop_front();
    ++popped_;
  }
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
    case Op::kErase:
      for (std::size_t b = 0; b < pending.images.size(); ++b) {
        nand.restore(pending.images[b]);
        const Ppn first = geometry_.first_page(pending.images[b].block);
        for (std::size_t i = 0; i < pending.contents[b].size(); ++i)
          shadow_.set_content(first + i, pending.contents[b][i]);
        ++report.erases_undone;
      }
      return;
    case Op::kProgram:
    case Op::kCopyBack:
    case Op::kMove:
      for (const Ppn ppn : {command.ppn, command.ppn2}) {
        if (ppn == flash::kNoPage) continue;
        nand.tear(ppn);
        shadow_.set_content(ppn, 0);
        ++report.torn_pages;
        tear_paired(ppn, nand, report);
      }
      return;
  }
}

void PowerCutRecorder::tear_paired(Ppn ppn, flash::NandArray& nand, PowerCutReport& report) {
  // (A block in SLC mode programs one bit per cell: one pass.)
  if (paired_.bits <= 1 || nand.is_slc(geometry_.block_of(ppn))) return;
  const std::uint32_t offset = geometry_.page_in_block(ppn);
  const std::uint32_t flash_page = offset / paired_.units_per_page;
  const std::uint32_t earlier = flash_page % paired_.bits;  // its page type: the passes before it
  const Ppn first = ppn - offset + (flash_page - earlier) * paired_.units_per_page;
  for (Ppn page = first; page < first + earlier * paired_.units_per_page; ++page) {
    if (nand.is_torn(page)) continue;
    nand.tear(page);
    shadow_.set_content(page, 0);
    ++report.paired_pages_lost;
  }
}

void PowerCutRecorder::cut(TimeNs at, flash::NandArray& nand, PowerCutReport& report,
                           std::vector<flash::Lpn> buffered) {
  settle(at);
  for (auto it = pending_.rbegin(); it != pending_.rend(); ++it)
    if (it->end > at) undo(*it, nand, report);
  popped_ += pending_.size();
  pending_.clear();
  batch_start_ = popped_;
  buffered_at_cut_.clear();
  for (const flash::Lpn lpn : buffered) buffered_at_cut_.emplace_back(lpn, 0);
  for (const PendingWrite& write : writes_) {
    if (!write.from_buffer) {
      ++report.writes_in_flight;
      continue;
    }
    for (const auto& entry : write.versions)  // (a page trimmed since is not the host's)
      if (entry.second >= floor_[entry.first]) buffered_at_cut_.push_back(entry);
  }
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
  const std::uint32_t found = shadow_.content(ppn);
  for (std::uint32_t i = 1; i < pages_per_lpn_; ++i)
    if (shadow_.content(ppn + i) != found)
      return problem(report.lost_writes,
                     fmt::format("logical page {} reads back a mix of versions", lpn));
  if (found == 0 || found > shadow_.version(lpn))
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
  // A volatile buffer's page is lost unless a flush in flight put the
  // version the host last gave it on flash anyway. The newest entry of a
  // page is the one the host last wrote (the buffer's own copy: never).
  const auto newest_last = [](const std::pair<flash::Lpn, std::uint32_t>& e) {
    return std::pair{e.first, e.second == 0 ? ~std::uint32_t{0} : e.second};
  };
  std::sort(buffered_at_cut_.begin(), buffered_at_cut_.end(),
            [&](const auto& a, const auto& b) { return newest_last(a) < newest_last(b); });
  for (std::size_t i = 0; i < buffered_at_cut_.size(); ++i) {
    if (i + 1 < buffered_at_cut_.size() &&
        buffered_at_cut_[i + 1].first == buffered_at_cut_[i].first)
      continue;  // an older entry of the same page
    const auto [lpn, version] = buffered_at_cut_[i];
    const Ppn ppn = ftl.locate(lpn);
    if (version == 0 || ppn == flash::kNoPage || shadow_.content(ppn) < version)
      ++report.buffered_writes_lost;
  }
  buffered_at_cut_.clear();
  for (flash::Lpn lpn = 0; lpn < acknowledged_.size(); ++lpn) {
    const Ppn ppn = ftl.locate(lpn);
    check_page(lpn, ppn, report);
    ++report.pages_checked;
    if (ppn != flash::kNoPage)
      acknowledged_[lpn] = std::max(acknowledged_[lpn], shadow_.content(ppn));
  }
}

}  // namespace ssdlab::sim
