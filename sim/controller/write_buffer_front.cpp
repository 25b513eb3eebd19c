#include "sim/controller/write_buffer_front.h"

#include <algorithm>

#include "common/error.h"
#include "sim/controller/buffer_transfer.h"

namespace ssdlab::sim {

WriteBufferFront::WriteBufferFront(const ControllerConfig& controller,
                                   std::uint32_t logical_page_size, Flash& flash, Packing packing)
    : controller_(controller),
      logical_page_size_(logical_page_size),
      flash_(flash),
      buffer_(controller.write_buffer_bytes / logical_page_size),
      packing_(packing),
      packer_(packing.units_per_page) {
  const auto pages = static_cast<double>(buffer_.capacity());
  high_ = static_cast<std::uint64_t>(pages * controller.flush_high_water);
  low_ = static_cast<std::uint64_t>(pages * controller.flush_low_water);
}

TimeNs WriteBufferFront::transfer_ns(std::uint64_t bytes) const {
  return buffer_transfer_ns(controller_, bytes);
}

void WriteBufferFront::write_chunk(ftl::PageRuns runs, std::uint64_t pages, TimeNs now,
                                   TimeNs& cleaning_end) {
  CleaningClock& clock = flash_.cleaning();
  const TimeNs foreground = clock.foreground_ns();
  if (buffer_.has_placements()) runs = with_placements(runs);
  buffer_.flushing(flash_.write(runs, now, WriteOrigin::kBufferFlush), pages);
  if (clock.foreground_ns() != foreground) cleaning_end = std::max(cleaning_end, clock.last_end);
}

ftl::PageRuns WriteBufferFront::with_placements(ftl::PageRuns runs) {
  placed_runs_.clear();
  for (const ftl::PageRange& run : runs)
    for (ftl::Lpn lpn = run.first; lpn < run.first + run.count; ++lpn) {
      const std::uint8_t placement = buffer_.placement(lpn);
      buffer_.forget_placement(lpn);  // (on its way to flash)
      ftl::PageRange* last = placed_runs_.empty() ? nullptr : &placed_runs_.back();
      if (last && last->placement == placement && last->first + last->count == lpn)
        ++last->count;
      else
        placed_runs_.push_back(ftl::PageRange{lpn, 1, false, false, placement});
    }
  return placed_runs_;
}

void WriteBufferFront::flush(std::uint64_t count, TimeNs now, std::uint64_t at_least) {
  flush_pages_.clear();
  buffer_.take_oldest(count, flush_pages_);
  write_taken(now, at_least, packing_.units_per_page > 1 || packing_.whole_chunks);
}

void WriteBufferFront::flush_range(ftl::Lpn first, ftl::Lpn end, TimeNs now) {
  if (controller_.write_through) return;  // (what it holds is on flash)
  flush_pages_.clear();
  buffer_.take_range(first, end, flush_pages_);  // (runs sort them)
  write_taken(now, 0, /*pack=*/false);
}

void WriteBufferFront::write_taken(TimeNs now, std::uint64_t at_least, bool pack) {
  if (flush_pages_.empty()) return;
  // Each chunk's space frees when that chunk is on flash. The chunks start
  // together: their cleaning counts once, from `now` to the last one's end
  // (not summed over chunks queued behind one another).
  CleaningClock& clock = flash_.cleaning();
  const CleaningClock before = clock;
  TimeNs cleaning_end = now;
  std::uint64_t flushed = 0;
  if (!pack) {
    // Consecutive logical pages go to the FTL as one request: a block-mapped
    // FTL then writes whole blocks instead of one read-modify-write per page.
    ftl::page_runs(flush_pages_, runs_);
    for (const ftl::PageRange& run : runs_)
      write_chunk(ftl::PageRuns{&run, 1}, run.count, now, cleaning_end);
    flushed = flush_pages_.size();
  } else {
    const auto pool_of = [this](ftl::Lpn lpn) { return pack_group(lpn); };
    if (packing_.whole_chunks)
      packer_.pack(flush_pages_, pool_of, at_least,
                   [this](std::uint32_t pool) { return chunk_units(pool); });
    else
      packer_.pack(flush_pages_, pool_of, at_least);
    buffer_.put_back_oldest(packer_.waiting());
    // A flush writes in chunks, each a page (wordline) per plane of every
    // pool, from each pool's oldest; a whole chunk is what the pool was
    // packed in (its wordline may change as the flush writes: the SLC
    // cache's end).
    for (std::size_t round = 0;; ++round) {
      chunk_.clear();
      chunk_groups_.clear();
      for (std::uint32_t p = 0; p < packer_.pools().size(); ++p) {
        const std::vector<ftl::Lpn>& pool = packer_.pools()[p];
        const std::size_t per_chunk = packing_.whole_chunks ? packer_.units_of(p) : chunk_units(p);
        const std::size_t at = round * per_chunk;
        if (at >= pool.size()) continue;
        const auto from = pool.begin() + static_cast<std::ptrdiff_t>(at);
        chunk_groups_.push_back(chunk_.size());
        chunk_.insert(chunk_.end(), from,
                      from + static_cast<std::ptrdiff_t>(std::min(per_chunk, pool.size() - at)));
      }
      if (chunk_.empty()) break;
      const std::uint64_t pages = chunk_.size();
      runs_in_groups();
      write_chunk(runs_, pages, now, cleaning_end);
      flushed += pages;
    }
  }
  // (Background rounds a flush had to finish first keep their own time.)
  clock.total_ns =
      before.total_ns + (cleaning_end - now) + clock.background_ns - before.background_ns;
  auto& stats = buffer_.stats();
  stats.flushed_pages += flushed;
  if (flushed > 0) ++stats.flushes;  // (packing may leave every unit waiting)
}

void WriteBufferFront::runs_in_groups() {
  if (packing_.handles <= 1) return ftl::page_runs(chunk_, runs_);
  // One group's runs after another's: each pool and handle fills its pages
  // (wordlines) in one stretch of the FTL's call. Sorted over the whole
  // chunk, the handles of a pool would interleave and take its planes in
  // turn between them, so that a handle's wordlines of a chunk need not be
  // one per plane and the planes of a die fall out of step (two-plane
  // alignment pads them).
  runs_.clear();
  chunk_groups_.push_back(chunk_.size());
  for (std::size_t g = 0; g + 1 < chunk_groups_.size(); ++g) {
    group_lpns_.assign(chunk_.begin() + static_cast<std::ptrdiff_t>(chunk_groups_[g]),
                       chunk_.begin() + static_cast<std::ptrdiff_t>(chunk_groups_[g + 1]));
    ftl::page_runs(group_lpns_, group_runs_);
    runs_.insert(runs_.end(), group_runs_.begin(), group_runs_.end());
  }
}

void WriteBufferFront::flush_all(TimeNs now) {
  if (!controller_.write_through && buffer_.held() > 0)
    flush(buffer_.held(), now, buffer_.held());
}

void WriteBufferFront::flush_at_idle(TimeNs now) {
  if (!packing_.partial_waits) return flush_all(now);
  if (!controller_.write_through && buffer_.held() > 0) flush(buffer_.held(), now, 0);
}

TimeNs WriteBufferFront::write_to_flash(const ftl::PageRange& range, TimeNs now) {
  // Write-through keeps a copy for reads (oldest dropped). A write larger
  // than the buffer bypasses it and supersedes what it held.
  const TimeNs done = flash_.write(ftl::PageRuns{&range, 1}, now, WriteOrigin::kHost);
  const ftl::Lpn end = range.first + range.count;
  if (!controller_.write_through) {
    drop(range.first, end);
    return done;
  }
  for (ftl::Lpn lpn = range.first; lpn < end; ++lpn) buffer_.put(lpn);
  if (buffer_.held() > buffer_.capacity()) {
    flush_pages_.clear();
    buffer_.take_oldest(buffer_.held() - buffer_.capacity(), flush_pages_);
  }
  return done;
}

TimeNs WriteBufferFront::write(const ftl::PageRange& range, std::uint32_t bytes, TimeNs now) {
  if (controller_.write_through || range.count > buffer_.capacity())
    return write_to_flash(range, now);  // (with its placement identifier)
  const ftl::Lpn end = range.first + range.count;
  // A partial page the buffer does not hold is read from flash first: the
  // buffer keeps whole logical pages (read-modify-write in DRAM).
  TimeNs start = now;
  const auto fill = [&](ftl::Lpn lpn) {
    if (!buffer_.contains(lpn))
      start = std::max(start, flash_.read(ftl::PageRange{lpn, 1, false, false}, now));
  };
  if (range.partial_first) fill(range.first);
  if (range.partial_last && (range.count > 1 || !range.partial_first)) fill(end - 1);

  auto fresh = [&] {
    std::uint64_t n = 0;
    for (ftl::Lpn lpn = range.first; lpn < end; ++lpn) n += !buffer_.contains(lpn);
    return n;
  };
  buffer_.release(now);
  if (buffer_.occupied() + fresh() > buffer_.capacity()) {
    // Full: flush the oldest pages, enough for this write even if the flush
    // takes some of its own pages, and at least down to the low-water mark.
    const std::uint64_t held = buffer_.held();
    const std::uint64_t over =
        held + range.count > buffer_.capacity() ? held + range.count - buffer_.capacity() : 0;
    flush(std::min(held, std::max(over, held > low_ ? held - low_ : 0)), now, over);
    const TimeNs room = buffer_.room_for(fresh(), now);
    if (room > now) {
      ++buffer_.stats().full_waits;
      buffer_.stats().full_wait_ns += room - now;
    }
    start = std::max(start, room);
  }
  // Writes enter the buffer in order: none overtakes one waiting for space.
  start = std::max(start, admit_);
  admit_ = start;
  // (Each page keeps its write's placement identifier for its flush.)
  for (ftl::Lpn lpn = range.first; lpn < end; ++lpn) buffer_.put(lpn, range.placement);
  if (buffer_.held() > high_) flush(buffer_.held() - low_, start, 0);
  return start + transfer_ns(bytes);
}

bool WriteBufferFront::misses_all(const ftl::PageRange& range) {
  for (ftl::Lpn lpn = range.first; lpn < range.first + range.count; ++lpn)
    if (buffer_.contains(lpn)) return false;
  buffer_.stats().read_miss_pages += range.count;
  return true;
}

TimeNs WriteBufferFront::read(const ftl::PageRange& range, std::uint32_t bytes, TimeNs now) {
  const ftl::Lpn end = range.first + range.count;
  auto& stats = buffer_.stats();
  TimeNs done = now;
  std::uint64_t hits = 0;
  // Runs of pages the buffer does not hold go to flash, keeping the
  // request's partial first and last pages partial.
  for (ftl::Lpn lpn = range.first; lpn < end;) {
    if (buffer_.contains(lpn)) {
      ++hits, ++lpn;
      continue;
    }
    ftl::Lpn last = lpn + 1;
    while (last < end && !buffer_.contains(last)) ++last;
    const ftl::PageRange miss{lpn, last - lpn, lpn == range.first && range.partial_first,
                              last == end && range.partial_last};
    done = std::max(done, flash_.read(miss, now));
    lpn = last;
  }
  stats.read_hit_pages += hits;
  stats.read_miss_pages += range.count - hits;
  if (hits == 0) return done;
  // Hits cross the host link from DRAM (the whole request if all hit).
  const std::uint64_t hit_bytes =
      hits == range.count ? bytes : hits * std::uint64_t{logical_page_size_};
  return std::max(done, now + transfer_ns(hit_bytes));
}

void WriteBufferFront::drop(ftl::Lpn first, ftl::Lpn end) {
  for (ftl::Lpn lpn = first; lpn < end; ++lpn) buffer_.drop(lpn);
}

std::vector<ftl::Lpn> WriteBufferFront::discard() {
  std::vector<ftl::Lpn> lost =
      controller_.write_through ? std::vector<ftl::Lpn>{} : buffer_.contents();
  buffer_.clear();
  admit_ = 0;
  return lost;
}

void WriteBufferFront::save_state(StateWriter& out) const {
  out.section("WBFR", 1);
  out.i64(admit_);
  buffer_.save_state(out);
}

void WriteBufferFront::load_state(StateReader& in) {
  in.section("WBFR", 1);
  admit_ = in.i64();
  if (admit_ < 0) throw Error("the write buffer's admission clock is negative");
  buffer_.load_state(in);
}

}  // namespace ssdlab::sim
