#include "ftl/page_mapped_units.h"

#include <algorithm>
#include <stdexcept>

namespace ssdlab::ftl::page_mapped {

flash::Geometry unit_geometry(flash::Geometry flash, std::uint32_t units) {
  flash.page_size /= units;
  flash.oob_size /= units;
  flash.pages_per_block *= units;
  return flash;
}

void UnitPages::add(flash::Command command, flash::CommandList& out) {
  const std::uint32_t slot = command.ppn % per_page_;
  auto page = open_.end();
  if (slot == 0) {
    open_.emplace_back();
    page = open_.end() - 1;
  } else {
    page = std::find_if(open_.begin(), open_.end(), [&](const flash::CommandList& p) {
      return p.back().ppn + 1 == command.ppn;
    });
    if (page == open_.end())
      throw std::logic_error("a map unit programmed out of its page's slot order");
    command.rides = true;
  }
  page->push_back(command);
  if (slot + 1 < per_page_) return;
  out.insert(out.end(), page->begin(), page->end());
  open_.erase(page);
}

flash::Command UnitPages::next_padding() const {
  const flash::Command& last = open_.front().back();
  flash::Command padding =
      flash::page_command(flash::Op::kProgram, last.ppn + 1, flash::kNoLpn, last.stage);
  padding.cleaning = last.cleaning;
  return padding;
}

}  // namespace ssdlab::ftl::page_mapped
