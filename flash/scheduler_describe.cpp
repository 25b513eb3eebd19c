// A deadlock's report (docs/model.md, "A scheduler deadlock"): what the
// commands the scheduler can never start wait for, for the error that stops
// the run (sim/controller/ssd_core.cpp). Up to kMaxLines of each kind.
#include <fmt/format.h>

#include <algorithm>

#include "flash/die_latches.h"
#include "flash/scheduler.h"
#include "flash/timeline.h"

namespace ssdlab::flash {

namespace {

constexpr std::size_t kMaxLines = 12;  // of each kind: the report stays readable

std::string where(const FastGeometry& g, Ppn page) {
  if (page == kNoPage) return "no page";
  return fmt::format("plane {} block {} page {}", g.plane_of(page), g.block_of(page),
                     g.page_in_block(page));
}

const char* chain_name(std::size_t chain) {
  return chain == 0 ? "host" : "cleaning";
}

}  // namespace

std::string DieLatches::describe() const {
  if (!on()) return {};
  const FastGeometry& g = timeline_->geometry();
  std::string out;
  std::size_t lines = 0;
  for (std::uint32_t plane = 0; plane < next_.size() && lines < kMaxLines; ++plane) {
    if (next_[plane] == kNoPage) continue;
    out += fmt::format("\n  latches: a wordline staged by list {}'s {} chain, waiting for its {}",
                       owner_[plane].job, chain_name(owner_[plane].chain), where(g, next_[plane]));
    ++lines;
  }
  lines = 0;
  for (const auto& [page, waiting] : waiting_) {
    if (page != waiting.page) continue;  // (a two-plane command waits under both its pages)
    if (lines++ == kMaxLines) break;
    out += fmt::format(
        "\n  waits for the pages before it in its wordline: list {}'s {} chain, {} of {}{}",
        waiting.owner.job, chain_name(waiting.owner.chain),
        waiting.read ? "a move's read" : "a program", where(g, waiting.page),
        waiting.second == kNoPage ? "" : " and " + where(g, waiting.second));
  }
  return out;
}

std::string FlashScheduler::describe_stuck() const {
  std::string out;
  std::size_t lines = 0;
  for (std::uint32_t id = 0; id < jobs_.size() && lines < kMaxLines; ++id) {
    if (std::find(free_jobs_.begin(), free_jobs_.end(), id) != free_jobs_.end()) continue;
    const Job& job = jobs_[id];
    for (std::size_t c = 0; c < job.chains.size(); ++c) {
      const Chain& chain = job.chains[c];
      if (chain.queued == 0 && chain.next >= chain.end) continue;
      const std::uint8_t stage = job.commands[job.order[chain.next > 0 ? chain.next - 1 : 0]].stage;
      out += fmt::format(
          "\n  list {} (tag {}): its {} chain in stage {}: {} commands not dispatched, {} of later "
          "stages, {} held",
          id, job.tag, chain_name(c), stage, chain.queued, chain.end - chain.next,
          c == 0 ? job.held.size() : 0);
      ++lines;
    }
  }
  return out + latches_.describe();
}

}  // namespace ssdlab::flash
