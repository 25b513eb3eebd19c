// Flash read errors on a device ([errors]; flash/bit_errors.h has the model):
// a controller part that keeps what the model needs of each block, recovers
// every page read the FTL asks for, and picks the blocks read reclaim
// rewrites. Off by default: an Ssd without [errors] has no such part, and
// its reads succeed in one array read.
//
// Per block it keeps when its data was programmed (the first program after
// its erase, in simulated time: a block's pages share it) and its reads
// since the erase (host reads, read retries, cleaning's reads of its pages).
// Data written before the run (preconditioning, a loaded state saved
// without this part) is as old as errors.age_retention_days when the run
// starts; every block has had errors.age_pe_cycles more cycles than the
// FTL's erase count.
//
// A host read's page reads are drawn one by one (deterministic: the draw of
// a read depends on the seed, the page and its block's read count): the
// worst codeword's bit errors decide the recovery (flash::recover). Each
// retry or soft-sensing read is another read of the page in the request's
// command list, a stage after the reads before it, so it queues on the die
// like any read; the decode times add to the request's completion; a page
// no step corrects is a media error to the host (media_errors(): the run
// lists them in errors.csv). docs/errors.md has the model and what it
// leaves out.
#pragma once

#include <cstdint>
#include <deque>
#include <limits>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "common/state_io.h"
#include "common/units.h"
#include "flash/bit_errors.h"
#include "flash/command.h"
#include "flash/nand_array.h"
#include "ftl/ftl.h"
#include "records/read_error_counters.h"
#include "sim/config/read_errors_config.h"
#include "sim/controller/ssd_part.h"

namespace ssdlab::sim {

// A page read that no step corrected.
struct MediaError {
  flash::Lpn lpn;
  flash::Ppn ppn;
  std::uint32_t bit_errors;  // the worst codeword's, at the first read
  double rber;
};

class ReadErrors final : public SsdPart {
 public:
  class Rewriter;  // (below: what read reclaim asks of the core)
  // `nand`: the FTL's array (in its pages: map units where it has them);
  // `page_bytes`: the bytes of one of those pages.
  ReadErrors(const ReadErrorsConfig& config, const flash::NandArray& nand, std::uint32_t page_bytes,
             Rewriter& core);
  // The part of a device whose FTL is `ftl`, or null if `config` is off.
  // Throws ssdlab::Error (naming `source`, the config file) if read reclaim
  // is asked of a zoned device, whose pages only the host rewrites.
  // `core`: what read reclaim rewrites blocks through (reclaim()).
  static std::unique_ptr<ReadErrors> make(const ReadErrorsConfig& config, const ftl::Ftl& ftl,
                                          const std::string& source, Rewriter& core);

  // A command list the FTL emitted at `now`; `functional`: written before
  // the run (preconditioning), no simulated time. Stamps the blocks it
  // programs and erases, and counts the reads of blocks.
  void commands(const flash::CommandList& commands, TimeNs now, bool functional);
  void emitted(const EmittedCommands& list) override {
    commands(list.commands, list.now, list.source == CommandSource::kFunctional);
  }

  // Recovers each page read of a host read's `commands` (emitted at `now`):
  // appends the retry and soft-sensing reads, returns the decode time to add
  // to the request's completion. The pages no step corrected are added to
  // media_errors() (a request may read in several calls: a write buffer's
  // misses, a host log's zones), which the controller forgets at each
  // request's start.
  TimeNs recover_reads(flash::CommandList& commands, TimeNs now);
  const std::vector<MediaError>& media_errors() const { return media_errors_; }
  // A queued read's decode time, added to its completion when the flash
  // scheduler reports it (SsdCore::host_done), by the request's tag: 0 if none.
  void decode_later(std::uint64_t tag, TimeNs decode) { decode_after_[tag] = decode; }
  TimeNs take_decode(std::uint64_t tag) {
    if (decode_after_.empty()) return 0;
    const auto it = decode_after_.find(tag);
    if (it == decode_after_.end()) return 0;
    const TimeNs decode = it->second;
    decode_after_.erase(it);
    return decode;
  }
  // (A request's start: its media errors are new.)
  void before_request(TimeNs /*now*/) override { media_errors_.clear(); }

  // Read reclaim: the next block due for a rewrite (its reads, or a read of
  // it that needed retries), or kNoBlock. Taken blocks are not given again
  // until erased. A block still open (not full) is not given: the FTL would
  // write its pages back into it; it is due again at a later read.
  static constexpr flash::BlockId kNoBlock = std::numeric_limits<flash::BlockId>::max();
  flash::BlockId take_reclaim();
  void count_reclaim(std::uint64_t pages) {
    ++counters_.reclaimed_blocks;
    counters_.reclaimed_pages += pages;
  }
  // What read reclaim asks of the controller's core.
  class Rewriter {
   public:
    // `reads` (of a block's valid pages, cleaning work) and then the FTL's
    // writes of their logical pages, `runs`, elsewhere: one background job
    // from `now`.
    virtual void rewrite(const flash::CommandList& reads, ftl::PageRuns runs, TimeNs now) = 0;
    // Whether a part above flash holds a newer copy of `lpn` (SsdPart::holds).
    virtual bool held_above(ftl::Lpn lpn) const = 0;

   protected:
    ~Rewriter() = default;
  };
  // Once a request is served (the last part's hook: SsdCore::list_parts),
  // rewrites each block due (take_reclaim()) through the core: read out
  // (the ECC corrects them), then written again where the FTL puts them,
  // so that the old copies are superseded and the block is cleaned as any
  // other. A page a part above flash holds (the write buffer) is newer
  // there: reclaim leaves it to that part.
  void after_request(TimeNs now, Reserve /*reserve*/) override { reclaim(now); }
  void reclaim(TimeNs now);

  // The model's inputs for a page of `block` read at `now`.
  double pe_cycles(flash::BlockId block) const;
  double retention_days(flash::BlockId block, TimeNs now) const;
  double reads_per_page(flash::BlockId block) const;
  double rber(flash::Ppn ppn, TimeNs now) const;

  const records::ReadErrorCounters& counters() const { return counters_; }

  // Checkpoints: section RERR (each block's stamp and reads, the counters).
  // A state saved without it: the blocks holding data are as old as the age
  // (optional: a state with it loads into a device without, dropped).
  static constexpr const char* kSection = "RERR";
  std::optional<PartCheckpoint> checkpoint() const override {
    return PartCheckpoint{kSection, "the read error part ([errors])", true};
  }
  void save_state(StateWriter& out) const override;
  void load_state(StateReader& in) override;
  void not_in_checkpoint() override { adopt_unstamped(); }
  void adopt_unstamped();

 private:
  // A block's program time: a simulated time, or one of these.
  static constexpr TimeNs kErased = std::numeric_limits<TimeNs>::max();
  static constexpr TimeNs kBeforeRun = std::numeric_limits<TimeNs>::min();
  struct Block {
    TimeNs programmed_at = kErased;
    std::uint32_t reads = 0;
    bool reclaim_due = false;  // queued for read reclaim, or taken
  };
  // One page read: the worst codeword's bit errors, drawn.
  std::uint32_t draw(flash::Ppn ppn, double rate);
  // `reads` more reads of `block`; due for reclaim at reclaim_reads.
  void count_reads(flash::BlockId block, std::uint32_t reads);
  void due_for_reclaim(flash::BlockId block);

  ReadErrorsConfig config_;
  const flash::NandArray& nand_;
  Rewriter& core_;
  double codewords_;  // per page read (at least 1)
  double codeword_bits_;
  std::uint32_t bits_per_cell_;
  std::vector<Block> blocks_;
  std::deque<flash::BlockId> reclaim_;
  std::vector<MediaError> media_errors_;
  std::vector<std::uint32_t> extra_;  // recover_reads(): per command, its extra reads
  std::unordered_map<std::uint64_t, TimeNs> decode_after_;  // decode_later()
  std::vector<flash::Lpn> reclaim_lpns_;                    // reclaim(): a block's
  std::vector<ftl::PageRange> reclaim_runs_;
  flash::CommandList reclaim_reads_;
  records::ReadErrorCounters counters_;
};

}  // namespace ssdlab::sim
