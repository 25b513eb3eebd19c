#include "sim/state/power_cut_plan.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <set>
#include <string_view>

#include "common/error.h"
#include "common/rng.h"

namespace ssdlab::sim {
namespace {

// "1.5s", "250ms", "300us", "1000ns" -> nanoseconds; nullopt if not a time.
std::optional<TimeNs> parse_time(std::string_view text) {
  static constexpr std::pair<std::string_view, double> kUnits[] = {
      {"ns", 1.0}, {"us", 1e3}, {"ms", 1e6}, {"s", 1e9}};
  for (const auto& [suffix, scale] : kUnits) {
    if (text.size() <= suffix.size() || !text.ends_with(suffix)) continue;
    const std::string_view number = text.substr(0, text.size() - suffix.size());
    double value = 0;
    const auto [end, error] = std::from_chars(number.data(), number.data() + number.size(), value);
    if (error != std::errc() || end != number.data() + number.size() || !std::isfinite(value) ||
        value < 0 || value * scale > 9e18)
      return std::nullopt;
    return static_cast<TimeNs>(std::llround(value * scale));
  }
  return std::nullopt;
}

std::optional<std::uint64_t> parse_count(std::string_view text) {
  std::uint64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || error != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

}  // namespace

PowerCutPlan parse_power_cuts(const std::vector<std::string>& specs, std::uint64_t total_ios,
                              std::uint64_t seed) {
  PowerCutPlan plan;
  std::set<std::uint64_t> ios;
  Rng rng(seed ^ 0x706f776572ULL);  // "power": its own stream
  for (const std::string& spec : specs) {
    const std::string_view text(spec);
    if (text.starts_with("random:")) {
      const auto count = parse_count(text.substr(7));
      if (!count || *count == 0)
        throw make_error("--power-cut-at '{}': expected random:K with K a positive whole number",
                         spec);
      if (*count + ios.size() > total_ios)
        throw make_error("--power-cut-at '{}': the workload issues only {} I/Os ({} already cut)",
                         spec, total_ios, ios.size());
      for (std::uint64_t added = 0; added < *count;) {
        const std::uint64_t io = rng.uniform(total_ios);
        if (!ios.insert(io).second) continue;
        plan.ios.push_back({io, static_cast<double>(rng.uniform(1u << 20)) / (1u << 20)});
        ++added;
      }
    } else if (const auto io = parse_count(text)) {
      if (*io >= total_ios)
        throw make_error("--power-cut-at {}: the workload issues only {} I/Os (0 to {})", spec,
                         total_ios, total_ios - 1);
      if (!ios.insert(*io).second)
        throw make_error("--power-cut-at {}: that I/O already has a cut", spec);
      plan.ios.push_back({*io, 0.5});
    } else if (const auto at = parse_time(text)) {
      plan.times.push_back(*at);
    } else {
      throw make_error(
          "--power-cut-at '{}': expected an I/O number (12345), a simulated time (1.5s, 250ms, "
          "300us, 1000ns) or random:K",
          spec);
    }
  }
  return plan;
}

PowerCutsRecord power_cuts_record(const Simulator& simulator) {
  PowerCutsRecord r;
  TimeNs scan = 0, mount = 0, longest = 0, hold_up = 0;
  for (const PowerCutReport& cut : simulator.power_cuts()) {
    r.recovered += cut.recovered();
    r.lost_writes += cut.lost_writes + cut.resurrected_pages;
    r.scan_pages += cut.pages_scanned;
    scan += cut.scan_ns;
    mount += cut.mount_done - cut.at;
    longest = std::max(longest, cut.mount_done - cut.at);
    r.requests_resubmitted += cut.requests_resubmitted;
    r.buffered_writes_lost += cut.buffered_writes_lost;
    r.paired_pages_lost += cut.paired_pages_lost;
    hold_up += cut.hold_up_ns;
    PowerCutRecord& c = r.cuts.emplace_back();
    c.at_us = cut.at / 1000.0;
    c.scan_pages = cut.pages_scanned;
    c.scan_time_us = cut.scan_ns / 1000.0;
    c.mount_merge_time_us = cut.merge_ns / 1000.0;
    c.hold_up_time_us = cut.hold_up_ns / 1000.0;
    c.mount_time_us = (cut.mount_done - cut.at) / 1000.0;
    c.mount_commands = cut.mount_commands;
    c.torn_pages = cut.torn_pages;
    c.erases_undone = cut.erases_undone;
    c.writes_in_flight = cut.writes_in_flight;
    c.requests_resubmitted = cut.requests_resubmitted;
    c.pages_checked = cut.pages_checked;
    c.lost_writes = cut.lost_writes + cut.resurrected_pages;
    c.buffered_writes_lost = cut.buffered_writes_lost;
    c.paired_pages_lost = cut.paired_pages_lost;
  }
  r.count = r.cuts.size();
  r.not_reached = simulator.power_cuts_not_reached();
  r.scan_time_us = scan / 1000.0;
  r.hold_up_time_us = hold_up / 1000.0;
  r.mean_mount_time_us =
      static_cast<double>(mount) / 1000.0 / std::max<double>(1.0, static_cast<double>(r.count));
  r.max_mount_time_us = longest / 1000.0;
  return r;
}

}  // namespace ssdlab::sim
