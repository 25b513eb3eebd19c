// Internal to the config reader (config.cpp): the config file's TOML, the
// --set overrides, and the readers of its parts; the keys themselves are read
// through KeyReader (common/toml_keys.h).
#pragma once

#include <toml++/toml.h>

#include <map>
#include <set>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "common/toml_keys.h"
#include "flash/geometry.h"
#include "sim/config/config.h"

namespace ssdlab::sim::config_detail {

// The TOML of the config file at `path`; a directory, device, empty file or
// TOML error is an ssdlab::Error naming the file (and line). (config_file.cpp)
toml::table parse_config_file(const std::string& path);
// Applies "table.key=value" overrides to `root`; returns where each came from.
std::map<std::string, std::string> apply_overrides(toml::table& root,
                                                   const std::vector<std::string>& overrides);

// The config in `root` (a TOML file's, or a JSON echo's as TOML), with
// --set `overrides` applied; `path` names it in errors. `keys_read`, if
// given, receives every "table.key" the reader asked for, present or not
// (the reference's test). (config.cpp)
DeviceConfig read_config(toml::table& root, const std::string& path,
                         const std::vector<std::string>& overrides,
                         std::set<std::string>* keys_read = nullptr);

// Moves the sub-table [PARENT.NAME] (and --set PARENT.NAME.KEY) to the
// top-level table "PARENT.NAME" that KeyReader reads. (config_file.cpp)
void hoist_sub_table(toml::table& root, const std::string& parent, const std::string& name);

// geometry.gang and gang_size; a synchronous gang's geometry becomes its
// lockstep view (config_gang.cpp).
void read_gang(KeyReader& r, flash::Geometry& g);

// geometry.two_plane_pairs, and geometry.multi_plane once the interleaving
// is read (config_planes.cpp).
void read_two_plane_pairs(KeyReader& r, flash::Geometry& g);
void read_multi_plane(KeyReader& r, flash::Geometry& g);

// Cells of several bits (config_cell.cpp). hoist_cell_tables moves
// [timing.cell] and [timing.slc_mode] (and --set timing.cell.KEY) to the
// top-level tables "timing.cell" and "timing.slc_mode" that KeyReader reads;
// read_cell_type reads geometry.cell_type and sets the cell's default
// pe_cycles; check_cell_geometry wants whole wordlines per block;
// refuse_slc_time is true where Timing's single time `key` is not read (a
// cell of several bits: an error if set); read_cell_timing reads the two
// tables (an error with an SLC cell).
void hoist_cell_tables(toml::table& root);
void read_cell_type(KeyReader& r, flash::Geometry& g);
void check_cell_geometry(KeyReader& r, const flash::Geometry& g);
bool refuse_slc_time(KeyReader& r, const flash::Geometry& g, const char* key);
void read_cell_timing(KeyReader& r, const toml::table& root, const flash::Geometry& g,
                      flash::Timing& t);

}  // namespace ssdlab::sim::config_detail
