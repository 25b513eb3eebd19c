#include "sim/results/device_counters.h"

#include <nlohmann/json.hpp>
#include <stdexcept>
#include <vector>

#include <cmath>

namespace ssdlab::sim {
namespace {

// Combines `a` with `b` counter by counter: op(a's, b's), into a.
template <typename Op>
void combine(DeviceCounters& a, const DeviceCounters& b, Op op) {
  ftl::FtlStats& fa = a.ftl;
  const ftl::FtlStats& fb = b.ftl;
  std::vector<std::uint64_t> values;
  ftl::each_counter(fb, [&](const char*, const std::uint64_t& v) { values.push_back(v); });
  std::size_t index = 0;
  ftl::each_counter(fa, [&](const char*, std::uint64_t& v) { v = op(v, values[index++]); });
  const auto per_pool = [&](std::vector<std::uint64_t>& x, const std::vector<std::uint64_t>& y) {
    if (x.size() != y.size()) throw std::logic_error("per-pool counters of different devices");
    for (std::size_t i = 0; i < x.size(); ++i) x[i] = op(x[i], y[i]);
  };
  per_pool(fa.blocks_cleaned_per_pool, fb.blocks_cleaned_per_pool);
  per_pool(fa.wear_migrations_per_pool, fb.wear_migrations_per_pool);
  a.cleaning_ns = op(a.cleaning_ns, b.cleaning_ns);
  a.background_cleaning_ns = op(a.background_cleaning_ns, b.background_cleaning_ns);
  a.cleaning_flash_ns = op(a.cleaning_flash_ns, b.cleaning_flash_ns);
  a.host_read_flash_ns = op(a.host_read_flash_ns, b.host_read_flash_ns);
  a.host_write_flash_ns = op(a.host_write_flash_ns, b.host_write_flash_ns);
  a.host_read_accesses = op(a.host_read_accesses, b.host_read_accesses);
  a.host_write_accesses = op(a.host_write_accesses, b.host_write_accesses);
  a.queued_command_ns = op(a.queued_command_ns, b.queued_command_ns);
  a.host_bytes_written = op(a.host_bytes_written, b.host_bytes_written);
  a.two_plane_commands = op(a.two_plane_commands, b.two_plane_commands);
  a.bus_busy_ns = op(a.bus_busy_ns, b.bus_busy_ns);
  a.die_busy_ns = op(a.die_busy_ns, b.die_busy_ns);
  if (a.buffer.has_value() != b.buffer.has_value())
    throw std::logic_error("write-buffer counters of different devices");
  if (a.buffer) {
    WriteBufferStats& x = *a.buffer;
    const WriteBufferStats& y = *b.buffer;
    for (auto field : {&WriteBufferStats::write_pages, &WriteBufferStats::coalesced_pages,
                       &WriteBufferStats::read_hit_pages, &WriteBufferStats::read_miss_pages,
                       &WriteBufferStats::flushed_pages, &WriteBufferStats::flushes,
                       &WriteBufferStats::full_waits})
      x.*field = op(x.*field, y.*field);
    x.full_wait_ns = op(x.full_wait_ns, y.full_wait_ns);
  }
}

double us(TimeNs ns) { return static_cast<double>(ns) / 1000.0; }

double mean_us(TimeNs ns, std::uint64_t samples) {
  return samples == 0 ? 0.0 : us(ns) / static_cast<double>(samples);
}

}  // namespace

DeviceCounters::AccessTime DeviceCounters::access_time() const {
  const std::uint64_t cleanings = ftl.blocks_cleaned + ftl.wear_migrations;
  const TimeNs writes_ns = host_write_flash_ns + cleaning_flash_ns;
  const std::uint64_t write_samples = host_write_accesses + cleanings;
  AccessTime a;
  a.samples = host_read_accesses + write_samples;
  a.read_us = mean_us(host_read_flash_ns, host_read_accesses);
  a.write_us = mean_us(writes_ns, write_samples);
  a.mean_us = mean_us(host_read_flash_ns + writes_ns, a.samples);
  return a;
}

DeviceCounters operator-(const DeviceCounters& after, const DeviceCounters& before) {
  DeviceCounters delta = after;
  combine(delta, before, [](auto a, auto b) { return a - b; });
  return delta;
}

DeviceCounters& operator+=(DeviceCounters& sum, const DeviceCounters& more) {
  combine(sum, more, [](auto a, auto b) { return a + b; });
  return sum;
}

void to_json(nlohmann::json& json, const DeviceCounters& c) {
  const ftl::FtlStats& f = c.ftl;
  json = nlohmann::json::object();
  ftl::each_counter(f, [&json](const char* name, const std::uint64_t& v) { json[name] = v; });
  json["pages_moved"] = f.copy_backs + f.inter_plane_moves;
  json["blocks_cleaned_per_pool"] = f.blocks_cleaned_per_pool;
  json["wear_migrations_per_pool"] = f.wear_migrations_per_pool;
  json["cleaning_time_us"] = us(c.cleaning_ns);
  // Agrawal et al. Table 5 ("Avg. time" to clean a block), two ways: the
  // wall time of the (overlapping) cleaning batches per cleaned block, and
  // the serial flash time of the cleaning commands per cleaned block.
  json["cleaning_flash_time_us"] = us(c.cleaning_flash_ns);
  json["cleaning_time_per_block_us"] = c.cleaning_time_per_block_us();
  json["cleaning_flash_time_per_block_us"] = c.cleaning_flash_time_per_block_us();
  // Agrawal et al. §3.3: what background cleaning takes off the host's
  // path. Foreground: started by host writes and flushes.
  json["foreground_blocks_cleaned"] = f.blocks_cleaned - f.background_blocks_cleaned;
  json["foreground_cleaning_time_us"] = us(c.cleaning_ns - c.background_cleaning_ns);
  json["background_cleaning_time_us"] = us(c.background_cleaning_ns);
  // DiskSim's access time, the statistic of Agrawal et al.'s Table 3
  // (DeviceCounters::access_time), and the host's flash work it is made of.
  json["host_read_flash_time_us"] = us(c.host_read_flash_ns);
  json["host_write_flash_time_us"] = us(c.host_write_flash_ns);
  json["host_read_accesses"] = c.host_read_accesses;
  json["host_write_accesses"] = c.host_write_accesses;
  const DeviceCounters::AccessTime access = c.access_time();
  json["access_time_us"] = access.mean_us;
  json["read_access_time_us"] = access.read_us;
  json["write_access_time_us"] = access.write_us;
  json["access_time_samples"] = access.samples;
  // Figure 6(b)'s queue: over the run's span and the packages, the mean
  // number of commands waiting per package.
  json["queued_command_time_us"] = us(c.queued_command_ns);
  json["two_plane_commands"] = c.two_plane_commands;
  json["bus_busy_us"] = us(c.bus_busy_ns);
  json["die_busy_us"] = us(c.die_busy_ns);
  if (c.buffer) {
    const WriteBufferStats& b = *c.buffer;
    json["write_buffer_write_pages"] = b.write_pages;
    json["write_buffer_coalesced_pages"] = b.coalesced_pages;
    json["write_buffer_read_hit_pages"] = b.read_hit_pages;
    json["write_buffer_read_miss_pages"] = b.read_miss_pages;
    json["write_buffer_flushed_pages"] = b.flushed_pages;
    json["write_buffer_flushes"] = b.flushes;
    json["write_buffer_full_waits"] = b.full_waits;
    json["write_buffer_full_wait_us"] = us(b.full_wait_ns);
  }
  // Page-based (flash pages over host-touched pages: the field's meaning
  // since schema 1) and byte-based (flash bytes over host bytes).
  json["write_amplification"] = c.write_amplification();
  json["host_bytes_written"] = c.host_bytes_written;
  json["flash_bytes_written"] = c.flash_bytes_written();
  json["write_amplification_bytes"] = c.write_amplification_bytes();
  json["cleaning_efficiency"] = c.cleaning_efficiency();
  // DFTL: lookups that found their map entry cached.
  const double lookups = static_cast<double>(f.map_cache_hits + f.map_cache_misses);
  json["map_cache_hit_ratio"] = lookups > 0 ? static_cast<double>(f.map_cache_hits) / lookups : 0.0;
}

// Counters a file of an older ssdlab lacks read as 0.
DeviceCounters device_counters_from_json(const nlohmann::json& json) {
  const auto count = [&json](const char* key) { return json.value(key, std::uint64_t{0}); };
  const auto time = [&json](const char* key) {
    return json.contains(key) ? std::llround(json[key].get<double>() * 1000.0) : TimeNs{0};
  };
  const auto list = [&json](const char* key) {
    return json.value(key, std::vector<std::uint64_t>{});
  };
  DeviceCounters c;
  ftl::FtlStats& f = c.ftl;
  ftl::each_counter(f, [&count](const char* name, std::uint64_t& v) { v = count(name); });
  f.blocks_cleaned_per_pool = list("blocks_cleaned_per_pool");
  f.wear_migrations_per_pool = list("wear_migrations_per_pool");
  c.cleaning_ns = time("cleaning_time_us");
  c.background_cleaning_ns = time("background_cleaning_time_us");
  c.cleaning_flash_ns = time("cleaning_flash_time_us");
  c.host_read_flash_ns = time("host_read_flash_time_us");
  c.host_write_flash_ns = time("host_write_flash_time_us");
  c.host_read_accesses = count("host_read_accesses");
  c.host_write_accesses = count("host_write_accesses");
  c.queued_command_ns = time("queued_command_time_us");
  c.host_bytes_written = count("host_bytes_written");
  // (The page size is not a counter: flash bytes over flash pages.)
  if (f.flash_pages_written > 0)
    c.page_size = static_cast<std::uint32_t>(count("flash_bytes_written") / f.flash_pages_written);
  c.two_plane_commands = count("two_plane_commands");
  c.bus_busy_ns = time("bus_busy_us");
  c.die_busy_ns = time("die_busy_us");
  if (json.contains("write_buffer_write_pages")) {
    WriteBufferStats& b = c.buffer.emplace();
    b.write_pages = count("write_buffer_write_pages");
    b.coalesced_pages = count("write_buffer_coalesced_pages");
    b.read_hit_pages = count("write_buffer_read_hit_pages");
    b.read_miss_pages = count("write_buffer_read_miss_pages");
    b.flushed_pages = count("write_buffer_flushed_pages");
    b.flushes = count("write_buffer_flushes");
    b.full_waits = count("write_buffer_full_waits");
    b.full_wait_ns = time("write_buffer_full_wait_us");
  }
  return c;
}

}  // namespace ssdlab::sim
