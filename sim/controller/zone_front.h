// The controller's zone part (docs/zns.md): on a zoned device (an FTL with
// ftl::ZonedDevice, ftl.type = "zoned") every host command is checked
// against its zone before the FTL sees it, as a ZNS drive checks it: a write
// must be at its zone's write pointer, an append names a zone's start and
// gets its address from the device, and the zone management actions
// (reset, finish, open, close) name a zone's start too. A command the drive
// would refuse is refused here with its ZNS status, changes nothing and
// costs the controller's command time.
#pragma once

#include <cstdint>

#include "common/host_io.h"
#include "common/units.h"
#include "flash/command.h"
#include "ftl/ftl.h"
#include "ftl/zones.h"

namespace ssdlab::sim {

class ZoneFront {
 public:
  // `page_size`: bytes of a logical page; `command_ns`: the time a command
  // that touches no flash takes (a refusal, an open, a close).
  ZoneFront(ftl::ZonedDevice& device, std::uint32_t page_size, TimeNs command_ns)
      : device_(device), page_size_(page_size), command_ns_(command_ns) {}

  // What the controller does with a host request.
  struct Decision {
    enum class Kind : std::uint8_t {
      kRefused,   // status says why; no flash
      kWrite,     // a write or an append admitted: `range` to the FTL
      kRead,      // `range`
      kTrim,      // advisory on a zoned device: nothing
      kCommands,  // a reset or finish: the commands appended to `out`
      kNoFlash,   // an open or close, or a reset or finish with nothing to do
      // A write into a zone random write area, or its explicit flush:
      // `range` is what it commits (count 0: nothing), to the FTL.
      kZrwa,
    };
    Kind kind = Kind::kRefused;
    ftl::ZoneStatus status = ftl::ZoneStatus::kSuccess;
    ftl::PageRange range;
    std::uint64_t offset = 0;  // the request's, or where the device put an append
  };
  Decision decide(const HostIo& request, flash::CommandList& out);

  TimeNs command_ns() const { return command_ns_; }
  const ftl::ZonedDevice& device() const { return device_; }
  // Bytes of one zone, and the first logical page of the zone of a reset.
  std::uint64_t zone_bytes() const { return device_.zone_pages() * page_size_; }
  std::uint64_t capacity_bytes() const { return device_.capacity_pages() * page_size_; }

 private:
  Decision refuse(ftl::ZoneStatus status, std::uint64_t offset);
  // The pages of [offset, offset + size), or nothing if they are not whole
  // logical pages inside the device.
  bool whole_pages(const HostIo& request, ftl::PageRange& range) const;
  Decision zone_action(const HostIo& request, flash::CommandList& out);

  ftl::ZonedDevice& device_;
  std::uint32_t page_size_;
  TimeNs command_ns_;
};

}  // namespace ssdlab::sim
