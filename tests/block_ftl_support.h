// The block-based FTLs (block-mapped, BAST, FAST) on the tiny device, driven
// through the verifier: a harness for hand-built sequences, and a mixed
// verification run with sequential streams.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>

#include "cleaning_support.h"
#include "common/rng.h"
#include "ftl/block_keys.h"
#include "ftl/ftl.h"
#include "ftl/verifier.h"
#include "test_support.h"
#include "verified_ftl.h"

namespace ssdlab::testing {

// The tiny preset (16-page flash blocks, 8 planes) with FTL `type`, virtual
// blocks of `width` flash blocks, and one command per page (no two-plane
// merging) so that tests can count commands.
inline sim::DeviceConfig block_ftl_config(const std::string& type, std::uint32_t log_blocks = 2,
                                          std::uint32_t width = 1) {
  auto config = load_preset("tiny");
  config.ftl.type = type;
  config.ftl.keys.emplace(ftl::BlockKeys{
      .virtual_block_size = width * config.geometry.pages_per_block * config.geometry.page_size,
      .log_blocks = log_blocks});
  config.ftl.two_plane = false;
  return config;
}

inline std::size_t count_ops(const ftl::CommandList& commands, flash::Op op) {
  return static_cast<std::size_t>(std::count_if(
      commands.begin(), commands.end(), [op](const flash::Command& c) { return c.op == op; }));
}

// Copy-backs and moves: the pages a merge copied.
inline std::size_t count_copies(const ftl::CommandList& commands) {
  return count_ops(commands, flash::Op::kCopyBack) + count_ops(commands, flash::Op::kMove);
}

class BlockFtlHarness : public VerifiedFtl {
 public:
  explicit BlockFtlHarness(const sim::DeviceConfig& config)
      : VerifiedFtl(config, config.ftl.copy_back),
        block_pages_(config.ftl.keys.get<ftl::BlockKeys>().virtual_block_size /
                     config.geometry.page_size) {}

  // Logical page `offset` of logical block `lbn`.
  ftl::Lpn lpn(std::uint32_t lbn, std::uint32_t offset) const {
    return lbn * block_pages_ + offset;
  }
  std::uint32_t block_pages() const { return block_pages_; }
  const flash::Geometry& geometry() const { return config_.geometry; }
  ftl::Ftl& ftl() { return *ftl_; }
  ftl::Verifier& verifier() { return verifier_; }
  const ftl::FtlStats& stats() const { return ftl_->stats(); }

 private:
  std::uint32_t block_pages_;
};

// `streams` writers, each writing 1..max_pages pages at a time in order from
// its own random start (wrapping at the end of the device), some of them
// partial at the ends, interleaved with reads of what was just written.
inline void run_sequential_streams(ftl::Ftl& ftl, ftl::Verifier& verifier, std::uint64_t operations,
                                   std::uint64_t seed, std::uint32_t streams,
                                   std::uint32_t max_pages) {
  Rng rng(seed);
  std::vector<ftl::Lpn> next(streams);
  for (auto& position : next) position = static_cast<ftl::Lpn>(rng.uniform(ftl.logical_pages()));
  ftl::CommandList out;
  for (std::uint64_t i = 0; i < operations; ++i) {
    ftl::Lpn& position = next[rng.uniform(streams)];
    const auto count = static_cast<std::uint32_t>(1 + rng.uniform(max_pages));
    if (position + count > ftl.logical_pages()) position = 0;
    const ftl::PageRange range{position, count, rng.uniform(8) == 0, rng.uniform(8) == 0};
    out.clear();
    ftl.write(range, out);
    verifier.host_write(range, out);
    if (rng.uniform(4) == 0) {
      out.clear();
      ftl.read(range, out);
      verifier.host_read(range, out);
    }
    position += count;
  }
}

// Rounds of random mix (partial writes, reads, trims) and sequential
// streams, invariants checked after each; then the whole device read back.
// Returns the FTL's counters.
inline ftl::FtlStats verify_block_ftl(const sim::DeviceConfig& config, std::uint64_t rounds,
                                      std::uint64_t operations_per_round, std::uint32_t max_pages) {
  auto ftl = ftl::make_ftl({config.geometry, config.ftl, 0});
  ftl::Verifier verifier(config.geometry, ftl->logical_pages(), config.ftl.copy_back);
  for (std::uint64_t round = 0; round < rounds; ++round) {
    run_random_mix(*ftl, verifier, operations_per_round, 2 * round + 1, max_pages);
    run_sequential_streams(*ftl, verifier, operations_per_round, 2 * round + 2, 3, 2 * max_pages);
    EXPECT_NO_THROW(ftl->check_invariants()) << "round " << round;
    if (::testing::Test::HasFailure()) return ftl->stats();
  }
  ftl::CommandList out;
  for (ftl::Lpn lpn = 0; lpn < ftl->logical_pages(); lpn += 8) {
    const auto count =
        static_cast<std::uint32_t>(std::min<std::uint64_t>(8, ftl->logical_pages() - lpn));
    out.clear();
    ftl->read({lpn, count, false, false}, out);
    verifier.host_read({lpn, count, false, false}, out);
  }
  EXPECT_GT(verifier.pages_checked(), rounds * operations_per_round);
  return ftl->stats();
}

}  // namespace ssdlab::testing
