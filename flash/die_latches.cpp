#include "flash/die_latches.h"

#include "flash/timeline.h"

namespace ssdlab::flash {

DieLatches::DieLatches(const FlashTimeline& timeline)
    : timeline_(&timeline),
      bits_(timeline.geometry().bits_per_cell()),
      next_(timeline.geometry().planes(), kNoPage),
      last_(timeline.geometry().planes(), kNoPage),
      owner_(timeline.geometry().planes()),
      staged_(timeline.units(), 0),
      ready_(timeline.units()),
      reads_(timeline.units()) {}

bool DieLatches::later_page(Ppn page) const {
  return page != kNoPage && timeline_->page_type(page) != 0 && !timeline_->in_slc_mode(page);
}

bool DieLatches::follows(Ppn page) const {
  return last_[timeline_->geometry().plane_of(page)] + 1 == page;
}

bool DieLatches::staged_next(Ppn page) const {
  return next_[timeline_->geometry().plane_of(page)] == page;
}

bool DieLatches::hold(const Entry& entry, Ppn page, Ppn second, bool read, std::uint32_t unit,
                      Owner owner) {
  if (!later_page(page) && !later_page(second)) return false;
  if (read) {
    if (begun(page, owner))
      reads_[unit].push_back(entry);
    else
      waiting_.emplace(page, Waiting{entry, page, kNoPage, unit, true, owner});
    return true;
  }
  const bool second_follows = second == kNoPage || follows(second);
  if (follows(page) && second_follows) {
    // The pages before are programmed: ready, unless no wordline is staged
    // (a stage left it open and let it go: the unit's queues then).
    if (!staged_next(page) && (second == kNoPage || !staged_next(second))) return false;
    if (continues(page, owner) || continues(second, owner)) {
      ready_[unit].push_back(entry);
      return true;
    }
  }
  const Waiting waiting{entry, page, second, unit, false, owner};
  waiting_.emplace(page, waiting);
  if (second != kNoPage) waiting_.emplace(second, waiting);
  return true;
}

std::uint32_t DieLatches::unstage(std::uint32_t plane) {
  const FastGeometry& g = timeline_->geometry();
  const std::uint32_t unit = timeline_->unit_of_die(g.die_of_plane(plane));
  next_[plane] = kNoPage;
  --staged_[unit];
  return unit;
}

void DieLatches::program(Ppn page, Owner owner, std::uint32_t unit) {
  const std::uint32_t plane = timeline_->geometry().plane_of(page);
  last_[plane] = page;
  const bool staging = !timeline_->in_slc_mode(page) && timeline_->page_type(page) + 1 < bits_;
  if (!staging) {
    if (next_[plane] != kNoPage) unstage(plane);
    return;
  }
  if (next_[plane] == kNoPage) {
    ++staged_[unit];
    newly_staged_.push_back(plane);
  }
  owner_[plane] = owner;
  next_[plane] = page + 1;
}

bool DieLatches::programmed(Ppn page, Owner owner, Ppn second, Owner owner2, std::uint32_t unit) {
  newly_staged_.clear();
  readied_units_.clear();
  program(page, owner, unit);
  if (second != kNoPage) program(second, owner2, unit);
  if (waiting_.empty()) return false;
  ready_reads_after(page, owner);
  if (second != kNoPage) ready_reads_after(second, owner2);
  bool readied = ready_after(page, owner, unit);
  if (second != kNoPage) readied = ready_after(second, owner2, unit) || readied;
  return readied;
}

bool DieLatches::continues(Ppn page, Owner owner) const {
  return page != kNoPage && staged_next(page) &&
         owner_[timeline_->geometry().plane_of(page)] == owner;
}

bool DieLatches::begun(Ppn page, Owner owner) const {
  const std::uint32_t plane = timeline_->geometry().plane_of(page);
  const Ppn next = next_[plane];
  return next != kNoPage && next <= page && next > page - timeline_->page_type(page) &&
         owner_[plane] == owner;
}

void DieLatches::ready_reads_after(Ppn page, Owner owner) {
  // (It ended its wordline, or is in SLC mode. Asked of `page`'s plane:
  // the page after the device's last one has no plane.)
  if (next_[timeline_->geometry().plane_of(page)] != page + 1) return;
  const Ppn end = page - timeline_->page_type(page) + bits_;
  for (Ppn later = page + 1; later < end; ++later) {
    const auto [first, last] = waiting_.equal_range(later);
    for (auto it = first; it != last; ++it) {
      if (!it->second.read || !(it->second.owner == owner)) continue;
      reads_[it->second.unit].push_back(it->second.entry);
      readied_units_.push_back(it->second.unit);
      waiting_.erase(it);
      break;
    }
  }
}

std::unordered_multimap<Ppn, DieLatches::Waiting>::iterator DieLatches::find_waiting(
    Ppn page, const Entry& entry) {
  const auto [first, last] = waiting_.equal_range(page);
  for (auto it = first; it != last; ++it)
    if (it->second.entry.seq == entry.seq) return it;
  return waiting_.end();
}

bool DieLatches::ready_after(Ppn page, Owner owner, std::uint32_t unit) {
  const auto [first, last] = waiting_.equal_range(page + 1);
  auto it = first;
  while (it != last && (it->second.read || !(it->second.owner == owner))) ++it;
  if (it == last) return false;
  const Waiting waiting = it->second;
  if (!follows(waiting.page) || (waiting.second != kNoPage && !follows(waiting.second)))
    return false;  // (a two-plane command whose other page's turn has not come)
  waiting_.erase(find_waiting(waiting.page, waiting.entry));
  if (waiting.second != kNoPage) waiting_.erase(find_waiting(waiting.second, waiting.entry));
  ready_[unit].push_back(waiting.entry);
  return true;
}

DieLatches::Entry DieLatches::take(std::uint32_t unit, bool& read) {
  std::vector<Entry>& ready = ready_[unit];
  read = ready.empty();
  if (!read) {
    const Entry entry = ready.front();
    ready.erase(ready.begin());
    return entry;
  }
  const Entry entry = reads_[unit].front();
  reads_[unit].pop_front();
  return entry;
}

}  // namespace ssdlab::flash
