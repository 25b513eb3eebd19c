// Cleaning scope and granularity (ftl.clean_scope, ftl.clean_granularity;
// ftl/page_mapped/page_mapped_trigger.cpp): every setting loses nothing under the
// verifier; one-victim erases at most one block per page written, in the
// written plane with the plane scope; incremental moves at most
// clean_incremental_pages pages per page written and keeps a victim in
// progress across writes; its emergency floor keeps a nearly full device
// working. Expectations come from the settings, not from recorded runs.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "cleaning_support.h"
#include "common/rng.h"
#include "ftl/ftl.h"
#include "ftl/verifier.h"
#include "sim/config/config.h"
#include "test_support.h"

namespace ssdlab {
namespace {

using flash::Op;

struct Setting {
  std::string ftl, scope, granularity;
};

std::string name_of(const Setting& s) {
  std::string name = s.ftl + "_" + s.scope + "_" + s.granularity;
  std::replace(name.begin(), name.end(), '-', '_');
  return name;
}

std::vector<Setting> every_setting() {
  std::vector<Setting> settings;
  for (const char* ftl : {"page-mapped", "dftl"})
    for (const char* scope : {"pool", "plane"})
      for (const char* granularity : {"until-mark", "one-victim", "incremental"})
        settings.push_back({ftl, scope, granularity});
  return settings;
}

// The tiny device with 128 blocks per plane: large enough that a pool's
// mark, a plane's mark and their emergency floors all differ.
sim::DeviceConfig device(const Setting& s, std::vector<std::string> more = {}) {
  std::vector<std::string> overrides = {
      "geometry.blocks_per_plane=128", "ftl.type=\"" + s.ftl + "\"",
      "ftl.clean_scope=\"" + s.scope + "\"", "ftl.clean_granularity=\"" + s.granularity + "\""};
  if (s.ftl == "dftl") overrides.push_back("ftl.map_cache_entries=512");
  overrides.insert(overrides.end(), more.begin(), more.end());
  return sim::load_config(testing::preset("tiny"), overrides);
}

class EverySetting : public ::testing::TestWithParam<Setting> {};

TEST_P(EverySetting, EveryReadReturnsTheLatestWriteThroughManyCleanings) {
  const sim::DeviceConfig config = device(GetParam());
  auto ftl = ftl::make_ftl({config.geometry, config.ftl, 3});
  ftl::Verifier verifier(config.geometry, ftl->logical_pages(), config.ftl.copy_back);
  ftl::CommandList out;
  for (ftl::Lpn lpn = 0; lpn < ftl->logical_pages(); ++lpn) {
    out.clear();
    ftl->write({lpn, 1, false, false}, out);
    verifier.host_write({lpn, 1, false, false}, out);
  }
  // About three device capacities of writes (12 of 20 operations, 2.5 pages each).
  testing::run_random_mix(*ftl, verifier, ftl->logical_pages() * 2, 5);
  ftl->check_invariants();
  EXPECT_GT(ftl->stats().blocks_cleaned, ftl->logical_pages() / config.geometry.pages_per_block);
}

INSTANTIATE_TEST_SUITE_P(Cleaning, EverySetting, ::testing::ValuesIn(every_setting()),
                         [](const auto& info) { return name_of(info.param); });

// Per single-page host write: the erases and moves cleaning appended, and the
// plane the host page went to.
struct WriteWork {
  std::uint32_t erases = 0, moves = 0;
  std::vector<std::uint32_t> erased_planes;
  std::uint32_t host_plane = 0;
};

class WriteProbe {
 public:
  explicit WriteProbe(const sim::DeviceConfig& config)
      : config_(config),
        ftl_(ftl::make_ftl({config.geometry, config.ftl, 1})),
        verifier_(config.geometry, ftl_->logical_pages(), config.ftl.copy_back) {
    for (ftl::Lpn lpn = 0; lpn < ftl_->logical_pages(); ++lpn) write(lpn);
  }
  WriteWork write(ftl::Lpn lpn) {
    ftl::CommandList out;
    ftl_->write({lpn, 1, false, false}, out);
    verifier_.host_write({lpn, 1, false, false}, out);
    WriteWork work;
    for (const flash::Command& c : out) {
      if (c.cleaning && c.op == Op::kErase) {
        ++work.erases;
        work.erased_planes.push_back(config_.geometry.plane_of(c.ppn));
      }
      if (c.cleaning && (c.op == Op::kCopyBack || c.op == Op::kMove)) ++work.moves;
      if (!c.cleaning && c.op == Op::kProgram) work.host_plane = config_.geometry.plane_of(c.ppn);
    }
    return work;
  }
  // `times` device capacities of random single-page writes.
  std::vector<WriteWork> overwrite(double times, std::uint64_t seed) {
    Rng rng(seed);
    std::vector<WriteWork> works;
    const auto count = static_cast<std::uint64_t>(times * ftl_->logical_pages());
    for (std::uint64_t i = 0; i < count; ++i)
      works.push_back(write(static_cast<ftl::Lpn>(rng.uniform(ftl_->logical_pages()))));
    ftl_->check_invariants();
    return works;
  }
  const ftl::Ftl& ftl() const { return *ftl_; }
  std::uint32_t pages_per_block() const { return config_.geometry.pages_per_block; }

 private:
  sim::DeviceConfig config_;
  std::unique_ptr<ftl::Ftl> ftl_;
  ftl::Verifier verifier_;
};

TEST(CleanGranularity, OneVictimErasesAtMostOneBlockPerPageWritten) {
  for (const char* scope : {"pool", "plane"}) {
    SCOPED_TRACE(scope);
    WriteProbe probe(device({"page-mapped", scope, "one-victim"}));
    const auto works = probe.overwrite(3, 7);
    std::uint64_t erases = 0;
    for (const WriteWork& work : works) {
      ASSERT_LE(work.erases, 1u);
      erases += work.erases;
      // The plane scope cleans the plane the write goes to: its moves are
      // copy-backs there, and so is its erase.
      if (std::string(scope) == "plane" && work.erases == 1) {
        EXPECT_EQ(work.erased_planes.front(), work.host_plane);
      }
    }
    // Three capacities of writes clean at least a block's worth of pages per
    // block of pages written.
    EXPECT_GT(erases, works.size() / probe.pages_per_block());
  }
}

TEST(CleanGranularity, UntilMarkMayEraseSeveralBlocksForOneWriteOneVictimNever) {
  // The contrast the granularity exists for: at 5% over-provisioning every
  // victim holds many valid pages, so cleaning back to the pool's mark takes
  // several victims at once now and then.
  std::uint32_t most[2] = {0, 0};
  int i = 0;
  for (const char* granularity : {"until-mark", "one-victim"}) {
    WriteProbe probe(
        device({"page-mapped", "pool", granularity}, {"ftl.overprovisioning=0.05"}));
    for (const WriteWork& work : probe.overwrite(2, 9)) most[i] = std::max(most[i], work.erases);
    ++i;
  }
  EXPECT_GT(most[0], 1u);
  EXPECT_EQ(most[1], 1u);
}

TEST(CleanGranularity, IncrementalMovesAtMostItsBudgetPerPageWritten) {
  for (const char* scope : {"pool", "plane"}) {
    for (const std::uint32_t budget : {4u, 8u}) {
      SCOPED_TRACE(fmt::format("{} {}", scope, budget));
      // 30% over-provisioning: victims hold few valid pages, so the budget
      // keeps up and the emergency floor is never reached.
      WriteProbe probe(device({"page-mapped", scope, "incremental"},
                              {"ftl.overprovisioning=0.3",
                               fmt::format("ftl.clean_incremental_pages={}", budget)}));
      std::uint64_t spread = 0, moved = 0;
      for (const WriteWork& work : probe.overwrite(3, 11)) {
        ASSERT_LE(work.moves, budget);
        moved += work.moves;
        if (work.moves > 0 && work.erases == 0) ++spread;  // a victim left in progress
      }
      EXPECT_GT(spread, 0u);
      EXPECT_EQ(moved, probe.ftl().stats().copy_backs + probe.ftl().stats().inter_plane_moves);
    }
  }
}

TEST(CleanGranularity, IncrementalFallsBackToWholeBlocksAtItsEmergencyFloor) {
  // 5% over-provisioning needs more than one move per page written: with a
  // budget of 1 the floor must take over now and then, and nothing is lost.
  for (const char* scope : {"pool", "plane"}) {
    SCOPED_TRACE(scope);
    WriteProbe probe(device({"page-mapped", scope, "incremental"},
                            {"ftl.overprovisioning=0.05", "ftl.clean_incremental_pages=1"}));
    std::uint32_t most = 0;
    for (const WriteWork& work : probe.overwrite(2, 13)) most = std::max(most, work.moves);
    EXPECT_GT(most, 1u);
    EXPECT_GT(probe.ftl().stats().write_amplification(), 2.0);  // > 1 move per page written
  }
}

TEST(CleanGranularity, ScopeAndGranularityLeaveTheExportedCapacityAlone) {
  std::uint64_t capacity = 0;
  for (const Setting& s : every_setting()) {
    const sim::DeviceConfig config = device(s);
    const auto ftl = ftl::make_ftl({config.geometry, config.ftl, 1});
    if (s.ftl != "page-mapped") continue;
    if (capacity == 0) capacity = ftl->logical_pages();
    EXPECT_EQ(ftl->logical_pages(), capacity) << name_of(s);
  }
}

}  // namespace
}  // namespace ssdlab
