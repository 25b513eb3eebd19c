// The host's log-structured layer over a zoned device ([host.log];
// sim/controller/host_log.h, docs/zns.md). Off by default (no [host.log]).
#pragma once

#include <cstdint>

namespace ssdlab::sim {

struct HostLogConfig {
  // The share of the zones' capacity the log keeps from the host: the room
  // its cleaning works in. 0: no host log (the default).
  double overprovisioning = 0;
  // Which full zone the log cleans: the one with the fewest valid pages
  // (greedy), or the best (1 - u) * age / (1 + u) (cost-benefit: Rosenblum
  // and Ousterhout, "The Design and Implementation of a Log-Structured File
  // System", SOSP 1991, §3.5; age in host pages written since the zone filled).
  enum class Victim : std::uint8_t { kGreedy, kCostBenefit };
  Victim victim = Victim::kGreedy;
  // Cleaning starts before a write when fewer zones than this are free, and
  // runs until this many are (F2FS's reserved segments play this part).
  std::uint32_t clean_at = 2;
  // Open zones for host writes, one per placement identifier 0..heads-1
  // (HostIo::placement: a plan's placement_id), as a log that separates data
  // by lifetime keeps a log head per temperature (F2FS's hot, warm and cold
  // logs; ZenFS's zones per lifetime hint). A write's identifier beyond them
  // goes to the last head, with a warning. 1: one head for all (the default).
  std::uint32_t placement_heads = 1;

  bool on() const { return overprovisioning > 0; }
};

const char* host_log_victim_name(HostLogConfig::Victim victim);

}  // namespace ssdlab::sim
