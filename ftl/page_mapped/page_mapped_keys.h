// The [ftl] keys of the page-mapped FTL (page_mapped_keys.cpp): cleaning's
// scope, granularity and victim policy, the plane a host page goes to, and
// the summary page. DFTL (dftl.cpp), a page-mapped FTL with a cached map,
// takes them too and adds its map cache's.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "common/toml_keys.h"
#include "flash/geometry.h"
#include "ftl/ftl.h"
#include "ftl/victim_policy.h"

namespace ssdlab::ftl {

// Where foreground cleaning keeps its low-water mark and chooses its victims
// (`ftl.clean_scope`): per allocation pool, or per plane (Agrawal et al.
// §3.2: "if an active block and cleaning state per plane is maintained, then
// cleaning operations within the same plane can be arranged", so that moves
// are copy-backs; docs/dftl-and-cleaning-policies.md).
enum class CleanScope { kPool, kPlane };
// How much one trigger cleans (`ftl.clean_granularity`): until the pool (or
// plane) is back at its mark; one victim per trigger (per parallel unit:
// the write's plane, or the pool); or at most `clean_incremental_pages`
// page moves per host write, whole blocks only below an emergency floor.
enum class CleanGranularity { kUntilMark, kOneVictim, kIncremental };
// Which plane of its allocation pool a host page goes to (`ftl.plane_choice`):
// the next in turn, or the one with the most free pages (DiskSim's SSD model,
// ssdmodel ssd_timing.c:566-593, the model behind Agrawal et al.'s results).
// Round-robin fills the pool's planes together, so with per-plane cleaning
// they all reach their marks within a few writes and clean in a burst; the
// most free plane takes the writes after each cleaning, which staggers them.
enum class PlaneChoice { kRoundRobin, kMostFree };
const char* plane_choice_name(PlaneChoice choice);
bool parse_plane_choice(const std::string& name, PlaneChoice& out);
// Where cleaning's and folding's moves go (`ftl.move_plane`): the victim's
// own plane (Agrawal et al. §3.2, so that copy-back applies), or, each
// victim in turn, the next plane of its pool, as a controller that moves
// data through its own buffer may (no copy-back then).
enum class MovePlane { kVictim, kTurn };
const char* move_plane_name(MovePlane plane);
bool parse_move_plane(const std::string& name, MovePlane& out);
const char* clean_scope_name(CleanScope scope);
const char* clean_granularity_name(CleanGranularity granularity);
bool parse_clean_scope(const std::string& name, CleanScope& out);
bool parse_clean_granularity(const std::string& name, CleanGranularity& out);

// The page-mapped FTL's own keys (FtlConfig::keys.get<PageMappedKeys>()),
// which dftl takes too; the defaults are an FtlConfig built in code's.
struct PageMappedKeys {
  // Scope and granularity of foreground cleaning (CleanScope,
  // CleanGranularity). The block-based FTLs merge one logical block per
  // write that needs one: one-victim, the only value they take.
  CleanScope clean_scope = CleanScope::kPool;
  CleanGranularity clean_granularity = CleanGranularity::kUntilMark;
  PlaneChoice plane_choice = PlaneChoice::kRoundRobin;
  MovePlane move_plane = MovePlane::kVictim;
  // Incremental granularity: most page moves one host page write runs.
  std::uint32_t clean_incremental_pages = 4;
  // Which sealed block cleaning recycles (victim_policy.h;
  // `ftl.victim_policy`, `ftl.victim_choices`).
  VictimPolicyConfig victim;
  // `ftl.summary_page` (Agrawal et al. §3.4, DiskSim ssd.h:396 and
  // ssd_timing.c:360-372): each block keeps its last page for a summary of
  // its data pages (their logical pages and write order), programmed when
  // the last data page is; the mount reads it instead of every page's OOB.
  // Off: every page of a block holds data.
  bool summary_page = false;
};

extern const FtlKeyHooks page_mapped_ftl_keys;

void read_page_mapped_keys(KeyReader& r, const flash::Geometry& g, FtlConfig& f);
void echo_page_mapped_keys(const FtlConfig& f, nlohmann::json& ftl_table);
// The "ftl", "two-plane" and (when on) "summary" lines; the cleaning lines
// are describe_cleaning()'s (ftl_keys.h).
void describe_page_mapped_layout(const FtlDescription& device, std::string& out);

// Host-guided placement (fdp_keys.cpp; fdp_config.h): ftl.placement and ftl.fdp_*.
void read_placement_keys(KeyReader& r, const flash::Geometry& g, FtlConfig& f);
void echo_placement_keys(const FtlConfig& f, nlohmann::json& ftl_table);
void describe_placement(const FtlDescription& device, std::string& out);
// Bytes of a reclaim unit: one block on each plane of a reclaim group (a pool).
std::uint64_t reclaim_unit_bytes(const flash::Geometry& g, const FtlConfig& f);

}  // namespace ssdlab::ftl
