#include "sim/controller/read_units.h"

#include <algorithm>

namespace ssdlab::sim {

void select_read_units(std::uint32_t units_per_page, std::uint64_t logical_page_size,
                       std::uint64_t offset, std::uint64_t size, flash::CommandList& commands) {
  const std::uint64_t unit = logical_page_size / units_per_page;  // data bytes
  const std::uint64_t end = offset + size;
  // Units of logical page `lpn` that hold requested bytes (0: none).
  const auto units_of = [&](flash::Lpn lpn) -> std::uint64_t {
    const std::uint64_t page = std::uint64_t{lpn} * logical_page_size;
    const std::uint64_t from = std::max(offset, page);
    const std::uint64_t to = std::min(end, page + logical_page_size);
    if (to <= from) return 0;
    return (to - page + unit - 1) / unit - (from - page) / unit;
  };
  for (flash::Command& command : commands) {
    if (command.op != flash::Op::kRead || command.cleaning) continue;
    const std::uint64_t first = units_of(command.lpn);
    const std::uint64_t second = command.two_plane() ? units_of(command.lpn2) : 0;
    if (first == 0 || (command.two_plane() && second == 0)) continue;  // not the request's
    command.read_units = static_cast<std::uint16_t>(first + second);
  }
}

}  // namespace ssdlab::sim
