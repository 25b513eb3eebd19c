// Flash read errors ([errors]; read_errors_config.h), a config part
// (config_part.h): the table switches the part on; its keys read and
// checked, echoed (only with the table, so that other configs echo as
// before) and described. docs/errors.md has the model and its sources.
#include <fmt/format.h>

#include <array>
#include <string>

#include "sim/config/config_part.h"
#include "sim/config/read_errors_config.h"

namespace ssdlab::sim {
namespace {

constexpr const char* kErrors = "errors";

constexpr KeyDoc kErrorKeys[] = {
    {"model",
     "`tlc-fast19` (the default for TLC and QLC cells) or `mlc-fast19` (for SLC and MLC): the "
     "raw bit error model's published set of coefficients (Kim, Choi and Min, FAST 2019)"},
    {"epsilon", "0 to 0.5: the model's constant error rate (overrides the set's)"},
    {"alpha", "0 to 1: the wear term's coefficient"},
    {"k", "0 to 10: the wear term's exponent of the P/E cycles"},
    {"beta", "0 to 1: the retention term's coefficient"},
    {"m", "0 to 10: the retention term's exponent of the P/E cycles"},
    {"n", "0 to 10: the retention term's exponent of the days since programming"},
    {"gamma", "0 to 1: the read disturb term's coefficient"},
    {"p", "0 to 10: the read disturb term's exponent of the P/E cycles"},
    {"q", "0 to 10: the read disturb term's exponent of the block's reads per page"},
    {"page_factor",
     "one number per page type (above 0 to 1000), default 1 each: the error rate's factor for "
     "lower, middle, upper and top pages"},
    {"correctable_bits",
     "1 to 2^20, required in the table: the bit errors the hard-decision decode corrects in a "
     "codeword (`timing.codeword_bytes`)"},
    {"decode_us", "0 to 10^6, default 0: the hard-decision decode's time"},
    {"decode_us_per_error", "0 to 1000, default 0: its time per bit error corrected"},
    {"retries", "0 to 64, default 0: read retries after a failed decode, each a read of its own"},
    {"retry_error_factor",
     "above 0 to 1, required with retries: the share of the errors each retry leaves"},
    {"soft_reads",
     "0 to 16, default 0: the array reads of soft-decision sensing after the retries (0: none)"},
    {"soft_correctable_bits",
     "above correctable_bits, required with soft_reads: the bit errors soft decoding corrects"},
    {"soft_decode_us", "0 to 10^6, default 0: the soft decode's time"},
    {"age_pe_cycles",
     "0 to 10^6, default 0: program/erase cycles every block has had beyond the FTL's count "
     "(`--age pe=N`)"},
    {"age_retention_days",
     "0 to 36500, default 0: how old the data on flash is when the run starts "
     "(`--age retention=Nd`)"},
    {"reclaim_reads",
     "0 to 2^32 - 1, default 0 (never): read reclaim rewrites a block once its reads since its "
     "erase reach this"},
    {"reclaim_retries",
     "0 to 64, default 0 (never): read reclaim rewrites a block once a read of it took this many "
     "retries (or more, or soft decoding)"},
    {"seed", "0 to 2^62, default 0: mixed into every error draw"},
};

bool parse_model(const std::string& name, flash::RberModel& out) {
  if (name == "tlc-fast19")
    out = flash::tlc_fast19();
  else if (name == "mlc-fast19")
    out = flash::mlc_fast19();
  else
    return false;
  return true;
}

// The published set a cell type takes by default: cells of three and four
// bits the 3D TLC set, of one and two the 2y-nm MLC set (no SLC or QLC set
// is published with them; docs/errors.md).
const char* default_model(flash::CellType cell) {
  return cell == flash::CellType::kTlc || cell == flash::CellType::kQlc ? "tlc-fast19"
                                                                        : "mlc-fast19";
}

struct Coefficient {
  const char* key;
  double flash::RberModel::*member;
  double max;
};
constexpr std::array kCoefficients = {
    Coefficient{"epsilon", &flash::RberModel::epsilon, 0.5},
    Coefficient{"alpha", &flash::RberModel::alpha, 1.0},
    Coefficient{"k", &flash::RberModel::k, 10.0},
    Coefficient{"beta", &flash::RberModel::beta, 1.0},
    Coefficient{"m", &flash::RberModel::m, 10.0},
    Coefficient{"n", &flash::RberModel::n, 10.0},
    Coefficient{"gamma", &flash::RberModel::gamma, 1.0},
    Coefficient{"p", &flash::RberModel::p, 10.0},
    Coefficient{"q", &flash::RberModel::q, 10.0},
};

void read_model(KeyReader& r, DeviceConfig& config) {
  ReadErrorsConfig& e = config.errors;
  std::string model = default_model(config.geometry.cell_type);
  r.named(kErrors, "model", e.rber, model, parse_model,
          "an error model (allowed: tlc-fast19, mlc-fast19)");
  for (const Coefficient& c : kCoefficients) r.real(kErrors, c.key, e.rber.*c.member, 0.0, c.max);
  const auto [factors, factors_key] = r.find(kErrors, "page_factor");
  if (!factors) return;
  const toml::array* list = factors->as_array();
  const std::uint32_t bits = flash::bits_per_cell(config.geometry.cell_type);
  if (!list || list->size() != bits)
    r.fail(factors_key, factors,
           fmt::format("expected {} numbers, one per page type ({})", bits,
                       flash::page_type_list(config.geometry.cell_type)));
  for (std::uint32_t i = 0; i < bits; ++i) {
    const auto value = (*list)[i].value<double>();
    if (!value || !(*value > 0) || *value > 1000)
      r.fail(factors_key, factors, fmt::format("item {} is not a number above 0 to 1000", i + 1));
    e.rber.page_factor[i] = *value;
  }
}

void read_ecc(KeyReader& r, DeviceConfig& config) {
  flash::EccModel& ecc = config.errors.ecc;
  // (The codeword is timing.codeword_bytes, what codeword reads move.)
  ecc.codeword_bytes = config.timing.codeword_bytes;
  if (const auto [node, dotted] = r.find(kErrors, "correctable_bits"); !node)
    r.fail(dotted, nullptr,
           "an [errors] table needs correctable_bits (the bit errors the ECC's hard decision "
           "corrects in a codeword of timing.codeword_bytes; --age needs a config with such a "
           "table: docs/errors.md)");
  r.integer(kErrors, "correctable_bits", ecc.correctable_bits, 1, 1 << 20);
  r.scaled(kErrors, "decode_us", ecc.decode_ns, 1000.0, 0.0, 1e6);
  r.scaled(kErrors, "decode_us_per_error", ecc.decode_ns_per_error, 1000.0, 0.0, 1e3);
  r.integer(kErrors, "retries", ecc.retries, 0, 64);
  const auto [factor, factor_key] = r.find(kErrors, "retry_error_factor");
  r.real(kErrors, "retry_error_factor", ecc.retry_error_factor, 0.0, 1.0, false);
  if (ecc.retries > 0 && !factor)
    r.fail(factor_key, nullptr,
           "read retries (errors.retries) need retry_error_factor: the share of the errors a "
           "retry leaves, above 0 to 1");
  r.integer(kErrors, "soft_reads", ecc.soft_reads, 0, 16);
  r.integer(kErrors, "soft_correctable_bits", ecc.soft_correctable_bits, 0, 1 << 20);
  r.scaled(kErrors, "soft_decode_us", ecc.soft_decode_ns, 1000.0, 0.0, 1e6);
  if (ecc.soft_reads > 0 && ecc.soft_correctable_bits <= ecc.correctable_bits) {
    const auto [node, dotted] = r.find(kErrors, "soft_correctable_bits");
    r.fail(dotted, node,
           fmt::format("soft decoding (errors.soft_reads) needs soft_correctable_bits above "
                       "correctable_bits ({})",
                       ecc.correctable_bits));
  }
}

void read_errors(KeyReader& r, DeviceConfig& config) {
  if (!r.has_table(kErrors)) {
    // Off. (Its keys are asked for all the same, as every part's are: the
    // reference's check compares the keys read with those documented.)
    for (const KeyDoc& key : kErrorKeys) r.find(kErrors, std::string(key.key).c_str());
    return;
  }
  ReadErrorsConfig& e = config.errors;
  e.enabled = true;
  read_model(r, config);
  read_ecc(r, config);
  r.real(kErrors, "age_pe_cycles", e.age_pe_cycles, 0.0, 1e6);
  r.real(kErrors, "age_retention_days", e.age_retention_days, 0.0, 36500.0);
  r.integer(kErrors, "reclaim_reads", e.reclaim_reads, 0, (std::int64_t{1} << 32) - 1);
  r.integer(kErrors, "reclaim_retries", e.reclaim_retries, 0, 64);
  r.integer(kErrors, "seed", e.seed, 0, std::int64_t{1} << 62);
}

void errors_json(const DeviceConfig& config, nlohmann::json& echo) {
  const ReadErrorsConfig& e = config.errors;
  if (!e.on()) return;
  nlohmann::json out;
  for (const Coefficient& c : kCoefficients) out[c.key] = e.rber.*c.member;
  const std::uint32_t bits = flash::bits_per_cell(config.geometry.cell_type);
  out["page_factor"] =
      std::vector<double>(e.rber.page_factor.begin(), e.rber.page_factor.begin() + bits);
  const flash::EccModel& ecc = e.ecc;
  out["correctable_bits"] = ecc.correctable_bits;
  out["decode_us"] = ecc.decode_ns / 1000.0;
  out["decode_us_per_error"] = ecc.decode_ns_per_error / 1000.0;
  out["retries"] = ecc.retries;
  if (ecc.retries > 0) out["retry_error_factor"] = ecc.retry_error_factor;
  out["soft_reads"] = ecc.soft_reads;
  if (ecc.soft_reads > 0) {
    out["soft_correctable_bits"] = ecc.soft_correctable_bits;
    out["soft_decode_us"] = ecc.soft_decode_ns / 1000.0;
  }
  out["age_pe_cycles"] = e.age_pe_cycles;
  out["age_retention_days"] = e.age_retention_days;
  out["reclaim_reads"] = e.reclaim_reads;
  out["reclaim_retries"] = e.reclaim_retries;
  out["seed"] = e.seed;
  echo["errors"] = std::move(out);
}

void describe_errors(const DeviceConfig& config, std::string& out) {
  const ReadErrorsConfig& e = config.errors;
  if (!e.on()) return;
  const flash::EccModel& ecc = e.ecc;
  out += fmt::format(
      "  errors      raw bit errors by wear, retention and reads (RBER {:.2e} fresh); ECC "
      "corrects {} bits per {} B codeword{}{}\n",
      e.rber.rber(0, 0, 0, 0), ecc.correctable_bits, ecc.codeword_bytes,
      ecc.retries ? fmt::format(", then up to {} read retries", ecc.retries) : std::string(),
      ecc.soft_reads ? fmt::format(", then soft decoding ({} reads, {} bits)", ecc.soft_reads,
                                   ecc.soft_correctable_bits)
                     : std::string());
  if (e.age_pe_cycles > 0 || e.age_retention_days > 0)
    out += fmt::format(
        "  age         {:g} program/erase cycles on every block; data on flash at the start "
        "{:g} days old\n",
        e.age_pe_cycles, e.age_retention_days);
  if (e.reclaim_reads || e.reclaim_retries)
    out += fmt::format(
        "  reclaim     a block is rewritten after {}{}{}\n",
        e.reclaim_reads ? fmt::format("{} reads", e.reclaim_reads) : "",
        e.reclaim_reads && e.reclaim_retries ? " or " : "",
        e.reclaim_retries ? fmt::format("a read that took {} retries", e.reclaim_retries) : "");
}

constexpr TableDoc kErrorTables[] = {
    {"errors", "[errors]",
     "flash read errors: raw bit errors that grow with wear, retention and reads, the ECC, read "
     "retry, soft decoding and read reclaim ([Flash errors](../errors.md)); no table (the "
     "default): every read succeeds in one array read",
     kErrorKeys},
};

}  // namespace

extern const ConfigPart read_errors_part{kErrorTables, &read_errors, &errors_json,
                                         &describe_errors};

}  // namespace ssdlab::sim
