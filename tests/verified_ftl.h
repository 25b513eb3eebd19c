// An FTL built from a device config, driven by hand-built writes, reads and
// trims whose commands a verifier checks (one that follows map units), and
// a count of a command list's commands: the harness of the map-unit tests
// (tests/sim/map_units*_test.cpp) and of the block-based FTLs'
// (block_ftl_support.h).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <utility>

#include "flash/command.h"
#include "ftl/ftl.h"
#include "ftl/verifier.h"
#include "sim/config/config.h"

namespace ssdlab::testing {

class VerifiedFtl {
 public:
  // `copy_back`: whether the verifier allows copy-backs.
  explicit VerifiedFtl(sim::DeviceConfig config, bool copy_back = false)
      : config_(std::move(config)),
        ftl_(ftl::make_ftl({config_.geometry, config_.ftl, 0})),
        verifier_(ftl_->nand().geometry(), ftl_->logical_pages(), copy_back) {}

  flash::CommandList write(ftl::Lpn first, std::uint32_t count, bool partial_first = false,
                           bool partial_last = false) {
    flash::CommandList out;
    const ftl::PageRange range{first, count, partial_first, partial_last};
    ftl_->write(range, out);
    verifier_.host_write(range, out);
    return out;
  }
  // Several ranges in one call (a write buffer's flush, preconditioning's batches).
  flash::CommandList write_runs(ftl::PageRuns runs) {
    flash::CommandList out;
    ftl_->write_runs(runs, out);
    verifier_.host_write(runs, out);
    return out;
  }
  flash::CommandList read(ftl::Lpn first, std::uint32_t count) {
    flash::CommandList out;
    const ftl::PageRange range{first, count, false, false};
    ftl_->read(range, out);
    verifier_.host_read(range, out);
    return out;
  }
  flash::CommandList trim(ftl::Lpn first, std::uint32_t count) {
    flash::CommandList out;
    const ftl::PageRange range{first, count, false, false};
    ftl_->trim(range, out);
    verifier_.host_trim(range, out);
    return out;
  }
  std::uint64_t logical_pages() const { return ftl_->logical_pages(); }
  const ftl::FtlStats& stats() const { return ftl_->stats(); }
  void check_invariants() const { ftl_->check_invariants(); }

 protected:
  sim::DeviceConfig config_;
  std::unique_ptr<ftl::Ftl> ftl_;
  ftl::Verifier verifier_;
};

inline std::size_t count_if(const flash::CommandList& list, auto predicate) {
  return static_cast<std::size_t>(std::count_if(list.begin(), list.end(), predicate));
}

}  // namespace ssdlab::testing
