#include "sim/state/precondition.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <chrono>
#include <cmath>
#include <exception>
#include <thread>
#include <vector>

#include "common/error.h"
#include "common/host_info.h"
#include "common/progress.h"
#include "common/rng.h"
#include "ftl/page_runs.h"
#include "ftl/pools.h"
#include "sim/controller/page_packing.h"
#include "sim/engine/ftl_failure.h"

namespace ssdlab::sim {

namespace {

// Map units smaller than the flash page (ftl/page_mapped/page_mapped_units.h): whole
// units are gathered, up to two pages for each plane of the device, and
// written together (Ssd::write_runs_functionally) in whole pages per pool
// (sim/controller/page_packing.h), so that they fill flash pages as a
// drive's write buffer packs them; alone, each write would pad its page.
// What fills no page waits for the next batch; the last batch writes all.
// A write of part of a unit goes alone, after those gathered.
class UnitBatch {
 public:
  explicit UnitBatch(Ssd& ssd)
      : ssd_(ssd),
        capacity_(ssd.core().map_units_per_page() > 1 && !ssd.zoned()
                      ? 2 * std::size_t{ssd.core().map_units_per_page()} *
                            ssd.config().geometry.planes()
                      : 0),
        pools_(ftl::PoolLayout::pool_count(ssd.config().geometry, ssd.config().ftl.pool)),
        packer_(ssd.core().map_units_per_page()) {}

  // Takes the write if it covers whole logical pages; false if not (or
  // without map units).
  bool take(std::uint64_t offset, std::uint64_t size) {
    const std::uint64_t page = ssd_.ftl().logical_page_size();
    if (capacity_ == 0 || offset % page != 0 || size % page != 0) return false;
    for (std::uint64_t lpn = offset / page; lpn < (offset + size) / page; ++lpn)
      lpns_.push_back(static_cast<ftl::Lpn>(lpn));
    ++writes_, bytes_ += size;
    if (lpns_.size() >= capacity_) write(false);
    return true;
  }
  // Writes the units gathered; with `all` false, those that fill no page
  // of their pool wait.
  void write(bool all = true) {
    if (lpns_.empty()) return;
    std::sort(lpns_.begin(), lpns_.end());  // (functional: the order within a batch is moot)
    lpns_.erase(std::unique(lpns_.begin(), lpns_.end()), lpns_.end());
    const ftl::Ftl& ftl = ssd_.ftl();
    // (By pool and, with host-guided placement's ranges, handle: each fills its own pages.)
    packer_.pack(
        lpns_,
        [&ftl, this](ftl::Lpn lpn) {
          return ftl.pool_of_page(lpn) + pools_ * ftl.write_handle(lpn, 0);
        },
        all ? lpns_.size() : 0);
    packed_.clear();
    for (const std::vector<ftl::Lpn>& pool : packer_.pools())
      packed_.insert(packed_.end(), pool.begin(), pool.end());
    ftl::page_runs(packed_, runs_);
    if (!runs_.empty()) ssd_.write_runs_functionally(runs_);
    ssd_.core().count_functional_writes(writes_, bytes_);
    lpns_ = packer_.waiting();
    writes_ = bytes_ = 0;
  }

 private:
  Ssd& ssd_;
  std::size_t capacity_;  // units gathered before a write (0: no map units)
  std::uint32_t pools_;
  PagePacker packer_;
  std::vector<ftl::Lpn> lpns_, packed_;
  std::vector<ftl::PageRange> runs_;
  std::uint64_t writes_ = 0, bytes_ = 0;
};

// The writes of `spec` through write_functionally(), one after another.
void write_serially(Ssd& ssd, const workloads::PreconditionSpec& spec,
                    const workloads::StateGeometry& geometry, std::uint64_t seed,
                    Progress& progress) {
  std::uint64_t written = 0;
  UnitBatch batch(ssd);
  const auto failed = [&](const std::string& request) {
    rethrow_as_ftl_failure(ssd.config().ftl.type, "preconditioning", request);
  };
  workloads::state_writes(
      spec, geometry, seed, [&, page = geometry.page](std::uint64_t offset, std::uint64_t size) {
        try {
          if (!batch.take(offset, size)) {
            batch.write();
            ssd.write_functionally(offset, size);
          }
        } catch (...) {
          failed(fmt::format("{} bytes at offset {}, after {} bytes", size, offset, written));
        }
        written += size;
        progress.tick(written / page);
      });
  try {
    batch.write();
  } catch (...) {
    failed(fmt::format("the last writes gathered, after {} bytes", written));
  }
}

// The writes of `spec` straight to `ftl`, on `threads` threads, each owning
// the pools p with p % threads == its number: every thread walks the whole
// (seeded) sequence and writes the pages of its pools, one page per write(),
// so each pool sees its writes in the serial order and the state is the
// serial one whatever the number of threads (Ftl::parallel_pools()). Thread
// 0 (this one) shows the progress.
void write_in_parallel(Ssd& ssd, ftl::Ftl& ftl, const workloads::PreconditionSpec& spec,
                       const workloads::StateGeometry& geometry, std::uint64_t seed,
                       unsigned threads, Progress& progress) {
  std::vector<std::exception_ptr> failures(threads);
  std::uint64_t calls = 0, bytes = 0;
  auto work = [&](unsigned self) {
    ftl::CommandList commands;
    std::uint64_t written = 0;
    // Each page is written two of this thread's pages after it is known, with
    // a hint for the next two (Ftl::prefetch), so that the cache misses of
    // the next writes overlap with this one (as the host loop does with
    // IoSource::peek()); the order of the writes is unchanged.
    std::array<ftl::Lpn, 2> pending{};
    std::size_t held = 0;
    auto write_page = [&](ftl::Lpn lpn) {
      commands.clear();
      ftl.write({lpn, 1, false, false}, commands);
    };
    try {
      workloads::state_writes(spec, geometry, seed, [&](std::uint64_t offset, std::uint64_t size) {
        const ftl::Lpn first = offset / geometry.page;
        for (ftl::Lpn lpn = first; lpn < first + size / geometry.page; ++lpn) {
          if (ftl.pool_of_page(lpn) % threads != self) continue;
          if (held < pending.size()) {
            pending[held++] = lpn;
            continue;
          }
          ftl.prefetch(pending[1], lpn);
          write_page(pending[0]);
          pending = {pending[1], lpn};
        }
        written += size;
        if (self == 0) ++calls, bytes += size, progress.tick(written / geometry.page);
      });
      for (std::size_t i = 0; i < held; ++i) write_page(pending[i]);
    } catch (...) {
      failures[self] = std::current_exception();
    }
  };
  ftl.set_pool_parallel(true);
  {
    const ftl::UnreadLists unread(ftl, true);  // (the direct FTL: nothing reads its lists)
    std::vector<std::thread> others;
    for (unsigned self = 1; self < threads; ++self) others.emplace_back(work, self);
    work(0);
    for (std::thread& thread : others) thread.join();
  }
  ftl.set_pool_parallel(false);
  ssd.core().count_functional_writes(calls, bytes);
  for (unsigned self = 0; self < threads; ++self) {
    if (!failures[self]) continue;
    try {
      std::rethrow_exception(failures[self]);
    } catch (...) {
      rethrow_as_ftl_failure(ssd.config().ftl.type, "preconditioning",
                             fmt::format("a write of thread {} of {}", self, threads));
    }
  }
}

}  // namespace

unsigned precondition_threads(Ssd& ssd, const workloads::PreconditionSpec& spec,
                              unsigned requested) {
  const ftl::Ftl* ftl = ssd.ftl_for_direct_writes();
  const std::uint32_t pools = ftl ? ftl->parallel_pools() : 0;
  // uFLIP's writes cover parts of pages (read-modify-write): one after another.
  const bool whole_pages = spec.kind != workloads::PreconditionSpec::Kind::kUflip &&
                           ssd.ftl().logical_page_size() == ssd.config().geometry.page_size;
  if (pools == 0 || !whole_pages) return 0;
  const unsigned wanted = requested ? requested : usable_cpus();
  return std::min<unsigned>(wanted, pools);
}

std::optional<StateRecord> precondition(Ssd& ssd, const workloads::PreconditionSpec& spec,
                                        std::uint64_t seed, bool quiet, unsigned threads,
                                        const Progress::Observer& observer) {
  if (spec.kind == workloads::PreconditionSpec::Kind::kNone) return std::nullopt;
  const auto start = std::chrono::steady_clock::now();
  const ftl::FtlStats before = ssd.ftl().stats();
  const workloads::StateGeometry geometry{
      ssd.logical_bytes(),
      std::uint64_t{ssd.config().geometry.pages_per_block} * ssd.config().geometry.page_size,
      ssd.ftl().logical_page_size(), ssd.config().sector_size};
  // The fill plus the overwrites, in pages (the sequential passes round up
  // to whole chunks: the count may pass the total slightly).
  const std::uint64_t total_bytes =
      geometry.capacity +
      static_cast<std::uint64_t>(spec.overwrites * static_cast<double>(geometry.capacity));
  Progress progress = Progress::reporting(observer, quiet, "preconditioning (" + spec.text + ")",
                                          total_bytes / geometry.page, "pages");
  const unsigned used = precondition_threads(ssd, spec, threads);
  if (used > 0)
    write_in_parallel(ssd, *ssd.ftl_for_direct_writes(), spec, geometry, seed, used, progress);
  else
    write_serially(ssd, spec, geometry, seed, progress);
  ssd.core().end_functional_writes();
  progress.finish();
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const ftl::FtlStats& after = ssd.ftl().stats();
  const std::uint64_t host = after.host_pages_written - before.host_pages_written;
  const std::uint64_t flash = after.flash_pages_written - before.flash_pages_written;
  StateRecord done;
  done.mode = spec.text;
  done.host_pages_written = host;
  done.flash_pages_written = flash;
  done.blocks_cleaned = after.blocks_cleaned - before.blocks_cleaned;
  done.write_amplification = host ? static_cast<double>(flash) / static_cast<double>(host) : 0.0;
  done.threads = std::max(used, 1u);
  done.wall_seconds = std::round(seconds * 1000) / 1000;
  done.flash_pages_per_second = seconds > 0 ? std::round(static_cast<double>(flash) / seconds) : 0.0;
  return done;
}

}  // namespace ssdlab::sim
