// Flash geometry and physical addresses.
//
// The hierarchy (DESIGN.md, Agrawal et al. §2): channels (serial buses) ->
// packages -> dies -> planes -> blocks -> pages (+ out-of-band area).
// Physical units are numbered flat and channel-major, so every unit of one
// scope (package, die, plane) owns a contiguous range of the next level:
//   package = channel * packages_per_channel + package_in_channel
//   die     = package * dies_per_package + die_in_package
//   plane   = die * planes_per_die + plane_in_die
//   block   = plane * blocks_per_plane + block_in_plane
//   ppn     = block * pages_per_block + page_in_block
#pragma once

#include <cstdint>
#include <string_view>
#include <utility>
#include <vector>

#include "common/fast_div.h"
#include "flash/cell.h"

namespace ssdlab::flash {

using Ppn = std::uint32_t;      // physical page number (flat)
using BlockId = std::uint32_t;  // physical block number (flat)
inline constexpr Ppn kNoPage = ~Ppn{0};

// How packages are wired to the controller (Agrawal et al. §3.3, Figures 4
// and 5). See README, "Ganging".
enum class Gang : std::uint8_t {
  // No gang: each channel is one bus to the controller (with several packages
  // per channel they share it, which is what a shared-bus gang is).
  kNone,
  // Figure 4: the packages of one channel share its data and control bus;
  // chip enables select the target. gang_size == packages_per_channel.
  kSharedBus,
  // Figure 5, asynchronous: gang_size channels of one package each keep their
  // own data bus but share one control bus, which carries every member's
  // command/address cycles; members allocate, clean and operate independently.
  kSharedControlAsync,
  // Figure 5, synchronous: the gang works in lockstep. The Geometry then
  // describes the gang as one unit: `channels` counts gangs, each with one
  // "package" whose page is gang_size member pages (page_size and oob_size
  // are gang_size times a member's), moved over gang_size parallel data paths.
  kSharedControlSync,
  // Figure 4 in lockstep, the gang Agrawal et al. measured in Table 4 (§4:
  // "8-wide (32KB) and 16-wide (64KB) shared-bus gangs"; DiskSim's
  // SYNC_GANG, ssdmodel/ssd.h:397-407): the packages of one bus work as one
  // unit whose page is gang_size member pages. The Geometry describes it as
  // for kSharedControlSync, one unit per gang (here: per channel, so
  // packages_per_channel is 1), but the member pages cross the one bus one
  // after another: a gang page takes gang_size member transfers, and a host
  // read moves only the member pages it asks for (Command::read_units).
  kSharedBusSync,
};
const char* gang_name(Gang gang);
// Sets `out` and returns true if `name` is a gang organisation's name.
bool parse_gang(std::string_view name, Gang& out);

// How commands on the dies and planes of one package may overlap (Agrawal et
// al. §2.2 and Figure 6: None / Dies / Plane-pairs). The flash scheduler
// (flash/scheduler.h) serves one command at a time per package (kNone), per
// die (kDies), or per die and also joins single-plane commands of different
// queued requests into two-plane commands on an allowed pair (kPlanes).
enum class Interleaving : std::uint8_t { kNone, kDies, kPlanes };
const char* interleaving_name(Interleaving interleaving);
// Sets `out` and returns true if `name` is an interleaving's name.
bool parse_interleaving(std::string_view name, Interleaving& out);

struct Geometry {
  std::uint32_t channels = 8;
  std::uint32_t packages_per_channel = 1;
  std::uint32_t dies_per_package = 2;
  std::uint32_t planes_per_die = 4;
  std::uint32_t blocks_per_plane = 2048;
  std::uint32_t pages_per_block = 64;
  std::uint32_t page_size = 4096;  // data bytes per page
  std::uint32_t oob_size = 128;    // out-of-band bytes per page
  // Plane pairs (within one die) that may run a two-plane command together.
  // Samsung K9XXG08UXM: 0&1 and 2&3 (Agrawal et al. §2).
  std::vector<std::pair<std::uint32_t, std::uint32_t>> two_plane_pairs = {{0, 1}, {2, 3}};
  // Planes one command may join: 2, a pair of two_plane_pairs; or 4, both
  // pairs of a four-plane die at once (the IMFT 64-layer QLC die's four
  // planes, bit-tech/The Tech Report: docs/current-devices.md [Q5]). With
  // 4 the pairs are two that share no plane, and the flash scheduler joins
  // a command of each pair at one page offset into one four-plane operation
  // (flash/scheduler.h, FlashTimeline::schedule_joined).
  std::uint32_t multi_plane = 2;
  std::uint32_t pe_cycles = 100000;  // rated program/erase cycles per block (Table 1)
  Gang gang = Gang::kNone;
  std::uint32_t gang_size = 1;  // packages per gang (1: no gang)
  Interleaving interleaving = Interleaving::kDies;
  // Bits per cell (flash/cell.h); the array times of a cell of several bits
  // are Timing::cell's, by page type.
  CellType cell_type = CellType::kSlc;

  std::uint32_t packages() const { return channels * packages_per_channel; }
  std::uint32_t dies() const { return packages() * dies_per_package; }
  std::uint32_t planes() const { return dies() * planes_per_die; }
  std::uint32_t blocks() const { return planes() * blocks_per_plane; }
  std::uint32_t bits_per_cell() const { return flash::bits_per_cell(cell_type); }
  std::uint64_t pages() const { return std::uint64_t{blocks()} * pages_per_block; }
  std::uint64_t capacity_bytes() const { return pages() * page_size; }
  std::uint32_t pages_per_plane() const { return blocks_per_plane * pages_per_block; }
  std::uint32_t pages_per_die() const { return pages_per_plane() * planes_per_die; }
  // True for a synchronous gang: the Geometry is its lockstep view, one unit
  // per gang whose page is the members' pages side by side.
  bool lockstep() const {
    return gang == Gang::kSharedControlSync || gang == Gang::kSharedBusSync;
  }
  // Packages that work as one unit: a synchronous gang's members (1 otherwise).
  std::uint32_t members() const { return lockstep() ? gang_size : 1; }
  // Data paths of one channel that move a page together: a synchronous
  // shared-control gang's members, each carrying its own slice of the gang
  // page (1 otherwise: a synchronous shared-bus gang's members take turns).
  std::uint32_t lanes() const { return gang == Gang::kSharedControlSync ? gang_size : 1; }
  // Physical flash packages (a synchronous gang unit counts as its members).
  std::uint32_t physical_packages() const { return packages() * members(); }
  // True if command/address cycles go over a control bus shared by gang_size
  // channels instead of each channel's own bus.
  bool shared_control_bus() const { return gang == Gang::kSharedControlAsync; }
  std::uint32_t control_buses() const {
    return shared_control_bus() ? channels / gang_size : channels;
  }
  std::uint32_t control_bus_of_channel(std::uint32_t channel) const {
    return shared_control_bus() ? channel / gang_size : channel;
  }

  BlockId block_of(Ppn ppn) const { return ppn / pages_per_block; }
  std::uint32_t page_in_block(Ppn ppn) const { return ppn % pages_per_block; }
  Ppn first_page(BlockId block) const { return block * pages_per_block; }
  std::uint32_t plane_of_block(BlockId block) const { return block / blocks_per_plane; }
  std::uint32_t plane_of(Ppn ppn) const { return ppn / pages_per_plane(); }
  std::uint32_t die_of_plane(std::uint32_t plane) const { return plane / planes_per_die; }
  std::uint32_t die_of(Ppn ppn) const { return ppn / pages_per_die(); }
  std::uint32_t package_of_die(std::uint32_t die) const { return die / dies_per_package; }
  std::uint32_t channel_of_package(std::uint32_t package) const {
    return package / packages_per_channel;
  }
  std::uint32_t channel_of_die(std::uint32_t die) const {
    return channel_of_package(package_of_die(die));
  }
  std::uint32_t plane_in_die(std::uint32_t plane) const { return plane % planes_per_die; }

  // True if planes a and b (flat numbers) are an allowed two-plane pair.
  bool is_two_plane_pair(std::uint32_t a, std::uint32_t b) const;
  // True if planes a and b (flat numbers) are of one die and of its two
  // different pairs, which a four-plane operation joins (multi_plane 4).
  bool joins_across_pairs(std::uint32_t a, std::uint32_t b) const {
    return multi_plane == 4 && a != b && die_of_plane(a) == die_of_plane(b) &&
           !is_two_plane_pair(a, b);
  }
};

// A Geometry whose address arithmetic is precomputed: block_of(), plane_of(),
// die_of() and the rest give Geometry's results with multiplications instead
// of divisions (common/fast_div.h). The classes on every command's path (the
// NAND array, the timeline, the FTLs) keep their geometry as one; a function
// that takes a `const Geometry&` gets Geometry's own arithmetic, with the same
// results. Its dimensions must not change after construction (the classes
// that keep one never change theirs).
class FastGeometry : public Geometry {
 public:
  FastGeometry() : FastGeometry(Geometry{}) {}
  FastGeometry(const Geometry& geometry);  // NOLINT(google-explicit-constructor): a view of it

  BlockId block_of(Ppn ppn) const { return per_block_.quotient(ppn); }
  std::uint32_t page_in_block(Ppn ppn) const { return per_block_.remainder(ppn); }
  std::uint32_t plane_of_block(BlockId block) const { return blocks_per_plane_.quotient(block); }
  std::uint32_t plane_of(Ppn ppn) const { return per_plane_.quotient(ppn); }
  std::uint32_t die_of_plane(std::uint32_t plane) const { return planes_per_die_.quotient(plane); }
  std::uint32_t die_of(Ppn ppn) const { return per_die_.quotient(ppn); }
  std::uint32_t package_of_die(std::uint32_t die) const { return dies_per_package_.quotient(die); }
  std::uint32_t channel_of_package(std::uint32_t package) const {
    return packages_per_channel_.quotient(package);
  }
  std::uint32_t channel_of_die(std::uint32_t die) const {
    return channel_of_package(package_of_die(die));
  }
  std::uint32_t plane_in_die(std::uint32_t plane) const { return planes_per_die_.remainder(plane); }

 private:
  FastDiv per_block_, per_plane_, per_die_;  // pages per block, plane, die
  FastDiv blocks_per_plane_, planes_per_die_, dies_per_package_, packages_per_channel_;
};

// The geometry as a config writes it: a synchronous gang's lockstep view
// undone (its members counted as packages, its page as a member's page).
Geometry as_written(const Geometry& geometry);

// Decoded address, for printing and tests.
struct PageAddress {
  std::uint32_t channel, package, die, plane, block, page;  // flat numbers, page in block
};
PageAddress decode(const Geometry& geometry, Ppn ppn);

}  // namespace ssdlab::flash
