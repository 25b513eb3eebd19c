#include "sim/controller/gang_reads.h"

#include <algorithm>

namespace ssdlab::sim {

void select_read_members(const flash::Geometry& geometry, std::uint64_t logical_page_size,
                         std::uint64_t offset, std::uint64_t size, flash::CommandList& commands) {
  const std::uint64_t member = geometry.page_size / geometry.members();  // data bytes
  const std::uint64_t end = offset + size;
  // Members of logical page `lpn` that hold requested bytes (0: none).
  const auto members_of = [&](flash::Lpn lpn) -> std::uint64_t {
    const std::uint64_t page = std::uint64_t{lpn} * logical_page_size;
    const std::uint64_t from = std::max(offset, page);
    const std::uint64_t to = std::min(end, page + logical_page_size);
    if (to <= from) return 0;
    return (to - page + member - 1) / member - (from - page) / member;
  };
  for (flash::Command& command : commands) {
    if (command.op != flash::Op::kRead || command.cleaning) continue;
    const std::uint64_t first = members_of(command.lpn);
    const std::uint64_t second = command.two_plane() ? members_of(command.lpn2) : 0;
    if (first == 0 || (command.two_plane() && second == 0)) continue;  // not the request's
    command.member_pages = static_cast<std::uint16_t>(first + second);
  }
}

}  // namespace ssdlab::sim
