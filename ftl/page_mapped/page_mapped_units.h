// Map units smaller than the flash page (ftl.logical_page_size dividing the
// page; issue 53 item 1): the page-mapped FTL maps, validates and cleans per
// unit, and programs whole pages of units.
//
// The FTL works on the device's unit geometry (unit_geometry()): each flash
// page is `units` consecutive unit addresses, so a block holds
// pages_per_block x units of them and block, plane and die numbers are the
// flash's own. Its map, valid counts, victim choice and out-of-band logical
// addresses (one per unit: a mount rebuilds the map per unit) are then per
// unit with no code of their own.
//
// What goes to the flash is one command per page. The units of a page are
// programmed in slot order; UnitPages holds a page's unit commands until
// its last slot is written and then appends them together: the first unit's
// command is the flash command (program, or a cleaning move), the others
// ride on it (flash::Command::rides): they carry their unit's logical page
// for the verifier and the power-cut recorder, and no flash time of their
// own. Host units fill a pool's page before the pool turns to its next
// plane, across all the runs of one call (Ftl::write_runs: a write buffer's
// flush). A page still open when the FTL's call ends is padded: its free
// slots are programmed with no data (padding_pages), as a controller that
// must program a whole page does. A cleaning victim whose moved units are
// in an open page is erased once that page is programmed: filled by the
// next victim's units, or padded when the trigger's cleaning ends
// (page_mapped_cleaning.cpp). Whether writes fill pages is then the write
// buffer's business (controller.write_buffer packs them,
// sim/controller/page_packing.h), as in a drive. The controller turns the
// unit commands into the flash's page commands (sim/controller/map_units.h).
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "flash/command.h"
#include "flash/geometry.h"

namespace ssdlab::ftl::page_mapped {

// `flash` with each page split into `units` pages of page_size / units bytes.
flash::Geometry unit_geometry(flash::Geometry flash, std::uint32_t units);

class UnitPages {
 public:
  explicit UnitPages(std::uint32_t units_per_page) : per_page_(units_per_page) {}

  bool on() const { return per_page_ > 1; }
  std::uint32_t per_page() const { return per_page_; }

  // The command of one unit (a program or a cleaning move, or padding: a
  // program of no logical page) at `command.ppn`, the next slot of its page:
  // held until the page's last slot, then the page's commands go to `out`.
  void add(const flash::Command& command, flash::CommandList& out);
  // The padding command for the next free slot of an open page (with
  // `cleaning_only`, of one cleaning writes: its moves must reach the flash
  // before their victim's erase; a host page may stay open across it), or
  // nullopt if none is open. The caller programs it (add()), which may close
  // the page.
  std::optional<flash::Command> next_padding(bool cleaning_only = false) const;
  // The padding command for the next free slot of the open page holding a
  // cleaning move to `ppn`, or nullopt if none does.
  std::optional<flash::Command> padding_of_move(flash::Ppn ppn) const;
  // Whether the unit at `ppn` is written in a page still open: its data is
  // in the controller's page buffer, not yet on flash.
  bool pending(flash::Ppn ppn) const { return open_page_of(ppn) != kNotOpen; }
  // Whether an open page holds a unit moved from [first, end) (a victim's
  // units: it is erased once none is left in the page buffer).
  bool holds_moves_from(flash::Ppn first, flash::Ppn end) const;

 private:
  // Pages partly written, oldest first: each one's slot in pool_ and, apart
  // and compact (a 4 KiB write scans it: issue 58), the unit it takes next.
  // A closed page's slot goes to free_, its list's storage kept: a page
  // opened costs no allocation once warm.
  struct OpenPage {
    flash::CommandList commands;  // in slot order
  };
  static constexpr std::size_t kNotOpen = ~std::size_t{0};
  // The place in open_ of the open page that holds the unit at `ppn` (one
  // written), or kNotOpen.
  std::size_t open_page_of(flash::Ppn ppn) const {
    for (std::size_t at = 0; at < open_next_.size(); ++at)
      if (open_next_[at] / per_page_ == ppn / per_page_ && ppn < open_next_[at]) return at;
    return kNotOpen;
  }
  // The padding of the next free slot after `page`'s last command.
  static flash::Command padding_after(const flash::CommandList& page);
  std::uint32_t per_page_;
  std::vector<OpenPage> pool_;
  std::vector<std::uint32_t> free_;
  std::vector<std::uint32_t> open_;
  std::vector<flash::Ppn> open_next_;
  // The open page add() wrote last, where it looks first: a victim's moves
  // and a host run fill one page unit after unit, while up to a page per
  // plane stays open (scanning them for every unit, preconditioning
  // tlc-client took 1.06 times the CPU).
  std::size_t last_ = 0;
};

}  // namespace ssdlab::ftl::page_mapped
