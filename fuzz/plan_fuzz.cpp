// Fuzzes plan files, built-in plan overrides and inline experiments against
// a fixed device: a plan or one ssdlab::Error, nothing else.
#include <string>

#include "common/error.h"
#include "fuzz/fuzz_support.h"
#include "workloads/generator.h"
#include "workloads/plan.h"

namespace {

constexpr ssdlab::workloads::DeviceInfo kDevice{64ull << 20, 512, 64 * 4096};

void exercise(const ssdlab::workloads::Plan& plan) {
  for (const auto& spec : plan.experiments) {
    try {
      ssdlab::workloads::validate_against_device(spec, kDevice.logical_bytes, kDevice.sector_size);
    } catch (const ssdlab::Error&) {
      continue;
    }
    // A valid experiment must generate in-range I/Os.
    ssdlab::workloads::IoGenerator generator(spec, 0, kDevice.logical_bytes, 1);
    for (int i = 0; i < 16; ++i) {
      const auto io = generator.next();
      if (io.offset + io.size > kDevice.logical_bytes) __builtin_trap();
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    exercise(ssdlab::workloads::parse_plan_file(ssdlab::fuzz::write_input(data, size, ".toml"),
                                                kDevice));
  } catch (const ssdlab::Error&) {
  }
  try {
    if (text.find('\0') == std::string::npos && !text.empty()) {
      exercise(ssdlab::workloads::parse_inline(text));
      exercise(ssdlab::workloads::load_plan("uflip:granularity:" + text, kDevice));
    }
  } catch (const ssdlab::Error&) {
  }
  return 0;
}
