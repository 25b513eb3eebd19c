// Four-plane operations on the flash timeline (flash/timeline.h,
// schedule_joined(); Geometry::multi_plane 4).
#include <algorithm>

#include "flash/timeline.h"

namespace ssdlab::flash {

TimeNs FlashTimeline::schedule_joined(const Command& a, const Command& b, TimeNs ready,
                                      bool program_half) {
  // (A move's read half counted them.)
  if (!program_half) {
    count_elsewhere(a);
    count_elsewhere(b);
  }
  ++stats_.four_plane_commands;
  current_ = &a;
  joined_ = &b;
  const std::uint32_t die = geometry_.die_of(a.ppn);
  const auto pages = [](const Command& c) -> TimeNs { return c.two_plane() ? 2 : 1; };
  TimeNs end = ready;
  switch (a.op) {
    case Op::kRead:
      end = read_out(die, ready, read_transfer_ns(a) + read_transfer_ns(b),
                     std::max(read_command_array_ns(a), read_command_array_ns(b)));
      break;
    case Op::kProgram:
      end = program_in(die, ready, program_transfer_ns(a) + program_transfer_ns(b),
                       std::max(program_array_ns(a.ppn), program_array_ns(b.ppn)));
      break;
    case Op::kErase:
      end = array_only(die, ready, std::max(erase_array_ns(a.ppn), erase_array_ns(b.ppn)),
                       Phase::kArrayErase);
      break;
    case Op::kCopyBack:
      end = array_only(die, ready,
                       std::max(read_array_ns(a.src) + program_array_ns(a.ppn),
                                read_array_ns(b.src) + program_array_ns(b.ppn)),
                       Phase::kCopyBack);
      break;
    case Op::kMove: {
      // Both's sources in one four-plane read, then one four-plane program.
      const TimeNs transfer = page_transfer_ns_ * (pages(a) + pages(b));
      const TimeNs read = program_half
                              ? ready
                              : read_out(geometry_.die_of(a.src), ready, transfer,
                                         std::max(read_array_ns(a.src), read_array_ns(b.src)));
      end = program_in(die, read, transfer,
                       std::max(program_array_ns(a.ppn), program_array_ns(b.ppn)));
      break;
    }
  }
  joined_ = nullptr;
  return end;
}

}  // namespace ssdlab::flash
