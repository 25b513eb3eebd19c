// The core tables of the device config as the reference documents them
// (config_part.h): a KeyDoc per key the core reader (config.cpp,
// config_cell.cpp, config_gang.cpp, config_host.cpp) reads; the FTL parts' tables sit
// with their parts (ftl/slc_cache_keys.cpp).
#include "sim/config/config_part.h"

namespace ssdlab::sim {
namespace {

constexpr KeyDoc kDevice[] = {
    {"name",
     "the device's name, printed after the file name on the first line of `ssdlab config`; "
     "default none"},
};

constexpr KeyDoc kGeometry[] = {
    {"channels", "buses, 1–1024; default 8"},
    {"packages_per_channel", "packages on each bus, 1–64; default 1"},
    {"dies_per_package", "1–16; default 2"},
    {"planes_per_die", "1–16; default 4"},
    {"blocks_per_plane",
     "1–2^20; default 2048; the device must have fewer than 2^32 pages, which ssdlab "
     "addresses"},
    {"pages_per_block",
     "1–4096; default 64; a multiple of the bits per cell (a block holds whole wordlines; see "
     "[Cell types](#cell-types))"},
    {"page_size",
     "data bytes per page: a multiple of 512, from 512 to 65536 (an integer or a size such as "
     "`\"4KiB\"`); default 4096"},
    {"oob_size", "out-of-band bytes per page, 0 to 8192; default 128"},
    {"two_plane_pairs",
     "the plane pairs of a die that may run a two-plane command together, e.g. "
     "`[[0,1],[2,3]]`, each two different planes of a die; default `[[0,1],[2,3]]` (Samsung "
     "K9XXG08UXM, Agrawal et al. §2) less the pairs whose planes the die lacks; `[]`: none"},
    {"multi_plane",
     "planes one command may join: `2` (a pair of `two_plane_pairs`, the default) or `4` (both "
     "pairs of a four-plane die in one operation: needs `planes_per_die = 4`, two pairs that "
     "share no plane and `interleaving = \"planes\"`); see [The flash "
     "scheduler](../model.md#the-flash-scheduler)"},
    {"pe_cycles",
     "rated program/erase cycles per block, 1–10^9; default by cell type (100000 on `slc`; "
     "see [Cell types](#cell-types))"},
    {"cell_type", "`slc`, the default, `mlc`, `tlc`, `qlc`; see [Cell types](#cell-types)"},
    {"gang",
     "`none` (the default), `shared-bus`, `shared-bus-sync`, `shared-control-async`, "
     "`shared-control-sync` (see [Ganging](../model.md#ganging))"},
    {"gang_size",
     "packages per gang, 1–1024 (see [Ganging](../model.md#ganging)); default 1, or "
     "`packages_per_channel` with a shared-bus gang, whose gang is the packages of one bus: "
     "it must equal `packages_per_channel` and be at least 2; a shared-control gang needs it, "
     "at least 2 and dividing `channels`, with `packages_per_channel` = 1; a synchronous "
     "gang's page (`gang_size` × `page_size`) is at most 16 MiB"},
    {"interleaving",
     "`none`: a package serves one command at a time; `dies`: its dies interleave, the "
     "default except with `gang = \"shared-bus-sync\"`, whose gang is one queued unit, `none` "
     "unless set; `planes`: also two-plane commands joined from different queued requests; "
     "see [The flash scheduler](../model.md#the-flash-scheduler)"},
};

constexpr KeyDoc kTiming[] = {
    {"read_us",
     "SLC cells only (see [Cell types](#cell-types)): page read, array to register, above 0 "
     "to 10^6 µs; default 25 (Agrawal et al. Table 1)"},
    {"program_us",
     "SLC cells only (see [Cell types](#cell-types)): page program, register to array, above "
     "0 to 10^6 µs; default 200 (Agrawal et al. Table 1)"},
    {"erase_us",
     "SLC cells only (see [Cell types](#cell-types)): block erase, above 0 to 10^7 µs; "
     "default 1500 (Agrawal et al. Table 1)"},
    {"bus_ns_per_byte", "the bus's time per byte, above 0 to 10^6 ns; default 25"},
    {"command_ns",
     "command/address cycles on the bus per command, 0 to 10^6 ns; default 0, as in the "
     "paper's model"},
    {"cache_register",
     "bool, default false: cache read and cache program, a die's next array operation "
     "overlapping the current page's bus transfer"},
    {"read_transfer",
     "`\"page\"`, the default: a read moves its whole page over the bus; `\"codeword\"`: it "
     "moves only the ECC codewords that hold the bytes the host asked for, each with its "
     "share of the OOB ([model](../model.md#codeword-reads)); codeword reads need a page of "
     "one package, not a synchronous gang, and `ftl.logical_page_size` equal to the page, or "
     "a map unit the codeword divides"},
    {"codeword_bytes",
     "default 4096: a codeword's data bytes, 512 to 1 MiB; it must divide the page"},
    {"independent_plane_reads",
     "bool, default false; needs `geometry.interleaving = \"planes\"`: queued reads on a "
     "die's plane pair join into one multi-plane read whatever their page offsets, each plane "
     "reading its own page and the joined read taking the longer array time; off, a "
     "multi-plane read's pages share their page offset, as programs' do; "
     "[model](../model.md#independent-plane-reads)"},
    {"suspend",
     "bool, default false: a host read for a die busy with a program or an erase suspends it "
     "([model](../model.md#programerase-suspend))"},
    {"suspend_program_us",
     "0 to 10^6; default 100: from the suspend command to a free array during a program, "
     "MQSim's default"},
    {"suspend_erase_us",
     "0 to 10^6; default 500: the same during an erase, Samsung OneNAND128's datasheet "
     "maximum"},
    {"suspend_us",
     "0 to 10^6: sets both `suspend_program_us` and `suspend_erase_us` (either, given too, "
     "overrides it)"},
    {"resume_us", "0 to 10^6; default 0: until the operation runs again; no NAND source gives one"},
    {"suspend_min_interval_us",
     "0 to 10^7; default: the operation's own suspend time; from a resume to the next "
     "suspension of the same operation"},
    {"suspend_limit",
     "0 to 10^6; default 4: the most suspensions of one program or erase, beyond which reads "
     "wait; parts bound the count without a public number, 4 is ssdlab's choice"},
};

constexpr KeyDoc kTimingCell[] = {
    {"read_us",
     "array read, one time per page type (an array of bits-per-cell numbers, each above 0 to "
     "10^7 µs)"},
    {"program",
     "`one-shot` (the default; 3D NAND): the pages of a wordline come in over the bus in turn "
     "and the wordline is programmed once, at its last page, so the earlier pages take no "
     "array time and none is on flash before it ends: a write completes with its "
     "wordline's program, padded where the data runs out "
     "([one-shot wordlines](../model.md#flash-ftls-and-cleaning)); "
     "`multi-pass` (planar MLC and TLC): each page is programmed as it comes, "
     "and a power cut during a later pass loses the wordline's earlier pages too "
     "([paired page loss](../reliability.md#power-loss-and-recovery))"},
    {"program_us",
     "one-shot: one number, the wordline program; multi-pass: an array, one per page type; "
     "above 0 to 10^7 µs"},
    {"erase_us", "block erase, above 0 to 10^7 µs"},
};

constexpr KeyDoc kTimingSlcMode[] = {
    {"read_us", "page read in SLC mode, above 0 to 10^6 µs; default 25"},
    {"program_us", "page program in SLC mode, above 0 to 10^7 µs; default 250"},
    {"erase_us", "block erase in SLC mode, above 0 to 10^7 µs; defaults to `timing.cell.erase_us`"},
};

constexpr KeyDoc kFtl[] = {
    {"type",
     "`page-mapped` (the default), `dftl` (demand-based page mapping with a cached map, "
     "[DFTL](../dftl-and-cleaning-policies.md#dftl-ftltype--dftl)), `block-mapped`, `bast`, "
     "`fast`, the teaching skeleton `example`, and `zoned`: a ZNS drive ([Zoned "
     "namespaces](../zns.md))"},
    {"logical_page_size",
     "bytes one map entry maps, 512 to 1 GiB; default 4096: whole pages dividing a block; "
     "or, page-mapped only, a map unit: a part of the flash page that divides it, mapped, "
     "validated and cleaned per unit and programmed in whole pages, [Map "
     "units](../model.md#map-units); with a synchronous gang, whole gang pages; block-mapped, "
     "bast, fast and zoned: the flash page"},
    {"stripe_size",
     "bytes of consecutive logical space per allocation pool: a multiple of the logical page, "
     "512 to 1 GiB; default 4096"},
    {"allocation_pool", "`ssd`, `channel`, `package` (the default), `die`, `plane`"},
    {"overprovisioning",
     "0–0.9; default 0.15: the share of the physical space hidden from the host (nominal; "
     "what is left in fact: [Spare capacity](#spare-capacity)); for `zoned`, the share of "
     "each plane's blocks kept as spare for worn ones"},
    {"two_plane",
     "the FTL's own merging of same-die programs and reads on allowed pairs; default true. "
     "With `geometry.interleaving = \"planes\"` the flash scheduler also joins queued "
     "commands into two-plane ones whatever this key says, and `ssdlab config` says so"},
    {"copy_back",
     "cleaning, folding and wear-leveling moves inside a plane by the chip's copy-back, "
     "without the bus; default true on `slc` cells (Agrawal et al. §3.2), false on `mlc`, "
     "`tlc` and `qlc`, whose moves go through the controller (read, ECC, program on any die) "
     "as today's controllers do: copy-back skips ECC, and the bit errors of multi-bit cells "
     "accumulate"},
    {"clean_low_water",
     "foreground cleaning below this fraction of a pool's blocks free; above 0 to 0.5; "
     "default 0.05 (Agrawal et al. §4.3). With map units, victims cleaned whose erase waits "
     "for their moves to reach flash count as free ([map units](../model.md#map-units))"},
    {"clean_high_water",
     "background cleaning up to this fraction while a pool is idle; 0 to 0.9, above "
     "`clean_low_water`; 0 = off, the default"},
    {"cleaning_blocks_writes",
     "true (the default): a write that triggers foreground cleaning, or a merge, waits for it "
     "(which part of it: `controller.cleaning_wait`); false: cleaning only competes with host "
     "commands for buses and dies"},
    {"wear_leveling",
     "`none` (the default: greedy only), `rate-limit` (greedy + rate-limited reuse of worn "
     "blocks), `migration` (+ migration of cold data into worn blocks); `migration` on "
     "page-mapped and dftl only: block-mapped, bast and fast refuse it with an error naming "
     "the key, as they have no cleaning victim to refill; blocks that reach "
     "`geometry.pe_cycles` are retired whatever the mode (see [Wear "
     "leveling](../model.md#wear-leveling))"},
    {"wear_age_variance",
     "ageVariance (Agrawal et al. §5.1: 20%): rate-limiting starts below (1 − this) of the "
     "mean remaining life; above 0 to 1; default 0.2"},
    {"wear_retirement_age",
     "retirementAge (§5.1: 85%): a worn victim below this fraction of the mean receives cold "
     "data; above 0 to 1; default 0.85; with `migration`, must be above 1 − "
     "`wear_age_variance` (§5: migration must start before rate-limiting)"},
    {"wear_cold_age",
     "a migration source must have gone unerased for this many times its pool's block count "
     "of the pool's erases; 0 to 10^6; default 1.0"},
    {"wear_order",
     "with `migration`: `migration-first`, the default, Agrawal et al. §5's order (a worn "
     "victim that a cold block can refill is migrated before rate-limiting is considered; the "
     "cold block is the least recently erased one past the thresholds); `rate-limit-first`, "
     "ssdlab 0.1's (rate-limit first, and the cold block must also be at least half full, one "
     "on the victim's plane preferred) (see [Wear leveling](../model.md#wear-leveling))"},
    {"placement_map",
     "the `[[placement]]` ranges (below) as the config echo writes them: a non-empty array of "
     "tables with `offset`, `size` and `handle`"},
};

constexpr KeyDoc kPlacementMap[] = {
    {"offset", "the range's first logical byte, whole logical pages, 0 to 2^56; default 0"},
    {"size", "bytes of the range, whole logical pages, 1 to 2^56; required"},
    {"handle",
     "the placement handle its writes take, 0–255 and below `ftl.fdp_handles`; default 0"},
};

constexpr KeyDoc kHost[] = {
    {"sector_size",
     "bytes of a host sector, a power of two from 512 to 65536 dividing "
     "`ftl.logical_page_size`; default 512; the host's offsets and sizes are multiples of it"},
    {"queue_depth",
     "requests the device accepts at once: with several submission queues, the controller's "
     "command slots that arbitration fills; 0–65536; 0 = unlimited, the default"},
    {"scheduling",
     "`fifo` (the default), `reads-first`: which waiting request of a queue goes next"},
    {"arbitration",
     "`round-robin`, the default; `weighted`: NVMe weighted round robin with an urgent class "
     "(see [Submission queues](../tenants.md#submission-queues-and-arbitration))"},
    {"arbitration_burst", "requests a queue gives per turn, 1–65536; default 1"},
    {"weight_high", "weighted: requests per round of the high class, 1–256; default 4"},
    {"weight_medium", "weighted: requests per round of the medium class, 1–256; default 2"},
    {"weight_low", "weighted: requests per round of the low class, 1–256; default 1"},
    {"firmware_us",
     "0 to 10^6; default 0: a fixed controller time per command between the host link and "
     "the flash, a latency, not a resource; see [The host link and firmware "
     "time](../model.md#the-host-link-and-firmware-time); cores as a resource: "
     "`[controller.firmware]`"},
};

constexpr KeyDoc kHostQueues[] = {
    {"depth", "its requests outstanding at once, 0–65536; 0 = no bound of its own, the default"},
    {"priority",
     "`urgent`, `high`, `medium`, `low`; weighted arbitration only (another class with "
     "`host.arbitration = \"round-robin\"` is an error); default `medium`"},
};

constexpr KeyDoc kHostNamespaces[] = {
    {"size", "bytes, whole logical pages, 1 to 2^56; required"},
    {"overprovisioning", "0–0.9: that share of its size left unexported behind it; default 0"},
};

constexpr KeyDoc kController[] = {
    {"write_buffer",
     "bytes of DRAM, whole logical pages, 0 to 2^40; 0 = off, the default; with map units "
     "its flushes pack units into whole flash pages, see [Map units](../model.md#map-units); "
     "on a zoned device, whole stripes of each zone (power-protected only), see "
     "[The write buffer](../zns.md#the-write-buffer)"},
    {"write_buffer_policy", "`write-back` (the default), `write-through`"},
    {"write_buffer_high_water", "above 0 to 1: flush above it; 1 = only when full, the default"},
    {"write_buffer_low_water",
     "flush down to it, the oldest pages first; 0 to 1, below the high-water mark; "
     "default 0.5"},
    {"write_buffer_ns_per_byte", "host link <-> DRAM, 0 to 10^6 ns; default 3.333 = SATA 3 Gb/s"},
    {"write_buffer_power_protected",
     "bool, default false: with `--power-cut-at`, a capacitor flushes the buffer at a cut; "
     "see [Power loss and recovery](../reliability.md#power-loss-and-recovery)"},
    {"background_cleaning_preempt",
     "bool, default false: true, background cleaning yields to host requests between page "
     "moves and erases; false, a round runs to completion once started (see [Controller: host "
     "queue, write buffer, background "
     "cleaning](../model.md#controller-host-queue-write-buffer-background-cleaning))"},
    {"cleaning_wait",
     "with `ftl.cleaning_blocks_writes = true`, which part of a write waits for the cleaning "
     "it triggers: `package`, the default, the host commands on the packages that clean; "
     "`request`, the whole write; see [The flash scheduler](../model.md#the-flash-scheduler)"},
    {"dispatch_order",
     "which queued command a die takes next: `fifo`, the default; `read`, `write` and "
     "`cleaning` in priority order joined by `>`, e.g. `\"read>write>cleaning\"`; "
     "`fewest-queued` (formerly `fair`), "
     "the least intensive tenant's (flow's) first, with an age bound, after FLIN; or `flin`, "
     "FLIN's three stages (thresholds in `[controller.flin]`); see [The "
     "flash scheduler](../model.md#the-flash-scheduler), [Fewest-queued dispatch (not "
     "FLIN)](../model.md#fewest-queued-dispatch-not-flin) and [FLIN "
     "dispatch](../model.md#flin-dispatch)"},
};

constexpr TableDoc kCoreTables[] = {
    {"device", "[device]", "", kDevice},
    {"geometry", "[geometry]", "", kGeometry},
    {"timing", "[timing]",
     "the flash's times; `suspend` and the keys after it are program/erase suspend "
     "([model](../model.md#programerase-suspend))",
     kTiming},
    {"timing.cell", "[timing.cell]",
     "the array times of a cell of several bits (`geometry.cell_type` `mlc`, `tlc` or "
     "`qlc`), which refuses `timing.read_us`, `program_us` and `erase_us` (only an SLC device "
     "reads them); on an SLC device the table is an error naming it. Defaults: the cell's, "
     "each from a published source (see [Cell types](#cell-types))",
     kTimingCell},
    {"timing.slc_mode", "[timing.slc_mode]",
     "a block the FTL runs in SLC mode (an SLC cache: one bit per cell, one page per wordline "
     "at offsets 0 to `pages_per_block` / bits − 1), on a cell of several bits; on an SLC "
     "device the table is an error naming it (see [Cell types](#cell-types))",
     kTimingSlcMode},
    {"ftl", "[ftl]",
     "the FTL and the keys every FTL reads; the rows after them are the FTLs' own keys, each "
     "marked with the FTLs that take it",
     kFtl},
    {"ftl.placement_map", "[[placement]]",
     "one table per logical byte range (also `[[ftl.placement_map]]`, as the echo writes "
     "it); none (the default): no ranges. Writes without a placement identifier (0) in a "
     "range take its handle; the first range holding a write's first logical page wins; "
     "traces are tagged this way. Needs `ftl.placement = \"fdp\"` or `\"streams\"` (see "
     "[Where identifiers come from](../fdp.md#where-identifiers-come-from))",
     kPlacementMap},
    {"host", "[host]",
     "the host side; its submission queues and namespaces are the arrays of tables "
     "`[[host.queues]]` and `[[namespace]]` (below)",
     kHost},
    {"host.queues", "[[host.queues]]",
     "one table per NVMe submission queue, numbered from 1 (none: one queue, as before); see "
     "[Submission queues](../tenants.md#submission-queues-and-arbitration)",
     kHostQueues},
    {"host.namespaces", "[[namespace]]",
     "one table per namespace, numbered from 1, laid out from logical byte 0 (also "
     "`host.namespaces`, as the echo writes it), at most 1024; none: the whole logical space "
     "as one (see [Namespaces](../tenants.md#namespaces))",
     kHostNamespaces},
    {"controller", "[controller]", "", kController},
};

}  // namespace

std::span<const TableDoc> core_tables() {
  return kCoreTables;
}

}  // namespace ssdlab::sim
