#include "sim/controller/read_errors.h"

#include <algorithm>
#include <cmath>

#include "common/error.h"
#include "ftl/page_runs.h"
#include "ftl/placement_tag.h"
#include "records/counter_state.h"

namespace ssdlab::sim {
namespace {

constexpr double kNsPerDay = 86400e9;

// The key of one draw: the seed, the page, its block's read count and the
// codeword, mixed (flash::uniform_of mixes again).
std::uint64_t draw_key(std::uint64_t seed, flash::Ppn ppn, std::uint32_t reads,
                       std::uint32_t codeword, std::uint32_t which) {
  return seed * 0x9E3779B97F4A7C15ull ^ (std::uint64_t{ppn} << 24) ^
         (std::uint64_t{reads} << 1) * 0xD1B54A32D192ED03ull ^ (std::uint64_t{codeword} << 56) ^
         which;
}

}  // namespace

ReadErrors::ReadErrors(const ReadErrorsConfig& config, const flash::NandArray& nand,
                       std::uint32_t page_bytes, Rewriter& core)
    : config_(config),
      nand_(nand),
      core_(core),
      codewords_(
          std::max(1.0, std::floor(static_cast<double>(page_bytes) / config.ecc.codeword_bytes))),
      codeword_bits_(8.0 * std::min(page_bytes, config.ecc.codeword_bytes)),
      bits_per_cell_(0),
      blocks_(nand.geometry().blocks()) {
  // Page types follow the flash's cells (flash/cell.h): the offset in the
  // block modulo the bits per cell; SLC-mode blocks are one bit.
  const flash::Geometry& g = nand.geometry();
  bits_per_cell_ = flash::bits_per_cell(g.cell_type);
  adopt_unstamped();
}

std::unique_ptr<ReadErrors> ReadErrors::make(const ReadErrorsConfig& config, const ftl::Ftl& ftl,
                                             const std::string& source, Rewriter& core) {
  if (!config.on()) return nullptr;
  const bool reclaim = config.reclaim_reads || config.reclaim_retries;
  // A zoned device's pages are rewritten by the host, zone by zone: the
  // device cannot move them.
  if (reclaim && ftl.zoned())
    throw make_error(
        "{}: errors.reclaim_reads and errors.reclaim_retries rewrite blocks through the FTL; a "
        "zoned device (ftl.type = \"zoned\") has no such rewrite (leave them 0)",
        source);
  return std::make_unique<ReadErrors>(config, ftl.nand(), ftl.nand().geometry().page_size, core);
}

void ReadErrors::adopt_unstamped() {
  for (flash::BlockId b = 0; b < blocks_.size(); ++b)
    blocks_[b] = Block{nand_.is_erased(b) ? kErased : kBeforeRun, 0, false};
}

double ReadErrors::pe_cycles(flash::BlockId block) const {
  return config_.age_pe_cycles + nand_.erase_count(block);
}

double ReadErrors::retention_days(flash::BlockId block, TimeNs now) const {
  const TimeNs at = blocks_[block].programmed_at;
  if (at == kErased) return 0;
  const double since = at == kBeforeRun ? static_cast<double>(now)
                                        : static_cast<double>(std::max<TimeNs>(now - at, 0));
  return (at == kBeforeRun ? config_.age_retention_days : 0.0) + since / kNsPerDay;
}

double ReadErrors::reads_per_page(flash::BlockId block) const {
  return static_cast<double>(blocks_[block].reads) / nand_.geometry().pages_per_block;
}

double ReadErrors::rber(flash::Ppn ppn, TimeNs now) const {
  const flash::FastGeometry& g = nand_.geometry();
  const flash::BlockId block = g.block_of(ppn);
  const std::uint32_t type = nand_.is_slc(block) ? 0 : g.page_in_block(ppn) % bits_per_cell_;
  return config_.rber.rber(pe_cycles(block), retention_days(block, now), reads_per_page(block),
                           type);
}

void ReadErrors::commands(const flash::CommandList& commands, TimeNs now, bool functional) {
  const flash::FastGeometry& g = nand_.geometry();
  const auto read_of = [&](flash::Ppn ppn) {
    if (ppn == flash::kNoPage) return;
    count_reads(g.block_of(ppn), 1);
  };
  const auto program_of = [&](flash::Ppn ppn) {
    if (ppn == flash::kNoPage) return;
    Block& b = blocks_[g.block_of(ppn)];
    if (b.programmed_at == kErased) b.programmed_at = functional ? kBeforeRun : now;
  };
  for (const flash::Command& c : commands) {
    if (c.rides) continue;  // (part of the page read or programmed before it)
    switch (c.op) {
      case flash::Op::kRead:
        read_of(c.ppn);
        read_of(c.ppn2);
        break;
      case flash::Op::kProgram:
        program_of(c.ppn);
        program_of(c.ppn2);
        break;
      case flash::Op::kCopyBack:
      case flash::Op::kMove:
        read_of(c.src);
        read_of(c.src2);
        program_of(c.ppn);
        program_of(c.ppn2);
        break;
      case flash::Op::kErase:
        for (const flash::Ppn first : {c.ppn, c.ppn2})
          if (first != flash::kNoPage) blocks_[g.block_of(first)] = Block{};
        break;
    }
  }
}

std::uint32_t ReadErrors::draw(flash::Ppn ppn, double rate) {
  const std::uint32_t reads = blocks_[nand_.geometry().block_of(ppn)].reads;
  std::uint32_t worst = 0;
  for (std::uint32_t i = 0; i < codewords_; ++i) {
    const double u1 = flash::uniform_of(draw_key(config_.seed, ppn, reads, i, 1));
    const double u2 = flash::uniform_of(draw_key(config_.seed, ppn, reads, i, 2));
    worst = std::max(worst, flash::draw_bit_errors(rate, codeword_bits_, u1, u2));
  }
  return worst;
}

TimeNs ReadErrors::recover_reads(flash::CommandList& commands, TimeNs now) {
  extra_.assign(commands.size(), 0);
  std::uint8_t last_stage = 0;
  std::uint32_t most_extra = 0;
  TimeNs decode = 0;
  const flash::FastGeometry& g = nand_.geometry();
  for (std::size_t i = 0; i < commands.size(); ++i) {
    const flash::Command& c = commands[i];
    last_stage = std::max(last_stage, c.stage);
    if (c.op != flash::Op::kRead || c.rides) continue;
    const double rate = rber(c.ppn, now);
    const std::uint32_t errors = draw(c.ppn, rate);
    const flash::ReadRecovery r = flash::recover(config_.ecc, errors);
    ++counters_.page_reads;
    counters_.bit_errors += errors;
    counters_.decode_ns += r.decode_ns;
    counters_.retry_reads += r.retries;
    counters_.soft_reads += r.extra_reads - r.retries;
    switch (r.step) {
      case flash::ReadRecovery::Step::kFirstRead:
        ++counters_.corrected_first;
        break;
      case flash::ReadRecovery::Step::kRetry:
        ++counters_.corrected_retry;
        break;
      case flash::ReadRecovery::Step::kSoft:
        ++counters_.corrected_soft;
        break;
      case flash::ReadRecovery::Step::kUncorrectable:
        ++counters_.uncorrectable;
        media_errors_.push_back(MediaError{c.lpn, c.ppn, errors, rate});
        break;
    }
    // (Pages of a request decode in parallel: the slowest sets its end.)
    decode = std::max(decode, r.decode_ns);
    extra_[i] = r.extra_reads;
    most_extra = std::max(most_extra, r.extra_reads);
    const flash::BlockId block = g.block_of(c.ppn);
    count_reads(block, r.extra_reads);
    // (Soft decoding, or none corrected: past every retry.)
    if (config_.reclaim_retries &&
        (r.retries >= config_.reclaim_retries || r.step > flash::ReadRecovery::Step::kRetry))
      due_for_reclaim(block);
  }
  if (most_extra == 0) return decode;
  if (last_stage + most_extra > 255)
    throw make_error("a read's recovery takes {} reads beyond its first: too many stages",
                     most_extra);
  // Each page's extra reads: stage after stage, after the request's reads.
  const std::size_t count = commands.size();
  for (std::uint32_t step = 1; step <= most_extra; ++step)
    for (std::size_t i = 0; i < count; ++i)
      if (extra_[i] >= step) {
        flash::Command again = commands[i];
        again.stage = static_cast<std::uint8_t>(last_stage + step);
        again.retry = true;
        commands.push_back(again);
      }
  return decode;
}

void ReadErrors::count_reads(flash::BlockId block, std::uint32_t reads) {
  blocks_[block].reads += reads;
  if (config_.reclaim_reads && blocks_[block].reads >= config_.reclaim_reads)
    due_for_reclaim(block);
}

void ReadErrors::due_for_reclaim(flash::BlockId block) {
  Block& b = blocks_[block];
  if (b.reclaim_due || b.programmed_at == kErased) return;
  b.reclaim_due = true;
  reclaim_.push_back(block);
}

flash::BlockId ReadErrors::take_reclaim() {
  while (!reclaim_.empty()) {
    const flash::BlockId block = reclaim_.front();
    reclaim_.pop_front();
    // (Erased since it was queued: nothing to rewrite.)
    if (!blocks_[block].reclaim_due || blocks_[block].programmed_at == kErased) continue;
    // An open block would take its own pages back (the FTL writes where it
    // writes): it is due again at its next read, once full.
    if (!nand_.is_full(block)) {
      blocks_[block].reclaim_due = false;
      continue;
    }
    return block;
  }
  return kNoBlock;
}

void ReadErrors::reclaim(TimeNs now) {
  const flash::FastGeometry& g = nand_.geometry();
  for (flash::BlockId block; (block = take_reclaim()) != kNoBlock;) {
    // Its valid pages, but those the write buffer holds a newer copy of.
    reclaim_reads_.clear();
    reclaim_lpns_.clear();
    const flash::Ppn first = g.first_page(block);
    for (flash::Ppn ppn = first; ppn < first + nand_.write_pointer(block); ++ppn) {
      const flash::Lpn lpn = nand_.lpn_at(ppn);
      if (!nand_.is_valid(ppn) || core_.held_above(lpn)) continue;
      reclaim_lpns_.push_back(lpn);
      flash::Command read = flash::page_command(flash::Op::kRead, ppn, lpn);
      read.cleaning = true;
      reclaim_reads_.push_back(read);
    }
    count_reclaim(reclaim_lpns_.size());
    if (reclaim_lpns_.empty()) continue;
    ftl::page_runs(reclaim_lpns_, reclaim_runs_);
    // With host-guided placement, under the block's own handle: a handle's
    // data stays apart from the others' (persistent isolation).
    if (const std::uint8_t tag = nand_.placement_tag(block); tag != 0)
      for (ftl::PageRange& run : reclaim_runs_)
        run.placement = static_cast<std::uint8_t>(ftl::tag_handle(tag));
    core_.rewrite(reclaim_reads_, reclaim_runs_, now);
  }
}

void ReadErrors::save_state(StateWriter& out) const {
  out.section(kSection, 1);
  out.u64(blocks_.size());
  for (const Block& b : blocks_) {
    out.i64(b.programmed_at);
    out.u32(b.reads);
  }
  records::save_counters(out, counters_);
}

void ReadErrors::load_state(StateReader& in) {
  in.section(kSection, 1);
  if (in.u64() != blocks_.size())
    throw Error("its read error section has another number of blocks than the config");
  for (Block& b : blocks_) {
    b.programmed_at = in.i64();
    b.reads = in.u32();
    b.reclaim_due = false;
  }
  records::load_counters(in, counters_, "the read error part's");
  reclaim_.clear();
}

}  // namespace ssdlab::sim
