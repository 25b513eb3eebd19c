// Flash cells of one to four bits: the cell type, its page types and the
// array times of each (DESIGN.md: timing as data, not code paths).
//
// A wordline of a cell with `bits` bits holds `bits` pages, one per page type
// (lower, middle, upper, top: a cell of two bits has lower and upper, of three
// lower, middle and upper). The model's page order: page offset p of a block
// lies on wordline p / bits and is of page type p % bits, so a block's pages
// fill one wordline after another, lower page first. Real parts interleave the
// pages of neighbouring wordlines (shared-page orders that program a lower
// page a few wordlines ahead to limit interference); this order keeps each
// page type's share and the wordline boundaries, not their exact sequence.
//
// A block run in SLC mode (an SLC cache on cells of several bits,
// flash::NandArray::set_slc) stores one bit per cell: one page per wordline,
// at offsets 0 to pages_per_block / bits - 1, each with the SLC-mode times.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

#include "common/units.h"

namespace ssdlab::flash {

enum class CellType : std::uint8_t { kSlc, kMlc, kTlc, kQlc };
inline constexpr std::uint32_t kMaxPageTypes = 4;

// Bits per cell, 1 to 4: the pages of one wordline.
constexpr std::uint32_t bits_per_cell(CellType cell) { return static_cast<std::uint32_t>(cell) + 1; }
const char* cell_type_name(CellType cell);  // "slc", "mlc", "tlc", "qlc"
// Sets `out` and returns true if `name` is a cell type's name.
bool parse_cell_type(std::string_view name, CellType& out);
// The name of page type `type` (0 to bits - 1) of `cell`: "lower", then
// "middle" (three and four bits), "upper", and "top" (four bits); a cell of
// two bits has "lower" and "upper".
const char* page_type_name(CellType cell, std::uint32_t type);
// "lower, middle, upper": the page types of `cell`, for messages.
std::string_view page_type_list(CellType cell);

// How a wordline is programmed. One-shot (3D NAND): the pages of a wordline
// are transferred in turn and the wordline is programmed once, when its last
// page has come in; the earlier pages take no array time. Multi-pass (planar
// MLC and TLC): each page is programmed as it comes, at its page type's time.
enum class ProgramScheme : std::uint8_t { kOneShot, kMultiPass };
const char* program_scheme_name(ProgramScheme scheme);  // "one-shot", "multi-pass"
bool parse_program_scheme(std::string_view name, ProgramScheme& out);

// The array times of a cell of several bits (an SLC device uses Timing's
// read_ns, program_ns and erase_ns instead).
struct CellTiming {
  ProgramScheme program = ProgramScheme::kOneShot;
  std::array<TimeNs, kMaxPageTypes> read_ns{};  // array read, by page type
  // Array program, by page type: multi-pass, each type's own; one-shot, 0 for
  // every type but the last, which is the wordline program.
  std::array<TimeNs, kMaxPageTypes> program_ns{};
  TimeNs erase_ns = 0;
  // A block in SLC mode (one bit per cell).
  TimeNs slc_read_ns = 0, slc_program_ns = 0, slc_erase_ns = 0;

  // The wordline program time of a one-shot cell of `bits` bits.
  TimeNs wordline_program_ns(std::uint32_t bits) const { return program_ns[bits - 1]; }
};

// The published times of `cell` programmed by `scheme` (sources beside each
// in cell.cpp and in docs/reference/config.md, "Cell types"). Not for kSlc.
CellTiming default_cell_timing(CellType cell, ProgramScheme scheme);
// Rated program/erase cycles of `cell` (kSlc: Agrawal et al. Table 1).
std::uint32_t default_pe_cycles(CellType cell);

}  // namespace ssdlab::flash
