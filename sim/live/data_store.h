// What a live device (live_device.h) keeps of the host's data, so that a read
// returns what was written: the model itself times requests and keeps no
// data. The store is chosen by the plugin's data= key:
//   memory            anonymous memory, reserved as pages are written
//                     (small devices; lost at exit)
//   sparse-file:PATH  a sparse file (large devices; kept across restarts,
//                     with --save-state/--load-state's device state); an
//                     existing file of another size than the device's is
//                     refused (its data would be cut or moved) unless
//                     allow-destroy=true; one the plugin creates, or an
//                     empty one, is sized to the device
//   none              nothing kept: reads return zeros (timing-only runs)
// Every call may come from several threads at once, on any ranges.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

namespace ssdlab::sim {

class DataStore {
 public:
  virtual ~DataStore() = default;
  virtual void read(void* buffer, std::uint32_t size, std::uint64_t offset) = 0;
  virtual void write(const void* buffer, std::uint32_t size, std::uint64_t offset) = 0;
  // Reads of the range return zeros from now on (a trim or a write of zeros).
  virtual void zero(std::uint32_t size, std::uint64_t offset) = 0;
  // Where the data is kept, as the data= key named it.
  virtual std::string describe() const = 0;
};

// The store `spec` names (memory, sparse-file:PATH, none) for a device of
// `bytes`. Throws ssdlab::Error "data=SPEC: what is wrong".
std::unique_ptr<DataStore> make_data_store(const std::string& spec, std::uint64_t bytes,
                                           bool allow_destroy = false);

}  // namespace ssdlab::sim
