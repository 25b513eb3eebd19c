// The NAND's power ([power]; docs/model.md "Energy and thermal
// throttling"): its supply voltage and the current a die draws in each kind
// of operation, a datasheet's DC characteristics. The flash's energy by
// operation kind follows from the time the timeline spent in each
// (TimelineStats' array times, summed over planes, and the buses' busy
// time): energy = V x I x t, a die's current counted once per plane an
// operation holds.
//
// Defaults: Numonyx NAND01G-B2B / NAND02G-B2C datasheet (Rev. 2008),
// Table 23, "DC characteristics, 3 V devices": operating current 10 mA
// typical for sequential read (IDD1, at the fastest read cycle: data out
// on the bus), program (IDD2) and erase (IDD3); VDD 2.7-3.6 V, taken at
// 3.3 V. The datasheet gives no separate array-read current: a read's array
// time is taken at IDD1 too. No datasheet of a 3D NAND part was in reach:
// the TLC and QLC presets use these defaults (docs/model.md says so).
#pragma once

#include <cmath>

#include "common/units.h"
#include "records/energy_counters.h"

namespace ssdlab::flash {

struct NandPower {
  double vcc_v = 3.3;
  double read_ma = 10.0;      // array read (IDD1)
  double program_ma = 10.0;   // array program (IDD2)
  double erase_ma = 10.0;     // block erase (IDD3)
  double transfer_ma = 10.0;  // bus transfers, command cycles and data (IDD1)
  bool operator==(const NandPower&) const = default;

  // Nanojoules of `ns` at `ma` (V x mA x ns is picojoules).
  std::int64_t nj(double ma, TimeNs ns) const {
    return std::llround(vcc_v * ma * static_cast<double>(ns) / 1000.0);
  }
  // The energy of so much array time by kind (summed over planes) and bus
  // time (flash::TimelineStats counts them).
  records::EnergyCounters energy(TimeNs read_ns, TimeNs program_ns, TimeNs erase_ns,
                                 TimeNs bus_ns) const {
    return {nj(read_ma, read_ns), nj(program_ma, program_ns), nj(erase_ma, erase_ns),
            nj(transfer_ma, bus_ns)};
  }
};

}  // namespace ssdlab::flash
