// The NAND's power ([power]; flash/nand_power.h), a config part
// (config_part.h): the supply voltage and the current of each kind of
// operation, from which every run's flash energy follows (summary.json's
// energy_*_uj). Without the table, the datasheet defaults of nand_power.h;
// echoed and described only where the table sets a key, so that other
// configs echo as before.
#include <fmt/format.h>

#include <array>

#include "sim/config/config_part.h"

namespace ssdlab::sim {
namespace {

constexpr const char* kPower = "power";

struct Current {
  const char* key;
  double flash::NandPower::*member;
};
constexpr std::array kKeys = {
    Current{"vcc_v", &flash::NandPower::vcc_v},
    Current{"read_ma", &flash::NandPower::read_ma},
    Current{"program_ma", &flash::NandPower::program_ma},
    Current{"erase_ma", &flash::NandPower::erase_ma},
    Current{"transfer_ma", &flash::NandPower::transfer_ma},
};

void read_power(KeyReader& r, DeviceConfig& config) {
  flash::NandPower& p = config.power;
  r.real(kPower, "vcc_v", p.vcc_v, 0.0, 12.0, false);
  for (std::size_t k = 1; k < kKeys.size(); ++k)
    r.real(kPower, kKeys[k].key, p.*kKeys[k].member, 0.0, 10000.0);
}

void power_json(const DeviceConfig& config, nlohmann::json& echo) {
  if (config.power == flash::NandPower{}) return;
  nlohmann::json out;
  for (const Current& k : kKeys) out[k.key] = config.power.*k.member;
  echo[kPower] = std::move(out);
}

void describe_power(const DeviceConfig& config, std::string& out) {
  const flash::NandPower& p = config.power;
  out += fmt::format(
      "  power       NAND at {} V: read {} mA, program {} mA, erase {} mA, transfers {} mA{}\n",
      p.vcc_v, p.read_ma, p.program_ma, p.erase_ma, p.transfer_ma,
      p == flash::NandPower{} ? " (datasheet defaults)" : "");
}

constexpr KeyDoc kPowerKeys[] = {
    {"vcc_v", "above 0 to 12, default 3.3: the NAND's supply voltage"},
    {"read_ma",
     "0 to 10^4, default 10: a die's current during an array read (and a copy-back's or move's "
     "read), per plane"},
    {"program_ma", "0 to 10^4, default 10: during an array program, per plane"},
    {"erase_ma", "0 to 10^4, default 10: during a block erase, per plane"},
    {"transfer_ma",
     "0 to 10^4, default 10: during the bus's command cycles and data transfers, per channel"},
};
constexpr TableDoc kPowerTables[] = {
    {"power", "[power]",
     "the NAND's power: every run's flash energy by operation kind (summary.json's "
     "`energy_*_uj`) is the supply voltage times the kind's current times the time the flash "
     "spent in it. No table: the defaults, a 3 V SLC datasheet's typical currents (Numonyx "
     "NAND01G-B2B, Table 23; see [Energy and thermal "
     "throttling](../model.md#energy-and-thermal-throttling))",
     kPowerKeys},
};

}  // namespace

extern const ConfigPart power_part{kPowerTables, &read_power, &power_json, &describe_power};

}  // namespace ssdlab::sim
