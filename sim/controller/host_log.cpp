#include "sim/controller/host_log.h"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

#include "common/error.h"
#include "common/log.h"
#include "records/counter_state.h"

namespace ssdlab::sim {

HostLog::HostLog(const HostLogConfig& config, const ftl::ZonedDevice& zones,
                 std::uint32_t page_size, Device& device, bool verify)
    : config_(config),
      device_(device),
      page_size_(page_size),
      capacity_(static_cast<std::uint32_t>(zones.capacity_pages())),
      zone_pages_(zones.zone_pages()),
      zones_(static_cast<std::uint32_t>(zones.zones())) {
  const std::uint64_t slots = std::uint64_t{zones_} * capacity_;
  if (slots >= kNone) throw make_error("host.log: the device has too many pages for the log's map");
  pages_ = static_cast<std::uint64_t>(static_cast<double>(slots) * (1.0 - config.overprovisioning));
  // Room for the log heads and the zones cleaning keeps free.
  const std::uint64_t spare_zones = (slots - pages_) / capacity_;
  const std::uint64_t needed = config.clean_at + config.placement_heads + 1u;
  if (spare_zones < needed || pages_ == 0)
    throw make_error(
        "host.log.overprovisioning = {} leaves {} spare zone(s) of the device's {}; the log needs "
        "at least host.log.clean_at + placement_heads + 1 = {} (a zone for each head of host "
        "writes, one for cleaning, and the free zones cleaning keeps)",
        config.overprovisioning, spare_zones, zones_, needed);
  hosts_.assign(config.placement_heads, Head{});
  map_.assign(pages_, kNone);
  owner_.assign(slots, kNone);
  valid_.assign(zones_, 0);
  use_.assign(zones_, ZoneUse::kFree);
  filled_at_.assign(zones_, 0);
  for (std::uint32_t z = 0; z < zones_; ++z) free_.push_back(z);
  if (verify) {
    version_.assign(pages_, 0);
    held_.assign(slots, 0);
  }
}

TimeNs HostLog::send(IoMode mode, std::uint64_t slot, std::uint64_t pages, TimeNs now,
                     bool functional) {
  const std::uint64_t zone = slot / capacity_;
  HostIo io;
  io.offset = (zone * zone_pages_ + slot % capacity_) * page_size_;
  io.size = static_cast<std::uint32_t>(pages * page_size_);
  io.mode = mode;
  if (!functional) return device_.command(io, now);
  device_.functional(io);
  return now;
}

void HostLog::unmap(std::uint32_t page) {
  const std::uint32_t slot = map_[page];
  if (slot == kNone) return;
  owner_[slot] = kNone;
  --valid_[zone_of(slot)];
  map_[page] = kNone;
}

void HostLog::take_zone(Head& head, bool functional, TimeNs& now) {
  if (head.zone != kNone) {
    use_[head.zone] = ZoneUse::kFull;
    filled_at_[head.zone] = counters_.host_pages_written;
  }
  // The host head cleans first, so that cleaning, which takes zones for its
  // own head as it moves pages, always finds one.
  if (is_host(head) && free_.size() <= config_.clean_at)
    now = clean(now, functional, config_.clean_at + 1);
  if (free_.empty()) throw std::logic_error("host log: no free zone for the log's head");
  head.zone = free_.front();
  free_.pop_front();
  head.next = 0;
  use_[head.zone] = is_host(head) ? ZoneUse::kHost : ZoneUse::kCleaning;
}

TimeNs HostLog::append(Head& head, const std::vector<std::uint32_t>& pages, TimeNs now,
                       bool functional) {
  TimeNs done = now;
  std::size_t i = 0;
  while (i < pages.size()) {
    if (head.zone == kNone || head.next == capacity_) take_zone(head, functional, now);
    const auto chunk =
        static_cast<std::uint32_t>(std::min<std::size_t>(pages.size() - i, capacity_ - head.next));
    const std::uint32_t first_slot = head.zone * capacity_ + head.next;
    for (std::uint32_t k = 0; k < chunk; ++k) {
      const std::uint32_t page = pages[i + k], slot = first_slot + k;
      const std::uint32_t version = version_.empty() ? 0 : held_[map_[page] == kNone ? slot : map_[page]];
      unmap(page);
      map_[page] = slot;
      owner_[slot] = page;
      ++valid_[head.zone];
      if (!version_.empty()) held_[slot] = is_host(head) ? ++version_[page] : version;
    }
    done = std::max(done, send(IoMode::kWrite, first_slot, chunk, now, functional));
    head.next += chunk;
    i += chunk;
  }
  return done;
}

std::uint32_t HostLog::victim() const {
  std::uint32_t best = kNone;
  double best_score = -1;
  for (std::uint32_t z = 0; z < zones_; ++z) {
    if (use_[z] != ZoneUse::kFull) continue;
    const double u = static_cast<double>(valid_[z]) / capacity_;
    double score = 1.0 - u;  // greedy: the fewest valid pages
    if (config_.victim == HostLogConfig::Victim::kCostBenefit)
      score = (1.0 - u) *
              static_cast<double>(counters_.host_pages_written - filled_at_[z] + 1) / (1.0 + u);
    if (score > best_score) {
      best = z;
      best_score = score;
    }
  }
  return best;
}

TimeNs HostLog::clean(TimeNs now, bool functional, std::size_t target) {
  while (free_.size() < target) {
    const std::uint32_t zone = victim();
    if (zone == kNone || valid_[zone] == capacity_)
      throw std::logic_error("host log: cleaning found no zone with invalid pages");
    // Its valid pages, read in runs of consecutive slots, all at `now`.
    std::vector<std::uint32_t> moved;
    TimeNs read_done = now;
    const std::uint32_t base = zone * capacity_;
    for (std::uint32_t p = 0; p < capacity_;) {
      if (owner_[base + p] == kNone) {
        ++p;
        continue;
      }
      std::uint32_t end = p;
      while (end < capacity_ && owner_[base + end] != kNone) {
        const std::uint32_t page = owner_[base + end];
        if (!version_.empty()) {  // --verify: cleaning moves the host's latest version
          if (held_[base + end] != version_[page])
            throw std::logic_error(fmt::format(
                "host log: cleaning moves version {} of host page {}, whose latest is {}",
                held_[base + end], page, version_[page]));
          ++counters_.pages_verified;
        }
        moved.push_back(page);
        ++end;
      }
      read_done = std::max(read_done, send(IoMode::kRead, base + p, end - p, now, functional));
      counters_.cleaning_pages_read += end - p;
      p = end;
    }
    const TimeNs written = append(cleaning_, moved, read_done, functional);
    counters_.cleaning_pages_written += moved.size();
    now = send(IoMode::kZoneReset, base, 1, written, functional);
    ++counters_.zone_resets;
    ++counters_.zones_cleaned;
    use_[zone] = ZoneUse::kFree;
    free_.push_back(zone);
  }
  return now;
}

TimeNs HostLog::read(std::uint64_t first, std::uint64_t count, TimeNs now) {
  TimeNs done = now;
  std::uint64_t p = first;
  while (p < first + count) {
    const std::uint32_t slot = map_[p];
    if (slot == kNone) {
      ++p;
      continue;
    }
    if (!version_.empty()) {
      if (owner_[slot] != p || held_[slot] != version_[p])
        throw std::logic_error(fmt::format(
            "host log: host page {} read from slot {}, which holds version {} of page {} (latest {})",
            p, slot, held_[slot], owner_[slot], version_[p]));
      ++counters_.pages_verified;
    }
    // A run of host pages in consecutive slots of one zone is one device read.
    std::uint64_t end = p + 1;
    while (end < first + count && map_[end] == slot + (end - p) &&
           zone_of(map_[end]) == zone_of(slot)) {
      if (!version_.empty() && held_[map_[end]] != version_[end])
        throw std::logic_error(fmt::format("host log: host page {} reads a stale version", end));
      counters_.pages_verified += !version_.empty();
      ++end;
    }
    done = std::max(done, send(IoMode::kRead, slot, end - p, now, false));
    p = end;
  }
  return done;
}

TimeNs HostLog::serve(const HostIo& request, TimeNs now) {
  const std::uint64_t first = request.offset / page_size_;
  const std::uint64_t end = (request.offset + request.size + page_size_ - 1) / page_size_;
  if (end > pages_)
    throw make_error("host log: {} bytes at offset {}: beyond the log's {} bytes", request.size,
                     request.offset, exported_bytes());
  // Sector I/O (real traces are 512-byte aligned) as the other FTLs serve
  // it: a read reads the pages it touches, a write of part of a page reads
  // that page first and writes it whole (read-modify-write), a trim forgets
  // only the pages it covers whole (issue 51, M5).
  const bool head_partial = request.offset % page_size_ != 0;
  const bool tail_partial = (request.offset + request.size) % page_size_ != 0;
  switch (request.mode) {
    case IoMode::kRead: return read(first, end - first, now);
    case IoMode::kTrim:
      for (std::uint64_t p = first + (head_partial ? 1 : 0); p + (tail_partial ? 1 : 0) < end; ++p)
        unmap(static_cast<std::uint32_t>(p));
      return now;
    case IoMode::kWrite: {
      if (free_.size() < config_.clean_at) now = clean(now, false, config_.clean_at);
      TimeNs start = now;
      if (head_partial) start = std::max(start, read(first, 1, now));
      if (tail_partial && (end - 1 != first || !head_partial))
        start = std::max(start, read(end - 1, 1, now));
      std::vector<std::uint32_t> pages;
      for (std::uint64_t p = first; p < end; ++p) pages.push_back(static_cast<std::uint32_t>(p));
      counters_.host_pages_written += pages.size();
      return append(head_of(request.placement), pages, start, false);
    }
    default:
      throw make_error("host log: the log exports a conventional block device; a zone command "
                       "({}) goes to a zoned device without [host.log]",
                       io_mode_letter(request.mode));
  }
}

void HostLog::write_functionally(std::uint64_t offset, std::uint64_t size) {
  const std::uint64_t first = offset / page_size_;
  const std::uint64_t end = std::min<std::uint64_t>((offset + size + page_size_ - 1) / page_size_, pages_);
  if (free_.size() < config_.clean_at) clean(0, true, config_.clean_at);
  std::vector<std::uint32_t> pages;
  for (std::uint64_t p = first; p < end; ++p) pages.push_back(static_cast<std::uint32_t>(p));
  counters_.host_pages_written += pages.size();
  append(hosts_.front(), pages, 0, true);
}

HostLog::Head& HostLog::head_of(std::uint8_t placement) {
  if (placement < hosts_.size()) return hosts_[placement];
  if (!warned_)
    logger("host-log")->warn(
        "placement identifier {} is beyond the host log's {} head(s) "
        "(host.log.placement_heads): its writes, and any beyond, go to head {}",
        placement, hosts_.size(), hosts_.size() - 1);
  warned_ = true;
  return hosts_.back();
}

}  // namespace ssdlab::sim

namespace ssdlab::sim {

// Section HLOG: the map (the owners and valid counts follow from it), each
// zone's use and fill time, the free zones in order, the two heads and the
// counters. --verify's versions are not saved: a loaded log's pages all
// count as their latest versions (as the verifier adopts a loaded device).
void HostLog::save_state(StateWriter& out) const {
  out.section("HLOG", 1);
  out.vector(map_);
  for (std::uint32_t z = 0; z < zones_; ++z) {
    out.u8(static_cast<std::uint8_t>(use_[z]));
    out.u64(filled_at_[z]);
  }
  out.u64(free_.size());
  for (const std::uint32_t zone : free_) out.u32(zone);
  for (const Head* head : {&hosts_.front(), &cleaning_}) {
    out.u32(head->zone);
    out.u32(head->next);
  }
  records::save_counters(out, counters_);
  // The heads of placement identifiers 1.., in a section of their own, only
  // with them (a log of one head saves as before).
  if (hosts_.size() == 1) return;
  out.section("HLPH", 1);
  out.u64(hosts_.size() - 1);
  for (std::size_t i = 1; i < hosts_.size(); ++i) {
    out.u32(hosts_[i].zone);
    out.u32(hosts_[i].next);
  }
}

void HostLog::load_state(StateReader& in) {
  in.section("HLOG", 1);
  in.vector(map_, pages_, "the host log's map");
  std::fill(owner_.begin(), owner_.end(), kNone);
  std::fill(valid_.begin(), valid_.end(), 0);
  for (std::uint32_t page = 0; page < pages_; ++page) {
    const std::uint32_t slot = map_[page];
    if (slot == kNone) continue;
    if (slot >= owner_.size() || owner_[slot] != kNone)
      throw make_error("corrupt: the host log maps page {} to slot {}", page, slot);
    owner_[slot] = page;
    ++valid_[zone_of(slot)];
  }
  for (std::uint32_t z = 0; z < zones_; ++z) {
    const std::uint8_t use = in.u8();
    if (use > static_cast<std::uint8_t>(ZoneUse::kFull)) throw make_error("corrupt: a zone's use");
    use_[z] = static_cast<ZoneUse>(use);
    filled_at_[z] = in.u64();
  }
  const std::uint64_t free = in.u64();
  if (free > zones_) throw make_error("corrupt: the host log's free zones");
  free_.clear();
  for (std::uint64_t i = 0; i < free; ++i) {
    const std::uint32_t zone = in.u32();
    if (zone >= zones_ || use_[zone] != ZoneUse::kFree)
      throw make_error("corrupt: free zone {}", zone);
    free_.push_back(zone);
  }
  const auto read_head = [&](Head& head) {
    head.zone = in.u32();
    head.next = in.u32();
    if ((head.zone != kNone && head.zone >= zones_) || head.next > capacity_)
      throw make_error("corrupt: a host log head");
  };
  read_head(hosts_.front());
  read_head(cleaning_);
  records::load_counters(in, counters_, "the host log's");
  const std::uint64_t more = in.at_section("HLPH") ? (in.section("HLPH", 1), in.u64()) : 0;
  if (more != hosts_.size() - 1)
    throw make_error(
        "it was saved from a host log of {} placement head(s), the config gives {} "
        "(host.log.placement_heads)",
        more + 1, hosts_.size());
  for (std::size_t i = 1; i < hosts_.size(); ++i) read_head(hosts_[i]);
  if (!version_.empty()) {
    std::fill(version_.begin(), version_.end(), 0);
    std::fill(held_.begin(), held_.end(), 0);
  }
}

}  // namespace ssdlab::sim
