#include "flash/cell.h"

namespace ssdlab::flash {
namespace {

// Default times (microseconds) and their sources; docs/reference/config.md,
// "Cell types", lists the same.
struct CellDefaults {
  std::array<double, kMaxPageTypes> read_us;       // by page type
  std::array<double, kMaxPageTypes> multi_pass_us;  // program, by page type
  double one_shot_us;                               // program of a whole wordline
  double erase_us;
  std::uint32_t pe_cycles;
};

// [F] FEMU, hw/femu/nand/nand.h (MoatLab/FEMU): MLC "profiled from Micron
//     L95B MLC NAND flash chips used in CNEX OCSSD"; TLC "based on the paper
//     SimpleSSD" (Jung et al.); QLC the TLC times scaled by 1.05, 1.1, 1.2
//     and 1.6 after Micron's FMS'19 "Component-level characterization of 3D
//     TLC, QLC, and low-latency NAND".
// [S] Samsung, fifth-generation (9x-layer) 3D TLC V-NAND, press release of
//     10 July 2018: "data write speed ... 500 microseconds", read 50 us;
//     read as the time per page (a one-shot wordline of three pages: 1500
//     us), as docs/current-devices.md does: a 500 us wordline would let the
//     970 EVO Plus 1 TB's 32 such dies write 6.3 GB/s, where Samsung gives
//     1.7 GB/s after its SLC cache.
// [G] Grupp, Davis, Swanson, "The Bleak Future of NAND Flash Memory", FAST
//     2012: "each additional bit per cell increases write latency by 4x".
// [M] MQSim (CMU-SAFARI/MQSim), ssdconfig.xml: MLC, Block_PE_Cycles_Limit 10000.
// [H] HP, "Solid State Drive Technology: Differences between SLC, MLC and TLC
//     NAND" (white paper): "TLC NAND flash is typically rated about 1K-3K cycles".
// [T] Toshiba BiCS3 64-layer QLC (2017): 1,000 P/E cycles (eTeknix, Guru3D).
const CellDefaults& defaults(CellType cell) {
  static const CellDefaults mlc{{48, 64, 0, 0},       // [F] L95B
                                {850, 2300, 0, 0},    // [F] L95B
                                3150,                 // [F] both passes of a wordline: 850 + 2300
                                3000,                 // [F] L95B
                                10000};               // [M]
  static const CellDefaults tlc{{56.5, 77.5, 106, 0},     // [F] after SimpleSSD
                                {820.5, 2225, 5734, 0},   // [F] after SimpleSSD
                                1500,                     // [S] 3 x 500 us, one-shot 3D TLC
                                3000,                     // [F]
                                3000};                    // [H] upper end, 3D TLC
  static const CellDefaults qlc{{59.325, 85.25, 127.2, 169.6},       // [F]
                                {861.525, 2447.5, 6880.8, 9174.4},   // [F]
                                6000,                                // [G] 4 x [S]'s TLC wordline
                                3000,                                // [F]
                                1000};                               // [T]
  switch (cell) {
    case CellType::kMlc:
      return mlc;
    case CellType::kQlc:
      return qlc;
    default:
      return tlc;
  }
}

// SLC mode ([A] AnandTech, "Understanding TLC NAND", 2012: SLC random read
// 25 us, programming 250 us). The erase is the block's own erase: SLC mode
// changes how a block is programmed, not how it is erased.
constexpr double kSlcModeReadUs = 25;      // [A]
constexpr double kSlcModeProgramUs = 250;  // [A]

TimeNs ns(double us) { return static_cast<TimeNs>(us * 1000.0 + 0.5); }

}  // namespace

const char* cell_type_name(CellType cell) {
  switch (cell) {
    case CellType::kSlc:
      return "slc";
    case CellType::kMlc:
      return "mlc";
    case CellType::kTlc:
      return "tlc";
    case CellType::kQlc:
      return "qlc";
  }
  return "?";
}

bool parse_cell_type(std::string_view name, CellType& out) {
  for (const CellType cell : {CellType::kSlc, CellType::kMlc, CellType::kTlc, CellType::kQlc})
    if (name == cell_type_name(cell)) {
      out = cell;
      return true;
    }
  return false;
}

const char* page_type_name(CellType cell, std::uint32_t type) {
  static constexpr const char* kNames[kMaxPageTypes][kMaxPageTypes] = {
      {"lower"}, {"lower", "upper"}, {"lower", "middle", "upper"},
      {"lower", "middle", "upper", "top"}};
  const std::uint32_t bits = bits_per_cell(cell);
  return type < bits ? kNames[bits - 1][type] : "?";
}

std::string_view page_type_list(CellType cell) {
  static constexpr std::string_view kLists[kMaxPageTypes] = {
      "lower", "lower, upper", "lower, middle, upper", "lower, middle, upper, top"};
  return kLists[bits_per_cell(cell) - 1];
}

const char* program_scheme_name(ProgramScheme scheme) {
  return scheme == ProgramScheme::kMultiPass ? "multi-pass" : "one-shot";
}

bool parse_program_scheme(std::string_view name, ProgramScheme& out) {
  if (name == "one-shot")
    out = ProgramScheme::kOneShot;
  else if (name == "multi-pass")
    out = ProgramScheme::kMultiPass;
  else
    return false;
  return true;
}

CellTiming default_cell_timing(CellType cell, ProgramScheme scheme) {
  const CellDefaults& d = defaults(cell);
  const std::uint32_t bits = bits_per_cell(cell);
  CellTiming t;
  t.program = scheme;
  for (std::uint32_t type = 0; type < bits; ++type) {
    t.read_ns[type] = ns(d.read_us[type]);
    if (scheme == ProgramScheme::kMultiPass) t.program_ns[type] = ns(d.multi_pass_us[type]);
  }
  if (scheme == ProgramScheme::kOneShot) t.program_ns[bits - 1] = ns(d.one_shot_us);
  t.erase_ns = ns(d.erase_us);
  t.slc_read_ns = ns(kSlcModeReadUs);
  t.slc_program_ns = ns(kSlcModeProgramUs);
  t.slc_erase_ns = t.erase_ns;
  return t;
}

std::uint32_t default_pe_cycles(CellType cell) {
  return cell == CellType::kSlc ? 100000 : defaults(cell).pe_cycles;  // Agrawal et al. Table 1
}

}  // namespace ssdlab::flash
