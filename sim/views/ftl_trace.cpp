#include "sim/views/ftl_trace.h"

#include <fmt/format.h>

#include <algorithm>

#include "common/error.h"
#include "common/output_error.h"
#include "common/units.h"
#include "sim/controller/ssd.h"
#include "sim/results/output.h"

namespace ssdlab::sim {

using flash::Op;

FtlTrace::FtlTrace(std::ostream& out, const flash::Geometry& geometry, std::uint64_t logical_pages,
                   std::uint64_t ios, std::string file)
    : out_(out),
      file_(std::move(file)),
      fail_for_test_(!file_.empty() && write_fails_for_test(file_)),
      geometry_(geometry),
      ios_(ios),
      location_(logical_pages, flash::kNoPage) {}

void FtlTrace::check_written() {
  if (file_.empty()) return;  // stderr: nothing to report a failure to
  if (fail_for_test_) throw write_failed(file_, ENOSPC);
  // errno is the failed write's: the stream sets badbit right after it.
  if (!out_) throw write_failed(file_, errno);
}

void FtlTrace::flush() {
  out_.flush();
  check_written();
}

std::string FtlTrace::where(flash::Ppn ppn) const {
  const flash::PageAddress a = flash::decode(geometry_, ppn);
  return fmt::format("page {} [ch{} die{} plane{} block {} page {}]", ppn, a.channel, a.die,
                     geometry_.plane_in_die(a.plane), a.block, a.page);
}

void FtlTrace::line(const std::string& text) {
  out_ << "  " << text << '\n';
  ++lines_;
}

void FtlTrace::announce_victim(flash::Ppn page) {
  const flash::BlockId block = geometry_.block_of(page);
  if (std::find(victims_announced_.begin(), victims_announced_.end(), block) !=
      victims_announced_.end())
    return;
  victims_announced_.push_back(block);
  // The victim's valid pages are the moves out of it in this list.
  line(fmt::format("pick victim block {} [ch{} die{} plane{}]: {} valid pages to move", block,
                   flash::decode(geometry_, page).channel, geometry_.die_of(page),
                   geometry_.plane_in_die(geometry_.plane_of(page)), victim_moves_[block]));
  const auto& chosen = explanations_.chosen;
  const auto e = std::find_if(chosen.begin(), chosen.end(),
                              [&](const auto& x) { return x.victim.block == block; });
  if (e == chosen.end()) return;
  std::string text = fmt::format(
      "candidates {} sealed block{} of {}, policy {}; fewest valid:", e->sealed,
      e->sealed == 1 ? "" : "s",
      e->plane_scope ? std::string("its plane") : fmt::format("pool {}", e->group), e->policy);
  bool listed = false;
  for (const ftl::VictimCandidate& c : e->fewest) {
    text += fmt::format("{} block {} ({})", &c == &e->fewest.front() ? "" : ",", c.block, c.valid);
    listed = listed || c.block == block;
  }
  if (!listed) text += fmt::format("; chosen block {} ({})", block, e->victim.valid);
  line(text);
}

void FtlTrace::follow(const flash::Command& command, flash::Ppn ppn, flash::Lpn lpn, bool print) {
  const bool known = lpn != flash::kNoLpn && lpn < location_.size();
  switch (command.op) {
    case Op::kRead:
      if (print) line(fmt::format("read       lpn {} at {}", lpn, where(ppn)));
      break;
    case Op::kProgram:
      if (!known) {
        if (print) line(fmt::format("pad        {} (no data)", where(ppn)));
        break;
      }
      if (print) line(fmt::format("allocate   lpn {} -> {}", lpn, where(ppn)));
      if (location_[lpn] != flash::kNoPage && print)
        line(fmt::format("invalidate {} (held lpn {})", where(location_[lpn]), lpn));
      location_[lpn] = ppn;
      break;
    case Op::kCopyBack:
    case Op::kMove: {
      if (print) {
        if (command.cleaning) announce_victim(command.src);
        if (command.host_data)
          line(fmt::format("merge      lpn {}: {} -> {} (copy-back with the host's data)", lpn,
                           where(command.src), where(ppn)));
        else
          line(fmt::format("move       lpn {}: {} -> {} ({})", lpn, where(command.src), where(ppn),
                           command.op == Op::kCopyBack ? "copy-back" : "inter-plane move"));
      }
      if (known) location_[lpn] = ppn;
      break;
    }
    case Op::kErase: {
      const flash::BlockId block = geometry_.block_of(ppn);
      if (print && command.cleaning) announce_victim(ppn);
      if (print)
        line(fmt::format("erase      block {} [ch{} die{} plane{}]{}", block,
                         flash::decode(geometry_, ppn).channel, geometry_.die_of(ppn),
                         geometry_.plane_in_die(geometry_.plane_of(ppn)),
                         command.cleaning ? " (cleaning)" : ""));
      break;
    }
  }
}

void FtlTrace::commands(CommandSource source, ftl::PageRuns ranges,
                        const flash::CommandList& commands) {
  if (!logging()) return;
  const bool print = source != CommandSource::kFunctional;
  // What the FTL explained belongs to this list (it made the list first).
  struct Consumed {
    ftl::VictimExplanations& explanations;
    ~Consumed() { explanations.chosen.clear(); }
  } consumed{explanations_};
  if (print) {
    if (!ranges.empty()) {
      out_ << fmt::format("io {}: {} lpn ", requests_,
                          source == CommandSource::kHostRead   ? "read"
                          : source == CommandSource::kHostTrim ? "trim"
                                                               : "write");
      // (A write buffer's flush writes several runs at once.)
      for (std::size_t i = 0; i < ranges.size(); ++i)
        out_ << fmt::format("{}{}..{}", i ? ", " : "", ranges[i].first,
                            ranges[i].first + ranges[i].count - 1);
      out_ << '\n';
    } else
      out_ << "background cleaning:\n";
    // Moves out of each cleaned block, counted first so that the victim's
    // line can say how many valid pages it had.
    victims_announced_.clear();
    victim_moves_.clear();
    for (const flash::Command& command : commands)
      if (command.cleaning && (command.op == Op::kCopyBack || command.op == Op::kMove))
        ++victim_moves_[geometry_.block_of(command.src)];
  }
  for (const flash::Command& command : commands) {
    follow(command, command.ppn, command.lpn, print);
    if (command.two_plane() && command.op != Op::kErase)
      follow(command, command.ppn2, command.lpn2, print);
    else if (command.two_plane() && print)
      follow(command, command.ppn2, flash::kNoLpn, print);
  }
  if (print) check_written();
}

void FtlTrace::request_done(const HostIo& /*request*/, TimeNs submitted, TimeNs done) {
  if (!logging()) return;
  out_ << fmt::format("  done       submitted at {} us, response {} us\n", format_us(submitted),
                      format_us(done - submitted));
  ++requests_;
  if (!logging()) {
    explanations_.wanted = false;  // no more lines: the FTL need not explain
    out_.flush();
  }
  check_written();
}

}  // namespace ssdlab::sim
