// The line parsers of the formats, one file each; formats.cpp lists them by
// name. Internal to traces/.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "traces/line_parser.h"

namespace ssdlab::traces {

std::unique_ptr<LineParser> make_msr_parser(const ReadOptions& options);
std::unique_ptr<LineParser> make_disksim_parser(const ReadOptions& options);
std::unique_ptr<LineParser> make_mqsim_parser(const ReadOptions& options);
std::unique_ptr<LineParser> make_spc_parser(const ReadOptions& options);
std::unique_ptr<LineParser> make_blkparse_parser(const ReadOptions& options);
std::unique_ptr<LineParser> make_fio_parser(const ReadOptions& options);
std::unique_ptr<LineParser> make_ssdlab_csv_parser(const ReadOptions& options);

// blkparse devices are major,minor; a record's device is the kernel's
// MKDEV(major, minor), so that --trace-device can take either form.
inline std::uint32_t blkparse_device(std::uint32_t major, std::uint32_t minor) {
  return major << 20 | minor;
}
// A blkparse device as the format writes it: "major,minor" (FormatInfo::device_name).
std::string blkparse_device_name(std::uint32_t device);

}  // namespace ssdlab::traces
