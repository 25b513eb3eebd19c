// What the host loop tells about each I/O's way through the device, for
// --io-detail (sim/views/io_detail.h): when it left the host queue, when the
// device's controller started it (Ssd::start: its flash commands are
// emitted then), when the flash part was done, and when it completed for
// the host. An I/O is named by its key: its stream and io number
// (io_key()), unique among the I/Os in flight and kept by an I/O sent
// again after a power cut. Without a listener the host loop pays one null
// check per stage.
#pragma once

#include <cstdint>
#include <string_view>

#include "common/units.h"

namespace ssdlab::sim {

inline std::uint64_t io_key(std::uint32_t stream, std::uint64_t io) {
  return std::uint64_t{stream} << 40 | (io & ((std::uint64_t{1} << 40) - 1));
}

// An io.csv row's first four columns.
struct IoRowName {
  std::string_view experiment;
  std::uint32_t run = 0, process = 0;
  std::uint64_t io = 0;
};

class IoStageListener {
 public:
  virtual ~IoStageListener() = default;
  // Left the host queue (or arrived, without one) at `at`, of tenant `flow`.
  virtual void dispatched(std::uint64_t key, std::uint16_t flow, TimeNs at) = 0;
  // The controller starts it at `at`: the commands the Ssd emits until
  // started() are its own.
  virtual void starting(std::uint64_t key, TimeNs at) = 0;
  virtual void started() = 0;
  // Its flash part (and the controller's) is done at `at`.
  virtual void flash_done(std::uint64_t key, TimeNs at) = 0;
  // It completes for the host at `at`, submitted at `submitted`.
  virtual void completed(std::uint64_t key, const IoRowName& row, TimeNs submitted, TimeNs at) = 0;
};

}  // namespace ssdlab::sim
