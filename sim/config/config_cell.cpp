// The cell type (geometry.cell_type) and the array times of cells of several
// bits ([timing.cell], [timing.slc_mode]); flash/cell.h has the model and the
// published defaults.
#include <fmt/format.h>
#include <toml++/toml.h>

#include <array>
#include <cmath>
#include <string>
#include <vector>

#include "flash/cell.h"
#include "sim/config/config_reader.h"

namespace ssdlab::sim::config_detail {
namespace {

constexpr const char* kCellTables[] = {"cell", "slc_mode"};

// An array of one time in microseconds per page type of `cell`, into `out` (ns).
void read_per_type(KeyReader& r, const char* table, const char* key, flash::CellType cell,
                   std::array<TimeNs, flash::kMaxPageTypes>& out) {
  const auto [node, dotted] = r.find(table, key);
  if (!node) return;
  const std::uint32_t bits = flash::bits_per_cell(cell);
  const toml::array* times = node->as_array();
  if (!times)
    r.fail(dotted, node,
           fmt::format("expected an array of {} times in microseconds, one per page type ({})",
                       bits, flash::page_type_list(cell)));
  if (times->size() != bits)
    r.fail(dotted, node,
           fmt::format("has {} entr{}; a {} cell has {} page types ({})", times->size(),
                       times->size() == 1 ? "y" : "ies", flash::cell_type_name(cell), bits,
                       flash::page_type_list(cell)));
  out = {};
  for (std::uint32_t type = 0; type < bits; ++type) {
    const auto us = (*times)[type].value<double>();
    const TimeNs ns = us ? std::llround(*us * 1000.0) : 0;
    if (!us || !std::isfinite(*us) || ns <= 0 || *us > 1e7)
      r.fail(dotted, node,
             fmt::format("the {} page's time is not a number of microseconds above 0 (to 1e7)",
                         flash::page_type_name(cell, type)));
    out[type] = ns;
  }
}

}  // namespace

void hoist_cell_tables(toml::table& root) {
  for (const char* name : kCellTables) hoist_sub_table(root, "timing", name);
}

void read_cell_type(KeyReader& r, flash::Geometry& g) {
  r.named("geometry", "cell_type", g.cell_type, flash::cell_type_name(g.cell_type),
          flash::parse_cell_type, "a cell type (slc, mlc, tlc, qlc)");
  g.pe_cycles = flash::default_pe_cycles(g.cell_type);
}

void check_cell_geometry(KeyReader& r, const flash::Geometry& g) {
  if (g.pages_per_block % g.bits_per_cell() == 0) return;
  const auto [node, dotted] = r.find("geometry", "pages_per_block");
  r.fail(dotted, node,
         fmt::format("{} is not a multiple of {}, the bits per cell of a {} cell (a block holds "
                     "whole wordlines)",
                     g.pages_per_block, g.bits_per_cell(), flash::cell_type_name(g.cell_type)));
}

bool refuse_slc_time(KeyReader& r, const flash::Geometry& g, const char* key) {
  if (g.cell_type == flash::CellType::kSlc) return false;
  const auto [node, dotted] = r.find("timing", key);
  if (node)
    r.fail(dotted, node,
           fmt::format("a {} cell takes its array times from [timing.cell] (read_us per page "
                       "type, program_us, erase_us) and [timing.slc_mode]",
                       flash::cell_type_name(g.cell_type)));
  return true;
}

void read_cell_timing(KeyReader& r, const toml::table& root, const flash::Geometry& g,
                      flash::Timing& t) {
  const flash::CellType cell = g.cell_type;
  if (cell == flash::CellType::kSlc) {
    for (const char* name : kCellTables) {
      const std::string table = fmt::format("timing.{}", name);
      if (const toml::node* node = root.get(table))
        r.fail(table, node,
               "only for cells of several bits (geometry.cell_type is slc; set it to mlc, tlc or "
               "qlc)");
    }
    return;
  }
  flash::ProgramScheme scheme = flash::ProgramScheme::kOneShot;
  r.named("timing.cell", "program", scheme, flash::program_scheme_name(scheme),
          flash::parse_program_scheme, "a program scheme (one-shot, multi-pass)");
  flash::CellTiming& c = t.cell;
  c = flash::default_cell_timing(cell, scheme);
  read_per_type(r, "timing.cell", "read_us", cell, c.read_ns);
  const std::uint32_t bits = flash::bits_per_cell(cell);
  if (scheme == flash::ProgramScheme::kMultiPass) {
    read_per_type(r, "timing.cell", "program_us", cell, c.program_ns);
  } else {
    const auto [node, dotted] = r.find("timing.cell", "program_us");
    if (node && node->is_array())
      r.fail(dotted, node,
             "one-shot programs a wordline at once: one number, its program time in "
             "microseconds (program = \"multi-pass\" takes one per page type)");
    r.scaled("timing.cell", "program_us", c.program_ns[bits - 1], 1000.0, 0.0, 1e7, false);
  }
  r.scaled("timing.cell", "erase_us", c.erase_ns, 1000.0, 0.0, 1e7, false);
  r.scaled("timing.slc_mode", "read_us", c.slc_read_ns, 1000.0, 0.0, 1e6, false);
  r.scaled("timing.slc_mode", "program_us", c.slc_program_ns, 1000.0, 0.0, 1e7, false);
  c.slc_erase_ns = c.erase_ns;
  r.scaled("timing.slc_mode", "erase_us", c.slc_erase_ns, 1000.0, 0.0, 1e7, false);
  // Timing's single times, for what estimates one page's cost (the unloaded
  // latencies `ssdlab config` prints, wear and power-cut estimates): the
  // mean over the page types.
  TimeNs reads = 0, programs = 0;
  for (std::uint32_t type = 0; type < bits; ++type)
    reads += c.read_ns[type], programs += c.program_ns[type];
  t.read_ns = reads / bits;
  t.program_ns = programs / bits;
  t.erase_ns = c.erase_ns;
}

}  // namespace ssdlab::sim::config_detail
