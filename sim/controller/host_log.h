// The host's log-structured layer over a zoned device ([host.log];
// docs/zns.md): what a file system such as F2FS or ZenFS does on a ZNS drive,
// reduced to its write path, so that a random-write workload can run on a
// zoned device and the end-to-end write amplification means something.
//
// The host sees a conventional block device of whole logical pages. Every
// write goes to the log's open zone at its write pointer (one open zone per
// placement identifier with host.log.placement_heads); the page's old copy
// becomes invalid. When fewer than `clean_at` zones are free, a write
// first waits for the log's cleaning (foreground, as F2FS's foreground
// cleaning blocks the writer): a full zone chosen by the victim policy has
// its valid pages read and written to the log's cleaning zone, then is
// reset. Every device command goes through the device's zone checks
// (zone_front.h) at the time the log issues it: reads of a victim together,
// its writes once they are back, its reset once those are done.
//
// It is a policy model, not a file system: no metadata writes, no
// checkpoints, and its map lives in host memory (power cuts are refused).
#pragma once

#include <cstdint>
#include <deque>
#include <vector>

#include "common/host_io.h"
#include "common/state_io.h"
#include "common/units.h"
#include "ftl/zones.h"
#include "records/host_log_counters.h"
#include "sim/config/host_log_config.h"

namespace ssdlab::sim {

class HostLog {
 public:
  // How the log reaches the device: a command served at `now` (returns its
  // completion), or functionally (preconditioning: no time).
  class Device {
   public:
    virtual TimeNs command(const HostIo& io, TimeNs now) = 0;
    virtual void functional(const HostIo& io) = 0;

   protected:
    ~Device() = default;
  };

  // Throws ssdlab::Error if the zones leave the log too little room.
  HostLog(const HostLogConfig& config, const ftl::ZonedDevice& zones, std::uint32_t page_size,
          Device& device, bool verify);

  std::uint64_t exported_bytes() const { return pages_ * page_size_; }
  // A host request (read, write or trim) at `now`: its completion.
  TimeNs serve(const HostIo& request, TimeNs now);
  // A host write without time (preconditioning).
  void write_functionally(std::uint64_t offset, std::uint64_t size);

  const records::HostLogCounters& counters() const { return counters_; }
  const HostLogConfig& config() const { return config_; }
  bool is_mapped(std::uint64_t page) const { return map_[page] != kNone; }
  std::uint64_t zones() const { return zones_; }

  // Checkpoints (section HLOG).
  void save_state(StateWriter& out) const;
  void load_state(StateReader& in);

 private:
  static constexpr std::uint32_t kNone = ~std::uint32_t{0};
  enum class ZoneUse : std::uint8_t { kFree, kHost, kCleaning, kFull };
  // A log head: the zone it writes and where.
  struct Head {
    std::uint32_t zone = kNone;
    std::uint32_t next = 0;  // pages written in it
  };

  // Writes host pages `first`..: from `now` (or functionally), appended at
  // `head`; returns when the device has them all.
  TimeNs append(Head& head, const std::vector<std::uint32_t>& pages, TimeNs now, bool functional);
  // Cleans zones until `target` are free; returns when done.
  TimeNs clean(TimeNs now, bool functional, std::size_t target);
  std::uint32_t victim() const;
  TimeNs read(std::uint64_t first, std::uint64_t count, TimeNs now);
  TimeNs send(IoMode mode, std::uint64_t slot, std::uint64_t pages, TimeNs now, bool functional);
  void take_zone(Head& head, bool functional, TimeNs& now);
  // The head of host writes with placement identifier `placement`.
  Head& head_of(std::uint8_t placement);
  void unmap(std::uint32_t page);
  std::uint32_t zone_of(std::uint32_t slot) const { return slot / capacity_; }

  HostLogConfig config_;
  Device& device_;
  std::uint32_t page_size_;
  std::uint32_t capacity_;            // writable pages of a zone
  std::uint64_t zone_pages_;          // pages from one zone's start to the next
  std::uint32_t zones_;
  std::uint64_t pages_;               // exported to the host
  std::vector<std::uint32_t> map_;    // host page -> slot (zone * capacity + page), or kNone
  std::vector<std::uint32_t> owner_;  // slot -> host page, or kNone
  std::vector<std::uint32_t> valid_;  // per zone
  std::vector<ZoneUse> use_;
  std::vector<std::uint64_t> filled_at_;  // per zone: host pages written when it filled
  std::deque<std::uint32_t> free_;        // free zones, taken first in, first out
  std::vector<Head> hosts_;  // one per placement identifier (HostLogConfig::placement_heads)
  Head cleaning_;
  bool warned_ = false;  // about an identifier beyond the heads
  bool is_host(const Head& head) const { return &head != &cleaning_; }
  // --verify: the version of each host page, and the one each slot holds.
  std::vector<std::uint32_t> version_, held_;
  records::HostLogCounters counters_;
};

}  // namespace ssdlab::sim
