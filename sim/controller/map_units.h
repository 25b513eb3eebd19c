// The FTL's map-unit commands as the flash's page commands (map units
// smaller than the flash page: ftl/page_mapped/page_mapped_units.h).
//
// The FTL names units: each command one unit address and its logical page,
// the units of one flash page after its first, riding on it
// (flash::Command::rides). The verifier and the observers follow that list.
// The flash is sent one command per page: the riders are dropped, unit
// addresses become page addresses, a host read moves the read units of the
// units it reads (timing.read_transfer = "codeword": each unit's codewords;
// "page": the whole page), and a cleaning move whose units come from
// several source pages also reads those pages (each its units' codewords).
// Approximation: the move's own source page is moved out whole, as a
// move of whole pages is (flash::Op::kMove).
#pragma once

#include <cstdint>
#include <vector>

#include "flash/command.h"

namespace ssdlab::sim {

class MapUnitFlash {
 public:
  // `units_per_page` map units per flash page (1: off); a unit's read moves
  // `read_units_per_unit` read units (0: reads move whole pages).
  MapUnitFlash(std::uint32_t units_per_page, std::uint32_t read_units_per_unit)
      : per_page_(units_per_page), read_units_per_unit_(read_units_per_unit) {}

  bool on() const { return per_page_ > 1; }
  std::uint32_t units_per_page() const { return per_page_; }

  // Replaces the unit commands in `commands` by their flash commands; with
  // `carriers`, also gives each unit command the index of the flash command
  // that carries it (power-cut runs: a page's units complete together).
  void to_flash(flash::CommandList& commands, std::vector<std::uint32_t>* carriers = nullptr);

 private:
  flash::Ppn page(flash::Ppn unit) const {
    return unit == flash::kNoPage ? flash::kNoPage : unit / per_page_;
  }
  // The flash command a unit command of `op` at `unit` rides on (an index
  // into flash_), the most recent of its page.
  std::size_t carrier(flash::Ppn unit, flash::Op op) const;
  // A move rider from `src`: reads its source page unless its move reads it.
  void read_source(const flash::Command& rider, std::size_t carrier);

  std::uint32_t per_page_;
  std::uint32_t read_units_per_unit_;
  flash::CommandList flash_;  // the flash commands being built (reused)
  // Pages read by the flash commands being built: (source page, carrier).
  std::vector<std::pair<flash::Ppn, std::size_t>> sources_;
};

}  // namespace ssdlab::sim
