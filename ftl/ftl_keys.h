// How an FTL declares, validates and echoes its own [ftl] keys, next to its
// code (DESIGN.md, "parameters declared where they are used").
//
// The device config (sim/config) reads the keys every FTL shares (FtlConfig's
// fields: page size, pools, over-provisioning, cleaning marks, wear) and hands
// the rest of the [ftl] table to the chosen FTL's FtlKeyHooks: `read` parses
// and checks the FTL's own keys into FtlConfig::keys, `echo` writes them into
// the config echo (summary.json, checkpoints), `describe` prints the FTL's
// lines of `ssdlab config`. A new FTL with keys of its own is one .cpp file
// (its keys struct, its hooks, its factory) plus its registry line
// (ftl/registry.cpp, or SSDLAB_REGISTER_FTL out of tree); ftl/example_ftl.cpp
// shows how, docs/reference/config.md lists the keys.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <span>
#include <string>
#include <vector>

#include "common/typed_values.h"
#include "flash/geometry.h"
#include "flash/scheduler.h"

namespace ssdlab {
class KeyReader;  // common/toml_keys.h
struct KeyDoc;    // common/toml_keys.h
struct TableDoc;  // common/toml_keys.h
}

namespace ssdlab::ftl {

struct FtlConfig;  // ftl/ftl.h

// An FTL's own parsed keys: one value per keys struct, held without ftl.h
// knowing their types. The FTL's `read` hook stores them, its factory gets
// them back (FtlConfig::keys.get<MyKeys>()). An FTL that takes another's
// keys holds both: dftl holds the page-mapped FTL's (PageMappedKeys) and its
// map cache's (DftlKeys).
using FtlKeys = TypedValues;  // (common/typed_values.h)

// What `describe` prints from: the device and its FTL config as read, the
// logical pages the host sees, and whether writes wait for foreground
// cleaning per package or per request (controller.cleaning_wait).
struct FtlDescription {
  const flash::Geometry& geometry;
  const FtlConfig& config;
  std::uint64_t logical_pages;
  flash::HostWait cleaning_wait;
};

// A part of an FTL with a config table of its own (the SLC cache:
// [slc_cache], slc_cache_keys.cpp): its reader, echo, description and
// reference rows beside the part's code. An FTL lists the parts it takes in
// its hooks (FtlKeyHooks::parts); the device config runs the parts' hooks
// and refuses a part switched on for an FTL that does not take it, naming
// the FTLs that do (ftls_taking). Its values live in FtlConfig.
struct FtlPartKeys {
  const TableDoc* table;
  const char* what;  // the part in an error ("SLC cache")
  // Reads and checks the table (for every FTL: a table switched off reads
  // as off; `on` says whether it is switched on).
  void (*read)(KeyReader& reader, const flash::Geometry& geometry, FtlConfig& config) = nullptr;
  bool (*on)(const FtlConfig& config) = nullptr;
  // When on: adds the part's table to the config echo (the whole echo) and
  // appends its lines of `ssdlab config`.
  void (*echo)(const FtlConfig& config, nlohmann::json& echo) = nullptr;
  void (*describe)(const FtlConfig& config, std::string& out) = nullptr;
};

// One FTL's key code, listed beside its factory in the registry. Each may
// be null: no keys of its own, nothing to echo, the generic description.
struct FtlKeyHooks {
  // Reads and checks the FTL's own [ftl] keys (after the shared ones, which
  // `config` already holds), into config.keys; errors through
  // reader.fail() name the file, line and key.
  void (*read)(KeyReader& reader, const flash::Geometry& geometry, FtlConfig& config) = nullptr;
  // Adds the FTL's own keys, as read, to the [ftl] table of the config echo;
  // read() must take back what echo() writes.
  void (*echo)(const FtlConfig& config, nlohmann::json& ftl_table) = nullptr;
  // Appends the FTL's lines of `ssdlab config` (each "  name        text\n").
  void (*describe)(const FtlDescription& device, std::string& out) = nullptr;
  // The parts with tables of their own the FTL takes (an SLC cache); the
  // config refuses a part switched on for an FTL that does not.
  std::span<const FtlPartKeys* const> parts;
  // The reference's rows of the keys `read` takes that no other FTL's hooks
  // document already (an FTL that reads another's keys, as dftl reads
  // page-mapped's, documents only its own): docs/reference/config.md lists
  // them under [ftl] with the FTLs that take each (ftls_reading), and a test
  // fails when an FTL reads a key no hooks document.
  std::span<const KeyDoc> keys;
  // Whether the FTL makes a one-shot wordline the unit of durability: it
  // pads the wordlines it cannot fill (Ftl::close_wordlines), so the config
  // sets FtlConfig::wordline_pages for it; one that does not takes a page
  // as on flash when its transfer ends.
  bool one_shot_wordlines = false;
};

// The hooks of an FTL with no keys of its own.
extern const FtlKeyHooks no_ftl_keys;

// The hooks of FTL `type` (built in or registered); throws ssdlab::Error for
// an unknown name. A null describe comes back as the generic description.
FtlKeyHooks ftl_key_hooks(const std::string& type);

// Every FTL's parts (FtlKeyHooks::parts), each once, in ftl_names() order;
// and the FTLs that take `part`, in that order.
std::vector<const FtlPartKeys*> ftl_parts();
std::vector<std::string> ftls_taking(const FtlPartKeys& part);

// The FTLs whose `read` hook takes `dotted` ("ftl.key"), in ftl_names() order: each
// is asked on an [ftl] table of defaults, so that an error for a key the
// chosen FTL does not take can say which FTLs do, from no list of its own.
std::vector<std::string> ftls_reading(const std::string& dotted, const flash::Geometry& geometry);

// The generic description: "ftl" (allocation pools, stripe) and
// "two-plane" lines; describe_cleaning() adds the page-level cleaning lines
// (victim policy, marks, granularity, host page placement).
void describe_pools(const FtlDescription& device, std::string& out);
// The two-plane line: the FTL's merging and, with plane interleaving, the
// flash scheduler's joining.
void describe_two_plane(const FtlDescription& device, std::string& out);
void describe_cleaning(const FtlDescription& device, std::string& out);

}  // namespace ssdlab::ftl
