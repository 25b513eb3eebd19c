// Fuzzes the device config reader: any bytes give a config or one
// ssdlab::Error, never a crash, hang or sanitizer report.
#include "common/error.h"
#include "fuzz/fuzz_support.h"
#include "sim/config/config.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string& path = ssdlab::fuzz::write_input(data, size, ".toml");
  try {
    const auto config = ssdlab::sim::load_config(path);
    (void)ssdlab::sim::to_json(config);
  } catch (const ssdlab::Error&) {
  }
  return 0;
}
