// The controller's DRAM write buffer: how host requests use it and when it
// flushes (Ssd members; the bookkeeping is in write_buffer.cpp).
//
// Write-back: a write is acknowledged once its data crossed the host link into
// DRAM; the FTL sees it only when it is flushed. Write-through: a write goes
// to flash as without a buffer and also stays in DRAM. Either way a read that
// hits is served from DRAM and never reaches the FTL, so the verifier sees
// only flash reads of pages whose latest version is on flash.
#include <algorithm>

#include "sim/controller/ssd.h"

namespace ssdlab::sim {

TimeNs Ssd::buffer_transfer_ns(std::uint64_t bytes) const {
  return static_cast<TimeNs>((bytes * config_.controller.buffer_ps_per_byte + 500) / 1000);
}

void Ssd::flush(std::uint64_t count, TimeNs now) {
  flush_pages_.clear();
  buffer_->take_oldest(count, flush_pages_);
  if (flush_pages_.empty()) return;
  // Consecutive logical pages go to the FTL as one request: a block-mapped
  // FTL then writes whole blocks instead of one read-modify-write per page.
  std::sort(flush_pages_.begin(), flush_pages_.end());
  // Each run's space frees when that run is on flash. The runs start
  // together: their cleaning counts once, from `now` to the last one's end
  // (not summed over runs queued behind one another).
  const TimeNs cleaning_before = cleaning_ns_, background_before = background_cleaning_ns_;
  TimeNs cleaning_end = now;
  for (std::size_t i = 0; i < flush_pages_.size();) {
    std::size_t j = i + 1;
    while (j < flush_pages_.size() && flush_pages_[j] == flush_pages_[j - 1] + 1) ++j;
    const ftl::PageRange run{flush_pages_[i], static_cast<std::uint32_t>(j - i), false, false};
    const TimeNs cleaning = cleaning_ns_ - background_cleaning_ns_;
    buffer_->flushing(*flash_request(run, true, now, true), j - i);
    if (cleaning_ns_ - background_cleaning_ns_ != cleaning)
      cleaning_end = std::max(cleaning_end, cleaning_done_);
    i = j;
  }
  // (Background rounds a flush had to finish first keep their own time.)
  cleaning_ns_ =
      cleaning_before + (cleaning_end - now) + background_cleaning_ns_ - background_before;
  auto& stats = buffer_->stats();
  stats.flushed_pages += flush_pages_.size();
  ++stats.flushes;
}

TimeNs Ssd::buffered_write(const ftl::PageRange& range, std::uint32_t bytes, TimeNs now) {
  const ftl::Lpn end = range.first + range.count;
  if (config_.controller.write_through || range.count > buffer_->capacity()) {
    // To flash now; write-through keeps a copy for reads (oldest dropped).
    // A write larger than the buffer bypasses it and supersedes what it held.
    const TimeNs done = *flash_request(range, true, now);
    for (ftl::Lpn lpn = range.first; lpn < end; ++lpn) {
      if (config_.controller.write_through)
        buffer_->put(lpn);
      else
        buffer_->drop(lpn);
    }
    if (buffer_->held() > buffer_->capacity()) {
      flush_pages_.clear();
      buffer_->take_oldest(buffer_->held() - buffer_->capacity(), flush_pages_);
    }
    return done;
  }
  // A partial page the buffer does not hold is read from flash first: the
  // buffer keeps whole logical pages (read-modify-write in DRAM).
  TimeNs start = now;
  const auto fill = [&](ftl::Lpn lpn) {
    if (!buffer_->contains(lpn))
      start = std::max(start, *flash_request(ftl::PageRange{lpn, 1, false, false}, false, now));
  };
  if (range.partial_first) fill(range.first);
  if (range.partial_last && (range.count > 1 || !range.partial_first)) fill(end - 1);

  auto fresh = [&] {
    std::uint64_t n = 0;
    for (ftl::Lpn lpn = range.first; lpn < end; ++lpn) n += !buffer_->contains(lpn);
    return n;
  };
  buffer_->release(now);
  if (buffer_->occupied() + fresh() > buffer_->capacity()) {
    // Full: flush the oldest pages, enough for this write even if the flush
    // takes some of its own pages, and at least down to the low-water mark.
    const std::uint64_t held = buffer_->held();
    const std::uint64_t over =
        held + range.count > buffer_->capacity() ? held + range.count - buffer_->capacity() : 0;
    flush(std::min(held, std::max(over, held > buffer_low_ ? held - buffer_low_ : 0)), now);
    const TimeNs room = buffer_->room_for(fresh(), now);
    if (room > now) {
      ++buffer_->stats().full_waits;
      buffer_->stats().full_wait_ns += room - now;
    }
    start = std::max(start, room);
  }
  // Writes enter the buffer in order: none overtakes one waiting for space.
  start = std::max(start, buffer_admit_);
  buffer_admit_ = start;
  for (ftl::Lpn lpn = range.first; lpn < end; ++lpn) buffer_->put(lpn);
  if (buffer_->held() > buffer_high_) flush(buffer_->held() - buffer_low_, start);
  return start + buffer_transfer_ns(bytes);
}

TimeNs Ssd::buffered_read(const ftl::PageRange& range, std::uint32_t bytes, TimeNs now) {
  const ftl::Lpn end = range.first + range.count;
  auto& stats = buffer_->stats();
  TimeNs done = now;
  std::uint64_t hits = 0;
  // Runs of pages the buffer does not hold go to flash, keeping the
  // request's partial first and last pages partial.
  for (ftl::Lpn lpn = range.first; lpn < end;) {
    if (buffer_->contains(lpn)) {
      ++hits, ++lpn;
      continue;
    }
    ftl::Lpn last = lpn + 1;
    while (last < end && !buffer_->contains(last)) ++last;
    const ftl::PageRange miss{lpn, last - lpn, lpn == range.first && range.partial_first,
                              last == end && range.partial_last};
    done = std::max(done, *flash_request(miss, false, now));
    lpn = last;
  }
  stats.read_hit_pages += hits;
  stats.read_miss_pages += range.count - hits;
  if (hits == 0) return done;
  // Hits cross the host link from DRAM (the whole request if all hit).
  const std::uint64_t hit_bytes =
      hits == range.count ? bytes : hits * std::uint64_t{ftl_->logical_page_size()};
  return std::max(done, now + buffer_transfer_ns(hit_bytes));
}

std::vector<ftl::Lpn> Ssd::discard_write_buffer() {
  if (!buffer_) return {};
  std::vector<ftl::Lpn> lost =
      config_.controller.write_through ? std::vector<ftl::Lpn>{} : buffer_->contents();
  buffer_->clear();
  return lost;
}

}  // namespace ssdlab::sim
