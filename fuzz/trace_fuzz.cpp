// Fuzzes every trace reader and format detection, plain and through the
// decompressors (the input's first byte picks the format): records or one
// ssdlab::Error, never a crash, hang or sanitizer report.
#include "common/error.h"
#include "fuzz/fuzz_support.h"
#include "traces/formats.h"
#include "traces/trace_file.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const auto& all = ssdlab::traces::formats();
  const std::size_t choice = data[0] % (all.size() + 1);  // the last one: detection
  const std::string& path = ssdlab::fuzz::write_input(data + 1, size - 1, ".trace");
  ssdlab::traces::ReadOptions options;
  options.skip_bad = (data[0] & 0x80) != 0;
  try {
    options.format =
        choice < all.size() ? all[choice].name : ssdlab::traces::detect_format(path, options);
    ssdlab::traces::TraceFile file(path, options);
    while (const auto record = file.next()) {
      if (record->time_ns < 0 && record->time_ns != INT64_MIN) {
        // Times may be negative in a broken trace; the reader must not
        // crash on them, and nothing else is asserted here.
      }
    }
  } catch (const ssdlab::Error&) {
  }
  return 0;
}
