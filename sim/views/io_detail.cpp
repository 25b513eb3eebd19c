#include "sim/views/io_detail.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>

namespace ssdlab::sim {
namespace {

using flash::Phase;
using flash::Resource;

bool array_phase(Phase phase) {
  return phase == Phase::kArrayRead || phase == Phase::kArrayProgram ||
         phase == Phase::kArrayErase || phase == Phase::kCopyBack;
}

bool bus_phase(Resource resource, Phase phase) {
  return (resource == Resource::kBus || resource == Resource::kControlBus) &&
         (phase == Phase::kCommandCycles || phase == Phase::kDataIn || phase == Phase::kDataOut);
}

// A command's pages that are the host's data (a read's, a program's, a
// read-modify-write's target).
bool own_op(const flash::Command& command) {
  return !command.cleaning &&
         (command.op == flash::Op::kRead || command.op == flash::Op::kProgram ||
          command.op == flash::Op::kCopyBack);
}

double us(TimeNs ns) {
  return static_cast<double>(ns) / 1000.0;
}

}  // namespace

IoDetail::IoDetail(Ssd& ssd, RowLog& log)
    : ssd_(ssd),
      log_(log),
      multi_bit_(ssd.config().geometry.cell_type != flash::CellType::kSlc),
      holders_(ssd.config().geometry.dies() + ssd.config().geometry.channels),
      dies_(ssd.config().geometry.dies()) {
  const std::uint32_t page = ssd.config().geometry.page_size;
  const std::uint32_t unit = ssd.ftl().logical_page_size();
  units_per_page_ = unit < page ? page / unit : 1;
  ssd_.core().observers().add(this);
  ssd_.core().observers().add_flash(this);
}

IoDetail::~IoDetail() {
  ssd_.core().observers().remove_flash(this);
  ssd_.core().observers().remove(this);
}

IoDetail::Request& IoDetail::fresh(std::uint64_t key) {
  Request& request = requests_[key];
  forget_pages(key, request);
  request = Request{};
  return request;
}

void IoDetail::forget_pages(std::uint64_t key, Request& request) {
  for (const flash::Ppn page : request.pages) {
    auto [first, last] = own_.equal_range(page);
    for (auto it = first; it != last; ++it)
      if (it->second == key) {
        own_.erase(it);
        break;
      }
  }
  request.pages.clear();
}

void IoDetail::dispatched(std::uint64_t key, std::uint16_t flow, TimeNs at) {
  Request& request = fresh(key);
  request.flow = flow;
  request.dispatched = at;
}

void IoDetail::starting(std::uint64_t key, TimeNs at) {
  Request& request = requests_[key];
  if (request.started >= 0) {  // sent again after a power cut
    const std::uint16_t flow = request.flow;
    const TimeNs dispatched = request.dispatched;
    fresh(key);
    request.flow = flow;
    request.dispatched = dispatched;
  }
  request.started = at;
  current_ = &request;
  current_key_ = key;
}

void IoDetail::commands(CommandSource source, ftl::PageRuns, const flash::CommandList& commands) {
  if (!current_ || source == CommandSource::kBackground || source == CommandSource::kFunctional)
    return;
  const flash::FlashTimeline& timeline = ssd_.core().timeline();
  for (const flash::Command& command : commands) {
    if (!own_op(command)) continue;
    for (const flash::Ppn address : {command.ppn, command.ppn2}) {
      const flash::Ppn page = page_of(address);
      if (page == flash::kNoPage) continue;
      // A page's units (map units) are one flash page: counted once.
      if (std::find(current_->pages.begin(), current_->pages.end(), page) != current_->pages.end())
        continue;
      current_->pages.push_back(page);
      own_.emplace(page, current_key_);
      ++current_->page_count;
      if (!multi_bit_) continue;
      const bool slc = timeline.in_slc_mode(page);
      current_->slc_mode_pages += slc;
      if (!current_->page_types.empty()) current_->page_types += ';';
      current_->page_types +=
          slc ? "slc"
              : flash::page_type_name(ssd_.config().geometry.cell_type, timeline.page_type(page));
    }
  }
}

std::size_t IoDetail::owners_of(const flash::Command& command, std::uint64_t (&keys)[2]) const {
  std::size_t count = 0;
  if (!own_op(command)) return 0;
  for (const flash::Ppn address : {command.ppn, command.ppn2}) {
    if (address == flash::kNoPage) continue;
    const auto found = own_.find(address);  // page commands: the flash's addresses
    if (found == own_.end() || (count == 1 && keys[0] == found->second)) continue;
    keys[count++] = found->second;
  }
  return count;
}

void IoDetail::phase(Resource resource, std::uint32_t index, Phase phase, TimeNs start, TimeNs end,
                     const flash::Command& command) {
  if (end <= start) return;
  std::uint64_t keys[2];
  const std::size_t owners = owners_of(command, keys);
  for (std::size_t k = 0; k < owners; ++k) {
    const auto it = requests_.find(keys[k]);
    if (it == requests_.end()) continue;
    Request& request = it->second;
    if (array_phase(phase)) request.array.push_back({start, end});
    if (bus_phase(resource, phase)) request.bus.push_back({start, end});
  }
  // Dies and channels' buses: what holds them is what others wait behind.
  const bool die = resource == Resource::kDie;
  if (!die && !(resource == Resource::kBus && bus_phase(resource, phase))) return;
  const std::uint32_t slot = die ? index : dies_ + index;
  if (slot >= holders_.size()) return;
  if (owners) {
    for (std::size_t k = 0; k < owners; ++k) {
      const auto it = requests_.find(keys[k]);
      if (it == requests_.end()) continue;
      std::vector<std::uint32_t>& held = it->second.held;
      if (std::find(held.begin(), held.end(), slot) == held.end()) held.push_back(slot);
      holders_[slot].push_back({start, end, keys[k], it->second.flow, kTenant});
    }
    return;
  }
  // Cleaning on a block in SLC mode is the SLC cache's folding (or its own
  // cleaning) on cells of several bits.
  const flash::FlashTimeline& timeline = ssd_.core().timeline();
  const bool slc_block =
      multi_bit_ &&
      (timeline.in_slc_mode(command.src != flash::kNoPage ? command.src : command.ppn));
  const Behind kind = !command.cleaning ? kIo : slc_block ? kFold : kCleaning;
  holders_[slot].push_back({start, end, kNoKey, 0, kind});
}

void IoDetail::flash_done(std::uint64_t key, TimeNs at) {
  const auto it = requests_.find(key);
  if (it == requests_.end()) return;
  Request& request = it->second;
  request.flash_done = at;
  split(request, key);
  forget_pages(key, request);
  // What held the dies before the earliest I/O still in flight is no
  // longer needed.
  TimeNs oldest = at;
  for (const auto& [other, r] : requests_)
    if (other != key && r.started >= 0 && r.flash_done < 0) oldest = std::min(oldest, r.started);
  prune(oldest);
}

void IoDetail::prune(TimeNs before) {
  for (auto& holders : holders_)
    while (!holders.empty() && holders.front().end <= before) holders.pop_front();
}

void IoDetail::split(Request& request, std::uint64_t key) const {
  const TimeNs from = request.started, to = request.flash_done;
  if (from < 0 || to <= from) return;
  // Boundaries of every span that counts, clipped to the flash part: +1 as a
  // span starts, -1 as it ends, per class (0 array, 1 bus, 2 + Behind).
  struct Edge {
    TimeNs at;
    int delta;
    std::uint8_t what;
  };
  std::vector<Edge> edges;
  const auto add = [&](TimeNs start, TimeNs end, std::uint8_t what) {
    start = std::max(start, from);
    end = std::min(end, to);
    if (start >= end) return;
    edges.push_back({start, +1, what});
    edges.push_back({end, -1, what});
  };
  for (const Span& span : request.array) add(span.start, span.end, 0);
  for (const Span& span : request.bus) add(span.start, span.end, 1);
  for (const std::uint32_t slot : request.held)
    for (const Holder& holder : holders_[slot]) {
      if (holder.key == key) continue;
      const Behind kind = holder.key == kNoKey          ? holder.kind
                          : holder.flow != request.flow ? kTenant
                                                        : kIo;
      add(holder.start, holder.end, static_cast<std::uint8_t>(2 + kind));
    }
  std::sort(edges.begin(), edges.end(), [](const Edge& a, const Edge& b) { return a.at < b.at; });
  std::array<int, 2 + kBehindKinds> active{};
  TimeNs at = from;
  std::array<TimeNs, 2 + kBehindKinds> spent{};
  const auto count_to = [&](TimeNs until) {
    if (until <= at) return;
    std::size_t what = 2 + kOther;
    for (std::size_t k = 0; k < 2 + kOther; ++k)
      if (active[k] > 0) {
        what = k;
        break;
      }
    spent[what] += until - at;
    at = until;
  };
  for (const Edge& edge : edges) {
    count_to(edge.at);
    active[edge.what] += edge.delta;
  }
  count_to(to);
  request.array_ns = spent[0];
  request.bus_ns = spent[1];
  for (std::size_t k = 0; k < kBehindKinds; ++k) request.behind_ns[k] = spent[2 + k];
}

void IoDetail::completed(std::uint64_t key, const IoRowName& name, TimeNs submitted, TimeNs at) {
  const auto it = requests_.find(key);
  Request request = it == requests_.end() ? Request{} : std::move(it->second);
  if (it != requests_.end()) {
    forget_pages(key, it->second);
    requests_.erase(it);
  }
  const TimeNs dispatched = request.dispatched >= 0 ? request.dispatched : submitted;
  const TimeNs started = request.started >= 0 ? request.started : dispatched;
  const TimeNs flash_done = request.flash_done >= 0 ? request.flash_done : at;
  if (request.flash_done < 0) request.behind_ns[kOther] = flash_done - started;
  row_.clear();
  fmt::format_to(std::back_inserter(row_),
                 "{},{},{},{},{:.3f},{:.3f},{:.3f},{:.3f},{:.3f},{:.3f},{:.3f}", name.experiment,
                 name.run, name.process, name.io, us(at - submitted), us(dispatched - submitted),
                 us(started - dispatched), us(flash_done - started), us(at - flash_done),
                 us(request.array_ns), us(request.bus_ns));
  for (const TimeNs behind : request.behind_ns)
    fmt::format_to(std::back_inserter(row_), ",{:.3f}", us(behind));
  fmt::format_to(std::back_inserter(row_), ",{},{},{}", request.page_count, request.slc_mode_pages,
                 request.page_types);
  log_.row(row_);
}

}  // namespace ssdlab::sim
