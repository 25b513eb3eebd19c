// The flash's energy by operation kind (flash/nand_power.h), declared once:
// what the NAND's dies drew in array reads, programs and erases and in the
// bus transfers, each the supply voltage times the kind's datasheet current
// times the time the flash spent in it (flash::TimelineStats' array times
// and bus time). Every run reports it, as summary.json's energy_*_uj keys
// (microjoules, from nanojoule counters).
#pragma once

#include <cstdint>

#include "records/field_list.h"

namespace ssdlab::records {

struct EnergyCounters {
  std::int64_t read_nj = 0;      // array reads (and copy-back and move sources)
  std::int64_t program_nj = 0;   // array programs (and their targets)
  std::int64_t erase_nj = 0;     // block erases
  std::int64_t transfer_nj = 0;  // the channels' bus time (commands and data)
  std::int64_t total_nj() const { return read_nj + program_nj + erase_nj + transfer_nj; }
  bool operator==(const EnergyCounters&) const = default;
};

template <typename V, RecordOf<EnergyCounters> R>
void fields(V& v, R& e) {
  v.thousandths("energy_read_uj", e.read_nj);
  v.thousandths("energy_program_uj", e.program_nj);
  v.thousandths("energy_erase_uj", e.erase_nj);
  v.thousandths("energy_transfer_uj", e.transfer_nj);
  v.derived("energy_flash_uj", static_cast<double>(e.total_nj()) / 1000.0);
}

}  // namespace ssdlab::records
