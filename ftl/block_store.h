// What the block-based FTLs (block-mapped, BAST, FAST) share: virtual blocks
// and their free pool, the block map, where each logical page's latest version
// lives, and the steps merges are made of (copy, pad, erase).
//
// Virtual blocks. The flash is cut into virtual blocks of `width` flash blocks,
// one on each plane of a plane group; page i of a virtual block is page
// i / width of its (i % width)-th flash block. Plane groups take planes
// channel first, so the pages of a virtual block stripe over channels, then
// packages, dies and planes: the effective erase block is the striped chunk
// (Desnoyers §4, "Write size and alignment"), and a small controller maps
// large virtual blocks to keep its table small (Desnoyers §3, "RAM
// requirements"); Agrawal et al. §3.1 list the same knobs as a logical page
// "as large as a flash block" and its "page span" over packages. Width 1 is
// plain flash blocks. Virtual blocks are programmed in page order only, so
// every flash block is too (NandArray's rule).
//
// Logical blocks. Logical block `lbn` is logical pages [lbn * N, lbn * N + N),
// N the pages of a virtual block. Block mapping: a logical block has at most
// one data block, where its page at offset i sits at page i. Newer versions
// may sit in log blocks (any page, any order); `location()` finds the latest.
// The index into the logs (log_index.h) holds the log blocks' pages only, as
// the modelled device's table does.
//
// Commands. A copy stays inside its plane as a copy-back where allowed
// (Agrawal §2.2: copy-back only "within the same flash plane"); a virtual
// block's page i is always on the same plane of its group, so merges between
// blocks of one group are all copy-backs.
//
// Wear (Agrawal et al. §5, wear_leveler.h), per virtual block, whose erase
// count is that of its most erased flash block: a virtual block reaching the
// rated cycles is retired at release (never allocated again); with
// rate-limiting on, allocate() passes over a worn block at the head of a free
// list with the §5 probability (it goes to the back). These FTLs pick no
// cleaning victims, so there is no greedy choice for migration to correct:
// migration is not modelled here (the mode acts as rate-limit). When the
// live virtual blocks no longer hold the logical blocks plus the reserve the
// device has reached its end of life (EndOfLife). Merge work is emitted as cleaning
// commands (the controller runs it before the write that triggered it when
// cleaning_blocks_writes is on); each merge gets two stages of its own,
// copies then erases, so that a block erased by one merge is never
// programmed, in time, before its erase.
#pragma once

#include <cstdint>
#include <deque>
#include <string_view>
#include <vector>

#include "flash/nand_array.h"
#include "ftl/block_keys.h"
#include "ftl/ftl.h"
#include "ftl/log_index.h"

namespace ssdlab::ftl {

class BlockStore {
 public:
  using VBlock = std::uint32_t;  // virtual block number
  static constexpr VBlock kNone = ~VBlock{0};

  // When commands run: `stage` in the host chain, or in the cleaning chain.
  struct Work {
    std::uint8_t stage = 0;
    bool cleaning = false;
  };

  // `reserve`: virtual blocks held back from the logical space for log blocks
  // and merges. Throws ssdlab::Error if nothing is left for data.
  BlockStore(const FtlContext& context, std::uint32_t reserve, std::string_view ftl_name);

  const flash::FastGeometry& geometry() const { return geometry_; }
  const FtlConfig& config() const { return config_; }
  // Its own keys, the virtual block's size resolved (never 0).
  const BlockKeys& keys() const { return config_.keys.get<BlockKeys>(); }
  const flash::NandArray& nand() const { return nand_; }
  FtlStats& stats() { return stats_; }
  const FtlStats& stats() const { return stats_; }

  // Layout.
  std::uint32_t block_pages() const { return block_pages_; }  // N
  std::uint32_t width() const { return width_; }
  std::uint32_t logical_blocks() const { return logical_blocks_; }
  std::uint64_t logical_pages() const { return std::uint64_t{logical_blocks_} * block_pages_; }
  std::uint32_t virtual_blocks() const { return groups_ * geometry_.blocks_per_plane; }
  std::uint32_t lbn_of(Lpn lpn) const { return lpn / block_pages_; }
  std::uint32_t offset_of(Lpn lpn) const { return lpn % block_pages_; }
  Lpn lpn_of(std::uint32_t lbn, std::uint32_t offset) const { return lbn * block_pages_ + offset; }
  flash::Ppn ppn(VBlock block, std::uint32_t page) const;
  VBlock vblock_of(flash::Ppn ppn) const;
  std::uint32_t group_of(VBlock block) const { return block / geometry_.blocks_per_plane; }
  // The write pointer: the pages of its flash blocks' write pointers (kept by
  // the NAND array, not here).
  std::uint32_t written(VBlock block) const {
    std::uint32_t pages = 0;
    for (std::uint32_t k = 0; k < width_; ++k) pages += nand_.write_pointer(flash_block(block, k));
    return pages;
  }
  bool is_full(VBlock block) const { return written(block) == block_pages_; }
  // Flash block `k` (< width) of `block`.
  flash::BlockId flash_block(VBlock block, std::uint32_t k) const {
    const std::uint32_t group = block / geometry_.blocks_per_plane;
    const std::uint32_t plane = group_planes_[group * width_ + k];
    return plane * geometry_.blocks_per_plane + block % geometry_.blocks_per_plane;
  }

  // The block map and where the latest versions are.
  VBlock data(std::uint32_t lbn) const { return data_[lbn]; }
  // Physical page holding the latest version of `lpn`, or kNoPage.
  flash::Ppn location(Lpn lpn) const;
  bool in_log(Lpn lpn) const { return log_index_.contains(lpn); }
  // Valid pages of logical block `lbn`, wherever they are. O(N).
  std::uint32_t valid_pages(std::uint32_t lbn) const;

  // Free pool: erased virtual blocks, per plane group, first in first out.
  // Takes one from `group` if it has one (copy-back stays possible), else from
  // the group with the most. Throws std::logic_error if there is none.
  VBlock allocate(std::uint32_t group = kNone);
  std::uint32_t free_blocks() const { return free_count_; }
  std::uint32_t retired_blocks() const { return retired_; }

  // Starts a host request: its merges get stages from 0 again.
  void begin_request() { next_merge_stage_ = 0; }
  // Two fresh cleaning stages for one merge: copies in the first, erases in
  // the second (returned as Work for the copies; erases use stage + 1).
  Work merge_work();

  // Host program of `lpn` at the write pointer of `block`: supersedes the old
  // version. `log`: the page stays a log page (found through the log index)
  // rather than a data page at its own offset.
  void program(VBlock block, Lpn lpn, bool log, Work work, CommandList& out);
  // Copies the latest version of `lpn` to the write pointer of `block`
  // (copy-back inside a plane where allowed, else a move) and supersedes it.
  void copy(Lpn lpn, VBlock block, bool log, Work work, CommandList& out);
  // Programs padding up to page `end` of `block` (exclusive).
  void pad(VBlock block, std::uint32_t end, Work work, CommandList& out);
  // Brings `block` from its write pointer up to page `end` with the latest
  // versions of logical block `lbn`'s pages at the same offsets: copies those
  // with data, pads holes before a copied page, leaves trailing holes
  // unwritten. Returns the pages copied.
  std::uint32_t fill(VBlock block, std::uint32_t lbn, std::uint32_t end, bool log, Work work,
                     CommandList& out);
  // Forgets the latest version of `lpn` (trim, or a newer version elsewhere).
  void supersede(Lpn lpn);
  // Makes `block`, whose pages sit at their own offsets, the data block of
  // `lbn` (kNone: it has none); returns the previous data block (kNone if none).
  VBlock make_data(std::uint32_t lbn, VBlock block);
  // Erases `block`, which must hold no valid page (the flash blocks never
  // programmed need no erase), in stage `work.stage` of the cleaning chain,
  // and returns it to the free pool.
  void release(VBlock block, Work work, CommandList& out);

  // Host reads: one command per page holding data; the stats.
  void read(const PageRange& range, CommandList& out);
  // Read-modify-write of a partly written page: reads its latest version (host
  // stage 0) and returns the stage its program must use.
  std::uint8_t read_if_partial(const PageRange& range, Lpn lpn, CommandList& out);
  // Supersedes the whole pages of a trimmed range; returns the logical blocks
  // touched, in order.
  std::vector<std::uint32_t> trim_pages(const PageRange& range);
  // Merges two-plane programs and reads of the host chain from `start` on.
  void finish(CommandList& out, std::size_t start) const;

  // Mount after a power cut (block_store_recovery.cpp): the latest version of
  // every page from the OOB scan; each logical block's data block is a block
  // holding its valid pages at their own offsets; every other page found
  // (the log blocks' contents: which blocks were logs was controller RAM) is
  // merged into the data block on mount, in place where it comes after the
  // data block's write pointer (partial merge), else into a fresh block
  // (full merge). Blocks left with no valid page are erased. Afterwards no
  // log block is in use. Throws ssdlab::Error if a merge finds no free block.
  void recover(RecoveryPolicy policy, CommandList& out, RecoveryReport& report);
  flash::NandArray& nand_for_power_cut() { return nand_; }

  // Throws std::logic_error naming what is wrong unless: the NAND state is
  // sound; every virtual block is exactly one of free, a data block, or one of
  // `logs`; every valid page is the latest version of the logical page in its
  // OOB area, found by location(); data pages sit at their offsets.
  void check_invariants(const std::vector<VBlock>& logs) const;

  // Checkpoints: section "BSTO" (copy counts, free lists, block map, log
  // index, retired count; the write pointers are the NAND array's), then the
  // NAND array, wear leveler and counters in their own sections.
  void save_state(StateWriter& out) const;
  void load_state(StateReader& in);
  // Throws ssdlab::Error unless `block` is a virtual block (or kNone).
  void check_block(VBlock block) const;

 private:
  // Page index of `ppn` inside its virtual block.
  std::uint32_t page_in_vblock(flash::Ppn ppn) const;
  std::uint32_t vblock_valid(VBlock block) const;
  // Recovery steps.
  void adopt_free_blocks();
  void choose_data_blocks(const std::vector<flash::Ppn>& latest);
  void release_if_empty(VBlock block, Work work, CommandList& out);
  void merge_found_logs(CommandList& out);
  // Programs `lpn` at the write pointer of `block`; returns the page.
  flash::Ppn program_page(VBlock block, Lpn lpn, bool log);

  flash::FastGeometry geometry_;
  FtlConfig config_;
  flash::NandArray nand_;
  std::string_view name_;
  std::uint32_t width_;
  std::uint32_t groups_;
  std::uint32_t block_pages_;
  std::uint32_t logical_blocks_;
  std::vector<std::uint32_t> group_planes_;  // group * width + k -> flat plane
  std::vector<std::uint32_t> plane_slot_;    // flat plane -> group * width + k
  std::vector<std::uint32_t> copied_out_;    // per virtual block, since its last erase
  std::vector<std::deque<VBlock>> free_;     // per group
  std::uint32_t free_count_ = 0;
  std::vector<VBlock> data_;         // per logical block
  LogIndex log_index_;  // the pages whose latest version is in a log block
  std::uint8_t next_merge_stage_ = 0;
  std::uint32_t reserve_;
  WearLeveler wear_;  // per virtual block, domain = plane group
  std::uint32_t retired_ = 0;
  FtlStats stats_;
};

// What the FTLs built on a BlockStore answer alike: the Ftl accessors, reads,
// and trim. A student reading one of them sees only its own policy.
class BlockStoreFtl : public Ftl {
 public:
  BlockStoreFtl(const FtlContext& context, std::uint32_t reserve, std::string_view ftl_name)
      : store_(context, reserve, ftl_name), name_(ftl_name) {}

  std::string_view name() const override { return name_; }
  std::uint64_t logical_pages() const override { return store_.logical_pages(); }
  void read(const PageRange& range, CommandList& out) override { store_.read(range, out); }
  // A logical block left with no valid page gives its blocks back: the log
  // blocks that are its alone (release_logs), then its data block.
  void trim(const PageRange& range, CommandList& out) final;
  bool is_mapped(Lpn lpn) const override { return store_.location(lpn) != flash::kNoPage; }
  const FtlStats& stats() const override { return store_.stats(); }
  const FtlConfig& config() const override { return store_.config(); }
  const flash::NandArray& nand() const override { return store_.nand(); }
  flash::NandArray* flash_for_power_cut() override { return &store_.nand_for_power_cut(); }
  flash::Ppn locate(Lpn lpn) const override { return store_.location(lpn); }
  // Mount after a power cut: the FTL forgets its log blocks, the store
  // rebuilds the block map and merges what it found (BlockStore::recover).
  void recover(RecoveryPolicy policy, CommandList& out, RecoveryReport& report) final {
    forget_logs();
    store_.recover(policy, out, report);
  }
  // The store's sections, then the FTL's own log state (save_logs).
  void save_state(StateWriter& out) const final;
  void load_state(StateReader& in) final;

 protected:
  using VBlock = BlockStore::VBlock;
  // Drops every log block (RAM state); the blocks stay on flash.
  virtual void forget_logs() = 0;
  virtual void release_logs(std::uint32_t lbn, const BlockStore::Work& work, CommandList& out) = 0;
  // The FTL's log blocks and their bookkeeping, as a section of its own.
  virtual void save_logs(StateWriter& out) const = 0;
  virtual void load_logs(StateReader& in) = 0;

  BlockStore store_;

 private:
  std::string_view name_;
};

}  // namespace ssdlab::ftl
