#include "traces/selection.h"

#include <fmt/format.h>

#include <algorithm>
#include <utility>

#include "common/checked.h"

namespace ssdlab::traces {
namespace {
// Products of two 64-bit sizes (GCC and Clang).
__extension__ typedef unsigned __int128 Uint128;
}  // namespace

Selection::Selection(TraceReader& source, const ReadOptions& options, std::uint64_t device_bytes,
                     std::uint32_t sector, Placement placement)
    : source_(source),
      options_(options),
      placement_(std::move(placement)),
      device_bytes_(device_bytes),
      sector_(sector) {}

std::optional<TraceRecord> Selection::next() {
  if (options_.limit && returned_ >= options_.limit) return std::nullopt;
  while (auto record = source_.next()) {
    if (options_.device && record->device != *options_.device) {
      ++counts_.other_device;
      continue;
    }
    if (!started_) {
      const bool early = options_.start_ns ? record->time_ns < *options_.start_ns
                                           : counts_.before_start < options_.start_requests;
      if (early) {
        ++counts_.before_start;
        continue;
      }
      started_ = true;
    }
    ++returned_;
    if (!placement_.device_base.empty()) {
      const auto base = placement_.device_base.find(record->device);
      if (base != placement_.device_base.end()) {
        const std::optional<std::uint64_t> offset = checked_add(record->offset, base->second);
        if (!offset)
          throw RequestError(fmt::format(
              "device {}'s offset {} moved up by {} (devices side by side) passes 2^64 bytes",
              record->device, record->offset, base->second));
        record->offset = *offset;
      }
    }
    return place(*record);
  }
  return std::nullopt;
}

TraceRecord Selection::place(TraceRecord record) {
  // Widen to whole sectors: the first and the last sector touched.
  const std::uint64_t begin = record.offset / sector_ * sector_;
  std::uint64_t size;
  if (record.offset < (std::uint64_t{1} << 62)) {  // no 128-bit division (__udivti3)
    const std::uint64_t end = (record.offset + record.size + sector_ - 1) / sector_ * sector_;
    size = end - begin;
  } else {
    const Uint128 end_exact = static_cast<Uint128>(record.offset) + record.size;
    const Uint128 end = (end_exact + sector_ - 1) / sector_ * sector_;
    size = static_cast<std::uint64_t>(end - begin);
  }
  if (size > device_bytes_ || size > UINT32_MAX)
    throw RequestError(fmt::format(
        "a request of {} bytes at offset {} is larger than the simulated device ({} bytes)",
        record.size, record.offset, device_bytes_));
  if (begin != record.offset || size != record.size) ++counts_.realigned;

  std::uint64_t offset = begin;
  if (options_.map == AddressMap::kModulo) {
    offset = begin < device_bytes_ ? begin : begin % device_bytes_;
  } else if (placement_.trace_span > device_bytes_) {
    const Uint128 scaled = static_cast<Uint128>(begin) * device_bytes_ / placement_.trace_span;
    offset = static_cast<std::uint64_t>(scaled) / sector_ * sector_;
  }
  // A request that would run past the end ends at the end instead (size <=
  // device_bytes_: no overflow whatever the offset).
  if (offset > device_bytes_ - size) offset = device_bytes_ - size;
  if (offset != begin) ++counts_.remapped;
  record.offset = offset;
  record.size = static_cast<std::uint32_t>(size);
  return record;
}

std::uint64_t address_span(TraceReader& reader, std::optional<std::uint32_t> device) {
  std::uint64_t span = 0;
  while (auto record = reader.next())
    if (!device || record->device == *device) span = std::max(span, record->offset + record->size);
  return span;
}

std::map<std::uint32_t, std::uint64_t> device_spans(TraceReader& reader) {
  std::map<std::uint32_t, std::uint64_t> spans;
  while (auto record = reader.next()) {
    auto& span = spans[record->device];
    span = std::max(span, record->offset + record->size);
  }
  return spans;
}

std::map<std::uint32_t, std::uint64_t> side_by_side_bases(
    const std::map<std::uint32_t, std::uint64_t>& spans, std::uint64_t align,
    std::uint64_t& total) {
  std::map<std::uint32_t, std::uint64_t> bases;
  total = 0;
  for (const auto& [device, span] : spans) {
    bases[device] = total;
    const std::optional<std::uint64_t> end = checked_add(span, align - 1);
    const std::optional<std::uint64_t> next =
        end ? checked_add(total, *end / align * align) : std::nullopt;
    if (!next)
      throw make_error(
          "devices=side-by-side: the devices' address spans add up to more than 2^64 bytes "
          "(device {} spans {} bytes, after {} bytes of the others); map them with devices=shared "
          "or replay one with device=N",
          device, span, total);
    total = *next;
  }
  return bases;
}

}  // namespace ssdlab::traces
