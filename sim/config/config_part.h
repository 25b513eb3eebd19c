// The device config's tables and parts: what every table holds, as the
// reference documents it, and the registered parts' hooks.
//
// The config's core tables ([device], [geometry], [timing], [ftl], [host],
// [controller] ...) are read in config.cpp, in the order their checks need.
// A device part with keys of its own (the host link, the host log, the
// controller's cores and data path) is a ConfigPart instead, declared in its
// own file with its tables and its read, echo and describe hooks, and
// listed by one line in SSDLAB_CONFIG_PARTS (config_parts.cpp): the config
// reader hoists its sub-tables, runs its hooks in that order, and the
// reference lists its keys. This is the shape FtlKeyHooks gives an FTL's own
// keys (ftl/ftl_keys.h), whose KeyDocs the reference lists under [ftl].
//
// docs/reference/config.md's key tables are config_reference()'s output
// (`ssdlab config --keys`); the config tests fail when the page, the docs
// declared here and the keys the code reads disagree.
#pragma once

#include <nlohmann/json.hpp>
#include <span>
#include <string>
#include <string_view>

#include "common/toml_keys.h"
#include "sim/config/config.h"

namespace ssdlab::sim {

using ssdlab::TableDoc;  // (common/toml_keys.h: an FTL part's tables are documented too)

// A registered part of the device config. Each hook may be null.
struct ConfigPart {
  // Its tables; a dotted one ("controller.firmware") is a sub-table the
  // reader hoists to the top level before reading.
  std::span<const TableDoc> tables;
  // Reads and checks its keys into `config`, after the core tables (whose
  // values `config` holds); errors through reader.fail().
  void (*read)(KeyReader& reader, DeviceConfig& config) = nullptr;
  // Adds its keys, as read, to the config echo (the whole echo: a part
  // writes where its tables are); read() must take back what echo() writes.
  // Write only what is set, so that configs without the part echo as before.
  void (*echo)(const DeviceConfig& config, nlohmann::json& echo) = nullptr;
  // Appends its lines of `ssdlab config` ("  name        text\n"; none when
  // off).
  void (*describe)(const DeviceConfig& config, std::string& out) = nullptr;
};

// The parts, in the order they are read and described: the built-in ones
// (config_parts.cpp), then those registered.
std::span<const ConfigPart* const> config_parts();

// Adds `part` after the built-in parts and those registered before: its
// keys are read, echoed and described with theirs, its values stored in
// DeviceConfig::parts by their type. For a part outside the built-in list
// (a registered device part, sim/controller/device_parts.h): call it before
// the first config is read; not thread-safe; `part` (and what it points to)
// must outlive every config read. The reference (config_reference()) lists
// the built-in parts' keys only: docs/reference/config.md is ssdlab's own.
void register_config_part(const ConfigPart& part);

// The core tables, in the reference's order (config_keys.cpp).
std::span<const TableDoc> core_tables();

// The reference's key tables in Markdown: each table, core and part, with a
// row per key; [ftl]'s rows end with each FTL's own keys, marked with the
// FTLs that take them.
std::string config_reference();

}  // namespace ssdlab::sim
