#include "traces/profile.h"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cmath>

#include "common/units.h"
#include "traces/formats.h"

namespace ssdlab::traces {

struct PageFootprint::Chunk {
  static constexpr std::uint64_t kPages = 4096;
  std::array<std::uint64_t, kPages / 64> bits{};
};

PageFootprint::PageFootprint(std::size_t max_chunks)
    : max_chunks_(max_chunks), registers_(std::size_t{1} << kRegisterBits, 0) {}
PageFootprint::~PageFootprint() = default;
PageFootprint::PageFootprint(PageFootprint&&) noexcept = default;
PageFootprint& PageFootprint::operator=(PageFootprint&&) noexcept = default;

void PageFootprint::add(std::uint64_t first_page, std::uint64_t last_page) {
  for (std::uint64_t page = first_page;; ++page) {
    add_estimate(page);
    if (exact_) {
      auto& chunk = chunks_[page / Chunk::kPages];
      if (!chunk) chunk = std::make_unique<Chunk>();
      const std::uint64_t index = page % Chunk::kPages;
      std::uint64_t& word = chunk->bits[index / 64];
      const std::uint64_t bit = std::uint64_t{1} << (index % 64);
      if (!(word & bit)) ++exact_pages_;
      word |= bit;
      if (chunks_.size() > max_chunks_) {  // the bitmap would grow without bound
        exact_ = false;
        chunks_.clear();
      }
    }
    if (page == last_page) break;
  }
}

void PageFootprint::add_estimate(std::uint64_t page) {
  // splitmix64: a well-mixed 64-bit hash, so that neighbouring pages spread.
  std::uint64_t hash = page + 0x9e3779b97f4a7c15ULL;
  hash = (hash ^ (hash >> 30)) * 0xbf58476d1ce4e5b9ULL;
  hash = (hash ^ (hash >> 27)) * 0x94d049bb133111ebULL;
  hash ^= hash >> 31;
  const std::size_t index = hash >> (64 - kRegisterBits);
  const std::uint64_t rest = hash << kRegisterBits;
  const auto rank =
      static_cast<std::uint8_t>(rest == 0 ? 64 - kRegisterBits + 1 : std::countl_zero(rest) + 1);
  registers_[index] = std::max(registers_[index], rank);
}

std::uint64_t PageFootprint::estimate() const {
  // HyperLogLog (Flajolet et al. 2007), with linear counting for small counts.
  const double m = static_cast<double>(registers_.size());
  double sum = 0;
  std::size_t zeros = 0;
  for (const std::uint8_t r : registers_) {
    sum += std::ldexp(1.0, -r);
    zeros += r == 0;
  }
  double estimate = 0.7213 / (1 + 1.079 / m) * m * m / sum;
  if (estimate <= 2.5 * m && zeros > 0) estimate = m * std::log(m / static_cast<double>(zeros));
  return static_cast<std::uint64_t>(std::llround(estimate));
}

std::uint64_t PageFootprint::pages() const {
  return exact_ ? exact_pages_ : estimate();
}

void TraceProfile::add(const TraceRecord& record) {
  if (requests == 0) {
    first_time_ns = min_time_ns = max_time_ns = record.time_ns;
    min_offset = record.offset;
  } else if (record.time_ns < last_time_ns) {
    ++decreasing;
  }
  last_time_ns = record.time_ns;
  if (record.response_ns >= 0) ++processes[record.process];  // an io.csv's rows
  not_whole_ms += record.time_ns % 1000000 != 0;
  min_time_ns = std::min(min_time_ns, record.time_ns);
  max_time_ns = std::max(max_time_ns, record.time_ns);
  ++requests;
  if (record.mode == IoMode::kTrim) {
    ++trims;  // no data moves: not in the byte counts
  } else {
    (record.is_write() ? writes : reads) += 1;
    (record.is_write() ? write_bytes : read_bytes) += record.size;
  }
  if (record.size > 0) ++sizes[static_cast<std::size_t>(std::bit_width(record.size) - 1)];
  min_offset = std::min(min_offset, record.offset);
  const std::uint64_t end = record.offset > UINT64_MAX - record.size
                                ? UINT64_MAX
                                : record.offset + record.size;  // bogus offsets saturate
  max_end = std::max(max_end, end);
  unaligned_512 += record.offset % 512 != 0 || record.size % 512 != 0;
  unaligned_4096 += record.offset % 4096 != 0 || record.size % 4096 != 0;
  sizes_not_512 += record.size % 512 != 0;
  if (record.size > 0)
    footprint.add(record.offset / PageFootprint::kPageBytes, (end - 1) / PageFootprint::kPageBytes);
}

double TraceProfile::requests_per_second() const {
  if (span_ns() <= 0 || requests < 2) return 0;
  return static_cast<double>(requests - 1) * 1e9 / static_cast<double>(span_ns());
}

double TraceProfile::bytes_per_second() const {
  if (requests == 0) return 0;
  return requests_per_second() * static_cast<double>(read_bytes + write_bytes) /
         static_cast<double>(requests);
}

void TraceProfile::add_device(std::uint32_t device) {
  const auto found = devices.find(device);
  if (found != devices.end())
    ++found->second;
  else if (devices.size() < kMaxDevices)
    devices.emplace(device, 1);
  else
    ++devices_not_listed;
}

std::string timestamp_unit_of(std::string_view format) {
  for (const auto& info : formats())
    if (format == info.name) return info.timestamp_unit;
  return "its time unit";
}

namespace {

std::string seconds(std::int64_t ns) {
  if (ns < 1000) return fmt::format("{} ns", ns);
  if (ns < 1000000) return fmt::format("{:.3f} us", ns / 1e3);
  if (ns < 1000000000) return fmt::format("{:.3f} ms", ns / 1e6);
  return fmt::format("{:.3f} s", ns / 1e9);
}

}  // namespace

std::vector<std::string> time_warnings(const TraceProfile& profile, std::string_view format) {
  std::vector<std::string> warnings;
  const std::string unit = timestamp_unit_of(format);
  const std::int64_t span = profile.span_ns();
  if (profile.requests > kShortSpanRequests && span > 0 && span < kShortSpanNs)
    warnings.push_back(fmt::format(
        "time span {} for {} requests is implausibly short: {} times are read as {}; are they "
        "in a coarser unit (e.g. seconds)?",
        seconds(span), profile.requests, format, unit));
  if (span > kLongSpanNs)
    warnings.push_back(fmt::format(
        "time span {:.1f} days is implausibly long (over a year): {} times are read as {}; are "
        "they in a finer unit (e.g. us where ms are expected)?",
        static_cast<double>(span) / 86400e9, format, unit));
  // MQSim's integer times (ns) read by mistake as DiskSim's (ms with
  // decimals): 0.14 s becomes 39 hours, too short for the year's warning.
  if (format == "disksim" && profile.requests > 1 && span > 0 && span <= kLongSpanNs &&
      profile.not_whole_ms == 0)
    warnings.push_back(fmt::format(
        "every time is a whole number, as in MQSim traces (integer ns), where DiskSim writes ms "
        "with decimals: read as DiskSim ms the trace spans {}, as MQSim ns it would span {}; if "
        "it is an MQSim trace, give --format mqsim",
        seconds(span), seconds(span / 1000000)));
  if (span > 0 && profile.requests > 1) {
    const double iops = profile.requests_per_second();
    const double bytes = profile.bytes_per_second();
    if (iops > kMaxIops || bytes > kMaxBytesPerSecond)
      warnings.push_back(fmt::format(
          "implied arrival rate {:.3g} requests/s, {:.3g} GB/s is beyond any device (10 M IOPS, "
          "100 GB/s): {} times are read as {}; check their unit",
          iops, bytes / 1e9, format, unit));
  }
  if (span == 0 && profile.requests > 1)
    warnings.push_back(fmt::format(
        "all {} requests have the same time: the trace carries no timing{} (an arrival rate "
        "cannot be told); open-loop replay submits them all at once: replay with --mode closed",
        profile.requests, format == "fio" ? " (a fio v2 iolog without wait lines)" : ""));
  return warnings;
}

std::vector<std::string> profile_warnings(const TraceProfile& profile, std::string_view format,
                                          std::optional<std::uint64_t> device_bytes) {
  std::vector<std::string> warnings = time_warnings(profile, format);
  if (profile.requests > 0 && profile.sizes_not_512 * 2 > profile.requests)
    warnings.push_back(fmt::format(
        "{} of {} request sizes ({:.0f} %) are not multiples of 512 B: are they in sectors or "
        "blocks rather than bytes?",
        profile.sizes_not_512, profile.requests,
        100.0 * static_cast<double>(profile.sizes_not_512) /
            static_cast<double>(profile.requests)));
  if (device_bytes && profile.requests > 0 && profile.max_end > *device_bytes)
    warnings.push_back(fmt::format(
        "addresses reach {} B ({}), beyond the simulated device's {} B ({}): --map scale fits "
        "the trace into it (offsets x {:.3g}, locality kept); the default --map modulo wraps "
        "them (distinct addresses may alias)",
        profile.max_end, format_size(profile.max_end), *device_bytes, format_size(*device_bytes),
        static_cast<double>(*device_bytes) / static_cast<double>(profile.max_end)));
  return warnings;
}

}  // namespace ssdlab::traces
