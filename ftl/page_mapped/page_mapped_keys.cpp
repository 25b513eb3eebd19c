// The page-mapped FTL's own [ftl] keys (page_mapped_keys.h): read and
// checked, echoed, and described for `ssdlab config`.
#include "ftl/page_mapped/page_mapped_keys.h"

#include <fmt/format.h>

#include <initializer_list>
#include <iterator>

#include "common/toml_keys.h"
#include "ftl/block_keys.h"
#include "ftl/slc_cache_keys.h"
#include "ftl/victim_policy.h"

namespace ssdlab::ftl {
namespace {

// The reference's rows (ftl_keys.h) of the keys read_page_mapped_keys takes,
// placement's (fdp_keys.cpp) included; dftl takes them too. Its
// virtual_block_size and log_blocks are block_keys.cpp's rows.
constexpr KeyDoc kPageMappedKeys[] = {
    {"victim_policy",
     "which sealed block cleaning recycles; `greedy`, the default: fewest valid pages; "
     "`cost-benefit`, `fifo`, `random`, `d-choices`; see [Victim "
     "policies](../dftl-and-cleaning-policies.md#victim-policies-ftlvictim_policy); or the name "
     "of a policy registered by code of one's own (see [A victim policy of your "
     "own](../guide-ftl-research.md#a-victim-policy-of-your-own))"},
    {"victim_choices",
     "`d-choices`: blocks drawn per choice, 1–1024; default 8; a registered policy may take it "
     "as its one parameter"},
    {"clean_scope",
     "`pool`: one low-water mark per allocation pool, victims anywhere in it; `plane`: a mark "
     "per plane, the pool's split evenly, victims inside the plane the write goes to; default "
     "`pool` (see [Scope and "
     "granularity](../dftl-and-cleaning-policies.md#scope-and-granularity))"},
    {"clean_granularity",
     "`until-mark`: each trigger cleans until back at the mark; `one-victim`: one block per "
     "trigger; `incremental`: at most `clean_incremental_pages` page moves per page written, "
     "a victim kept in progress between writes, whole blocks only below the emergency floor "
     "of half the mark; default `until-mark`; the block-based FTLs take only `one-victim`, "
     "their default (see [Scope and "
     "granularity](../dftl-and-cleaning-policies.md#scope-and-granularity))"},
    {"clean_incremental_pages",
     "`clean_granularity = \"incremental\"` only; 1–65536, at least one logical page; "
     "default 4"},
    {"plane_choice",
     "`round-robin`: a host page goes to the next plane of its allocation pool in turn, the "
     "default; `most-free`: to the pool's plane with the most free pages for host data (its "
     "free blocks and the room in its host active block), ties in turn, as in DiskSim's "
     "model (`ssd_timing.c:566-593`); on in the agrawal presets (see [The authors' "
     "configuration](../model.md#the-authors-configuration))"},
    {"move_plane",
     "where a victim's (and a folded SLC block's) valid pages go: `victim`, the default: its "
     "own plane, another only when that one has no room (Agrawal et al. §3.2: copy-back "
     "applies); `turn`: the next plane of its allocation pool, victim after victim, as a "
     "controller that moves data through its own buffer may, so that one write's cleaning "
     "loads the pool's planes evenly; needs `copy_back = false` and `clean_scope = \"pool\"` "
     "(see [Map units](../model.md#map-units))"},
    {"summary_page",
     "with `logical_page_size` = the flash page; true: each block holds `pages_per_block - 1` "
     "data pages and a summary page, programmed with its last data page (one "
     "`host.sector_size` sector plus its share of the OOB over the bus, then a program), "
     "which the mount after a power cut reads instead of the block's every page; exported "
     "capacity counts data pages; default false; on in the agrawal presets; not with an SLC "
     "cache; block-mapped, bast and fast refuse it (see [Summary "
     "pages](../model.md#summary-pages))"},
    {"placement",
     "`none`, the default: one host active block per plane; `fdp`: NVMe Flexible Data "
     "Placement reclaim unit handles; `streams`: multi-stream writes, each stream "
     "persistently isolated; with an SLC cache, folding sorts each page into its handle's "
     "blocks (see [Flexible data placement](../fdp.md))"},
    {"fdp_handles",
     "placement handles or streams, 1–8; default 4; needs `placement` = `fdp` or `streams`"},
    {"fdp_ru_size",
     "fdp only: bytes of a reclaim unit; 0, the default, or exactly one block on each plane "
     "of a reclaim group, the one size modelled"},
    {"fdp_groups",
     "fdp only: reclaim groups; 0, the default, or the number of allocation pools, which "
     "they are"},
    {"fdp_isolation",
     "fdp only: `initially`, the default (host writes of different handles never share a "
     "block, but cleaning moves every handle's valid pages into the pool's shared cleaning "
     "blocks), or `persistently` isolated handles (cleaning moves a handle's valid pages only "
     "into its own cleaning blocks) (see [Flexible data placement](../fdp.md))"},
    {"fdp_reclaim",
     "fdp only: what cleaning reclaims; `block`, the default: the victim policy's block, "
     "whatever its reclaim unit; `unit`: whole reclaim units, the one whose blocks hold the "
     "fewest valid pages (greedy) or with the best cost-benefit score (`victim_policy` = "
     "`cost-benefit`), each of its blocks in turn; needs `clean_scope` = `pool` (see "
     "[Reclaiming whole units](../fdp.md#reclaiming-whole-units))"},
    {"fdp_ru_time_limit",
     "fdp only: TP4146's estimated reclaim unit time limit (ERUTL), whole seconds of simulated "
     "time, 0–2^30; a reclaim unit a handle keeps open longer is closed (its open wordline "
     "padded, the rest left unwritten) at the next write, and the handle moves on to a new "
     "one, counted as events 0x01 and 0x81; 0, the default: no limit (see [Reclaim unit time "
     "limit](../fdp.md#reclaim-unit-time-limit))"},
    {"map_unit",
     "not a key of its own: the map unit is `logical_page_size`, set to a part of the flash "
     "page (e.g. `\"4KiB\"`) for map units smaller than a page; `map_unit` is an error that "
     "says so (see [Map units](../model.md#map-units))"},
};

void read_victim_policy(KeyReader& r, PageMappedKeys& f) {
  std::string policy = victim_policy_name(f.victim);
  r.string("ftl", "victim_policy", policy);
  if (!parse_victim_policy(policy, f.victim)) {
    const auto [node, dotted] = r.find("ftl", "victim_policy");
    r.fail(dotted, node,
           fmt::format("'{}' is not a victim policy (allowed: {})", policy,
                       victim_policy_names()));
  }
  r.integer("ftl", "victim_choices", f.victim.choices, 1, 1024);
}

void read_cleaning(KeyReader& r, PageMappedKeys& f) {
  r.named("ftl", "clean_scope", f.clean_scope, clean_scope_name(f.clean_scope),
          parse_clean_scope, "a cleaning scope (allowed: pool, plane)");
  r.named("ftl", "plane_choice", f.plane_choice, plane_choice_name(f.plane_choice),
          parse_plane_choice, "a plane choice (allowed: round-robin, most-free)");
  r.named("ftl", "clean_granularity", f.clean_granularity,
          clean_granularity_name(f.clean_granularity), parse_clean_granularity,
          "a cleaning granularity (allowed: until-mark, one-victim, incremental)");
  if (const auto [node, dotted] = r.find("ftl", "clean_incremental_pages");
      node && f.clean_granularity != CleanGranularity::kIncremental)
    r.fail(dotted, node, "only clean_granularity = \"incremental\" uses it");
  r.integer("ftl", "clean_incremental_pages", f.clean_incremental_pages, 1, 1 << 16);
}

void read_move_plane(KeyReader& r, const FtlConfig& config, PageMappedKeys& f) {
  r.named("ftl", "move_plane", f.move_plane, move_plane_name(f.move_plane), parse_move_plane,
          "a move plane (allowed: victim, turn)");
  const auto [node, dotted] = r.find("ftl", "move_plane");
  if (f.move_plane != MovePlane::kTurn) return;
  if (config.copy_back)
    r.fail(dotted, node,
           "\"turn\" moves pages to other planes, which copy-back cannot: set copy_back = false");
  if (f.clean_scope == CleanScope::kPlane)
    r.fail(dotted, node,
           "\"turn\" moves pages to other planes, which clean_scope = \"plane\" keeps in "
           "theirs: set clean_scope = \"pool\"");
}

void read_summary_page(KeyReader& r, const flash::Geometry& g, const FtlConfig& f,
                       PageMappedKeys& keys) {
  r.boolean("ftl", "summary_page", keys.summary_page);
  const auto [node, dotted] = r.find("ftl", "summary_page");
  if (keys.summary_page && f.logical_page_size != g.page_size)
    r.fail(
        dotted, node,
        fmt::format("each data page before a block's summary page holds one logical page: it needs "
                    "logical_page_size = the {}-byte flash page (got {})",
                    g.page_size, f.logical_page_size));
  if (keys.summary_page && g.pages_per_block < 2)
    r.fail(dotted, node, "a block of one page has no room for data beside its summary page");
}

// A logical page smaller than the flash page is a map unit
// (page_mapped_units.h): a whole part of the page.
void read_map_unit(KeyReader& r, const flash::Geometry& g, const FtlConfig& f) {
  if (f.logical_page_size >= g.page_size) return;
  const auto [node, dotted] = r.find("ftl", "logical_page_size");
  if (g.page_size % f.logical_page_size != 0)
    r.fail(dotted, node,
           fmt::format("{} is below the {}-byte flash page and does not divide it: a map unit "
                       "is a whole part of the page",
                       f.logical_page_size, g.page_size));
  const std::uint64_t units =
      std::uint64_t{g.pages_per_block} * (g.page_size / f.logical_page_size);
  if (units > 0xffff)
    r.fail(dotted, node,
           fmt::format("{}-byte map units: a block of {} pages would hold {} of them, more than "
                       "the 65535 the model addresses",
                       f.logical_page_size, g.pages_per_block, units));
}

}  // namespace

const char* clean_scope_name(CleanScope scope) {
  return scope == CleanScope::kPlane ? "plane" : "pool";
}

const char* clean_granularity_name(CleanGranularity granularity) {
  switch (granularity) {
    case CleanGranularity::kUntilMark:
      return "until-mark";
    case CleanGranularity::kOneVictim:
      return "one-victim";
    case CleanGranularity::kIncremental:
      return "incremental";
  }
  return "?";
}

const char* plane_choice_name(PlaneChoice choice) {
  return choice == PlaneChoice::kMostFree ? "most-free" : "round-robin";
}

namespace {

// `out` = the one of `values` whose `name_of` is `name`; false if none is.
template <typename Enum>
bool parse_by_name(const std::string& name, std::initializer_list<Enum> values,
                   const char* (*name_of)(Enum), Enum& out) {
  for (const Enum value : values)
    if (name == name_of(value)) return out = value, true;
  return false;
}

}  // namespace

bool parse_plane_choice(const std::string& name, PlaneChoice& out) {
  return parse_by_name(name, {PlaneChoice::kRoundRobin, PlaneChoice::kMostFree}, plane_choice_name,
                       out);
}

const char* move_plane_name(MovePlane plane) {
  return plane == MovePlane::kTurn ? "turn" : "victim";
}

bool parse_move_plane(const std::string& name, MovePlane& out) {
  return parse_by_name(name, {MovePlane::kVictim, MovePlane::kTurn}, move_plane_name, out);
}

bool parse_clean_scope(const std::string& name, CleanScope& out) {
  return parse_by_name(name, {CleanScope::kPool, CleanScope::kPlane}, clean_scope_name, out);
}

bool parse_clean_granularity(const std::string& name, CleanGranularity& out) {
  return parse_by_name(
      name,
      {CleanGranularity::kUntilMark, CleanGranularity::kOneVictim, CleanGranularity::kIncremental},
      clean_granularity_name, out);
}

void read_page_mapped_keys(KeyReader& r, const flash::Geometry& g, FtlConfig& f) {
  // The map unit has its key already: the bytes one map entry maps.
  if (const auto [node, dotted] = r.find("ftl", "map_unit"); node)
    r.fail(dotted, node,
           fmt::format("the map unit is ftl.logical_page_size: set it to a part of the {}-byte "
                       "flash page (e.g. \"4KiB\") for map units smaller than a page",
                       g.page_size));
  read_map_unit(r, g, f);
  read_virtual_blocks(r, g);  // unused, not echoed; old echoes carry them
  PageMappedKeys& keys = f.keys.emplace<PageMappedKeys>();
  read_victim_policy(r, keys);
  read_cleaning(r, keys);
  read_move_plane(r, f, keys);
  read_summary_page(r, g, f, keys);
  read_placement_keys(r, g, f);
}

void echo_page_mapped_keys(const FtlConfig& config, nlohmann::json& ftl_table) {
  const PageMappedKeys& f = config.keys.get<PageMappedKeys>();
  ftl_table["victim_policy"] = victim_policy_name(f.victim);
  ftl_table["victim_choices"] = f.victim.choices;
  ftl_table["clean_scope"] = clean_scope_name(f.clean_scope);
  ftl_table["plane_choice"] = plane_choice_name(f.plane_choice);
  // (Only when on: an echo from before the key loads back the same.)
  if (f.summary_page) ftl_table["summary_page"] = true;
  ftl_table["clean_granularity"] = clean_granularity_name(f.clean_granularity);
  if (f.clean_granularity == CleanGranularity::kIncremental)
    ftl_table["clean_incremental_pages"] = f.clean_incremental_pages;
  if (f.move_plane != MovePlane::kVictim) ftl_table["move_plane"] = move_plane_name(f.move_plane);
  echo_placement_keys(config, ftl_table);
}

void describe_page_mapped_layout(const FtlDescription& d, std::string& out) {
  describe_pools(d, out);
  if (d.config.keys.get<PageMappedKeys>().summary_page)
    fmt::format_to(std::back_inserter(out),
                   "  summary     {} data pages and a summary page per block ({} bytes "
                   "over the bus); the mount reads it for a closed block\n",
                   d.geometry.pages_per_block - 1,
                   summary_page_bytes(d.geometry, d.config.sector_size));
  describe_placement(d, out);
}

// The parts it takes with tables of their own (dftl's too).
constexpr const FtlPartKeys* kWithSlcCache[] = {&slc_cache_keys};

const FtlKeyHooks page_mapped_ftl_keys{&read_page_mapped_keys,
                                       &echo_page_mapped_keys,
                                       [](const FtlDescription& d, std::string& out) {
                                         describe_page_mapped_layout(d, out);
                                         describe_cleaning(d, out);
                                       },
                                       kWithSlcCache,
                                       kPageMappedKeys,
                                       /*one_shot_wordlines=*/true};

}  // namespace ssdlab::ftl
