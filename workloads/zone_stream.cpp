#include "workloads/zone_stream.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <numeric>
#include <optional>

#include "common/error.h"
#include "common/units.h"
#include "workloads/generator.h"
#include "workloads/plan.h"
#include "workloads/plan_keys.h"

namespace ssdlab::workloads {

namespace {

[[noreturn]] void fail(const KeyValue& kv, const std::string& what) {
  throw make_error("{}: {}: {}", kv.where, kv.key, what);
}

bool as_flag(const KeyValue& kv) {
  const auto* flag = std::get_if<bool>(&kv.value);
  if (!flag) fail(kv, "expected true or false");
  return *flag;
}

std::uint64_t as_zone_bytes(const KeyValue& kv) {
  std::optional<std::uint64_t> bytes;
  if (const auto* number = std::get_if<std::int64_t>(&kv.value); number && *number > 0)
    bytes = static_cast<std::uint64_t>(*number);
  if (const auto* text = std::get_if<std::string>(&kv.value)) bytes = parse_size(*text);
  if (!bytes || *bytes == 0) fail(kv, "expected a size in bytes such as \"1MiB\"");
  return *bytes;
}

void apply_zones_open(ExperimentSpec& spec, const KeyValue& kv) {
  const auto* number = std::get_if<std::int64_t>(&kv.value);
  if (!number || *number < 1 || *number > (1 << 20))
    fail(kv, "expected a number of zones, 1 or more");
  spec.zone.zones_open = static_cast<std::uint32_t>(*number);
}

void apply_zrwa_flush(ExperimentSpec& spec, const KeyValue& kv) {
  const auto* text = std::get_if<std::string>(&kv.value);
  if (!text || (*text != "implicit" && *text != "explicit"))
    fail(kv, "expected \"implicit\" or \"explicit\"");
  spec.zone.zrwa_explicit = *text == "explicit";
}

// A number given as an integer, a real or (an inline key's 0.5) text; -1 if
// it is none.
double as_number(const KeyValue& kv) {
  double value = -1;
  if (const auto* number = std::get_if<std::int64_t>(&kv.value))
    value = static_cast<double>(*number);
  if (const auto* real = std::get_if<double>(&kv.value)) value = *real;
  if (const auto* text = std::get_if<std::string>(&kv.value)) {
    const auto [end, error] = std::from_chars(text->data(), text->data() + text->size(), value);
    if (error != std::errc() || end != text->data() + text->size()) value = -1;
  }
  return value;
}

void apply_zrwa_rewrite(ExperimentSpec& spec, const KeyValue& kv) {
  const double value = as_number(kv);
  if (!(value >= 0 && value <= 1)) fail(kv, "expected a share of each window's writes in [0, 1]");
  spec.zone.zrwa_rewrite = value;
}

void apply_finish_at(ExperimentSpec& spec, const KeyValue& kv) {
  const double value = as_number(kv);
  if (!(value > 0 && value <= 1)) fail(kv, "expected a share of the zone capacity in (0, 1]");
  spec.zone.finish_at = value;
}

constexpr PlanKey kZoneKeys[] = {
    {"zones_open", &apply_zones_open},
    {"zone_append",
     [](ExperimentSpec& spec, const KeyValue& kv) { spec.zone.append = as_flag(kv); }},
    {"zone_reset", [](ExperimentSpec& spec, const KeyValue& kv) { spec.zone.reset = as_flag(kv); }},
    {"zone_finish_at", &apply_finish_at},
    {"zone_size",
     [](ExperimentSpec& spec, const KeyValue& kv) { spec.zone.zone_size = as_zone_bytes(kv); }},
    {"zone_capacity",
     [](ExperimentSpec& spec, const KeyValue& kv) { spec.zone.zone_capacity = as_zone_bytes(kv); }},
    {"zrwa", [](ExperimentSpec& spec, const KeyValue& kv) { spec.zone.zrwa = as_flag(kv); }},
    {"zrwa_flush", &apply_zrwa_flush},
    {"zrwa_rewrite", &apply_zrwa_rewrite},
};

}  // namespace

std::span<const PlanKey> zone_keys() {
  return kZoneKeys;
}

void check_zone_keys(const ExperimentSpec& spec) {
  const ZoneKeys& z = spec.zone;
  const std::string& o = spec.origin;
  const bool given = z.append || !z.reset || z.finish_at != 1.0 || z.zone_size || z.zone_capacity ||
                     z.zrwa || z.zrwa_explicit || z.zrwa_rewrite > 0;
  if (!z.on()) {
    if (given)
      throw make_error("{}: the zone keys go with zones_open (the zones written at once)", o);
    return;
  }
  if (spec.pattern != Pattern::kSW && spec.pattern != Pattern::kSR)
    throw make_error("{}: zones_open writes (SW) or reads (SR) zones in order, not {}", o,
                     pattern_name(spec.pattern));
  if (spec.mix_pattern || spec.trim_share > 0 || spec.synthetic.any() || spec.increment != 1 ||
      spec.partitions != 1 || spec.pause_ns)
    throw make_error(
        "{}: a zone workload (zones_open) takes no mix, trim_share, synthetic keys, "
        "increment, partitions or pause_us",
        o);
  if (spec.pattern == Pattern::kSR && (z.append || z.finish_at != 1.0 || !z.reset || z.zrwa))
    throw make_error("{}: zone_append, zone_finish_at, zone_reset and zrwa go with writes (SW)", o);
  if (z.zrwa && z.append)
    throw make_error("{}: zrwa and zone_append: a zone with a random write area takes no appends",
                     o);
  if ((z.zrwa_explicit || z.zrwa_rewrite > 0) && !z.zrwa)
    throw make_error("{}: zrwa_flush and zrwa_rewrite go with zrwa = true", o);
  if (z.zone_capacity && z.zone_size && z.zone_capacity > z.zone_size)
    throw make_error("{}: zone_capacity ({}) is more than zone_size ({})", o, z.zone_capacity,
                     z.zone_size);
}

ZoneStream::ZoneStream(const ExperimentSpec& spec, std::uint64_t base, std::uint64_t span)
    : write_(spec.pattern == Pattern::kSW),
      append_(spec.zone.append),
      reset_(spec.zone.reset && write_),
      io_size_(spec.io_size),
      zone_size_(spec.zone.zone_size) {
  const std::uint64_t capacity = spec.zone.zone_capacity ? spec.zone.zone_capacity : zone_size_;
  if (zone_size_ == 0)
    throw make_error("{}: zones_open needs a zoned device (ftl.type = \"zoned\") or zone_size",
                     spec.origin);
  const auto limit = static_cast<std::uint64_t>(
      std::floor(static_cast<double>(capacity) * (write_ ? spec.zone.finish_at : 1.0)));
  per_zone_ = limit / io_size_;
  if (per_zone_ == 0)
    throw make_error("{}: io_size {} is more than the {} of a zone written", spec.origin,
                     format_size(io_size_), format_size(limit));
  finish_ = write_ && per_zone_ * io_size_ < capacity;
  if (write_ && spec.zone.zrwa) {
    const std::uint64_t window = spec.zone.zrwa_size;
    if (window == 0)
      throw make_error("{}: zrwa needs a device with zone random write areas (ftl.zrwa_size)",
                       spec.origin);
    if (window % io_size_ != 0)
      throw make_error("{}: io_size {} does not divide the zone random write area, {}", spec.origin,
                       format_size(io_size_), format_size(window));
    windows_ = {window / io_size_, spec.zone.zrwa_explicit, spec.zone.zrwa_rewrite};
  }
  first_zone_ = (base + zone_size_ - 1) / zone_size_;
  const std::uint64_t end_zone = (base + span) / zone_size_;
  zones_ = end_zone > first_zone_ ? end_zone - first_zone_ : 0;
  if (zones_ < spec.zone.zones_open)
    throw make_error("{}: zones_open = {}, but this process's share of the target holds {} whole "
                     "zone(s) of {}",
                     spec.origin, spec.zone.zones_open, zones_, format_size(zone_size_));
  cursors_.resize(spec.zone.zones_open);
  for (Cursor& cursor : cursors_) next_zone(cursor);
}

void ZoneStream::next_zone(Cursor& cursor) {
  cursor.zone = first_zone_ + next_;
  next_ = (next_ + 1) % zones_;
  cursor.step = reset_ ? Step::kReset : windows_.ios ? Step::kOpen : Step::kData;
  cursor.done = 0;
}

ZoneStream::Window ZoneStream::window_of(std::uint64_t io) const {
  const std::uint64_t index = io / windows_.ios;
  const std::uint64_t first = index * windows_.ios;
  const std::uint64_t n = std::min(windows_.ios, per_zone_ - first);
  std::uint64_t step = 5;  // (a step coprime to n shuffles the window's I/Os)
  while (std::gcd(step, n) != 1) ++step;
  return {index, first, n, step};
}

IoRequest ZoneStream::data(Cursor& cursor, std::uint64_t start) {
  IoRequest io{start, static_cast<std::uint32_t>(io_size_), IoMode::kRead, 0};
  io.mode = !write_ ? IoMode::kRead : append_ ? IoMode::kZoneAppend : IoMode::kWrite;
  std::uint64_t slot = cursor.done;
  if (windows_.ios) {
    // Within its window, the I/O at a shuffled position, from an offset that
    // changes with zone and window.
    const Window w = window_of(cursor.done);
    slot = w.first + ((cursor.done - w.first) * w.step + cursor.zone * 31 + w.index * 17) % w.n;
  }
  if (io.mode != IoMode::kZoneAppend) io.offset = start + slot * io_size_;
  ++cursor.done;
  if (windows_.ios) {
    const Window w = window_of(cursor.done - 1);
    if (cursor.done == w.first + w.n) {
      cursor.rewritten = 0;
      if (rewrites(w.n) > 0)
        cursor.step = Step::kRewrite;
      else
        after_window(cursor);
    }
  } else if (cursor.done == per_zone_) {
    if (finish_)
      cursor.step = Step::kFinish;
    else
      next_zone(cursor);
  }
  return io;
}

// After a window's writes and rewrites: an explicit flush (or one at the
// zone's end, where no writes of a next window commit it), unless a finish
// follows; then the next window, zone or the finish.
void ZoneStream::after_window(Cursor& cursor) {
  const bool last = cursor.done == per_zone_;
  if ((windows_.explicit_flush || last) && !(last && finish_))
    cursor.step = Step::kFlush;
  else if (!last)
    cursor.step = Step::kData;
  else if (finish_)
    cursor.step = Step::kFinish;
  else
    next_zone(cursor);
}

std::uint64_t ZoneStream::rewrites(std::uint64_t n) const {
  return static_cast<std::uint64_t>(std::llround(windows_.rewrite * static_cast<double>(n)));
}

IoRequest ZoneStream::next() {
  Cursor& cursor = cursors_[turn_];
  turn_ = (turn_ + 1) % cursors_.size();
  const std::uint64_t start = cursor.zone * zone_size_;
  IoRequest io{start, static_cast<std::uint32_t>(io_size_), IoMode::kRead, 0};
  switch (cursor.step) {
    case Step::kReset:
      io.mode = IoMode::kZoneReset;
      io.size = static_cast<std::uint32_t>(std::min<std::uint64_t>(zone_size_, 0xFFFFFFFFu));
      cursor.step = windows_.ios ? Step::kOpen : Step::kData;
      return io;
    case Step::kOpen:  // (explicitly: the zone gets a ZRWA)
      io.mode = IoMode::kZoneOpen;
      io.size = static_cast<std::uint32_t>(std::min<std::uint64_t>(zone_size_, 0xFFFFFFFFu));
      cursor.step = Step::kData;
      return io;
    case Step::kRewrite: {
      // The window just written, rewritten in part before its commit (as a
      // RAID over zones rewrites a stripe's parity).
      const Window w = window_of(cursor.done - 1);
      const std::uint64_t slot =
          w.first + (cursor.rewritten * w.step + cursor.zone * 13 + w.index * 7 + 1) % w.n;
      io.mode = IoMode::kWrite;
      io.offset = start + slot * io_size_;
      if (++cursor.rewritten == rewrites(w.n)) after_window(cursor);
      return io;
    }
    case Step::kFlush: {
      // Commits up to the end of the window just written: the range
      // [offset, offset + size) ends there (its last block is the SLBA).
      const std::uint64_t end = std::min(cursor.done, per_zone_);
      io.mode = IoMode::kZoneFlush;
      io.offset = start + (end - 1) * io_size_;
      if (cursor.done == per_zone_)
        next_zone(cursor);
      else
        cursor.step = Step::kData;
      return io;
    }
    case Step::kFinish:
      io.mode = IoMode::kZoneFinish;
      io.size = static_cast<std::uint32_t>(std::min<std::uint64_t>(zone_size_, 0xFFFFFFFFu));
      next_zone(cursor);
      return io;
    case Step::kData:
      break;
  }
  return data(cursor, start);
}

}  // namespace ssdlab::workloads
