// The dies' latches under one-shot wordlines (issue 54 item 1, fidelity
// review G1; flash/die_latches.h): while a die's latches hold a wordline's
// staged pages, the die serves no other array operation (a read, an erase,
// another wordline's program) until the wordline is programmed; cleaning's
// moves still reach it, and no run leaves a wordline open at a stage's end.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "flash/nand_array.h"
#include "flash/timeline_observer.h"
#include "run_support.h"
#include "sim/config/config.h"
#include "sim/controller/ssd.h"
#include "sim/engine/simulator.h"
#include "test_support.h"
#include "workloads/plan.h"

namespace ssdlab::sim {
namespace {

using flash::Command;
using flash::Op;

// Per die: the spans over which a plane held staged pages (from its
// wordline's first page coming in to the start of its wordline program),
// and the array operations on the die that may not begin inside one: reads
// (a move's read passes), erases, and the first page of another wordline.
class LatchWatch : public flash::TimelineObserver {
 public:
  // `nand`: the FTL's, which says which blocks run in SLC mode (a page per
  // wordline: never staged).
  LatchWatch(const DeviceConfig& config, const flash::NandArray& nand)
      : g_(config.geometry),
        nand_(nand),
        bits_(config.geometry.bits_per_cell()),
        staged_(g_.planes(), kNone) {}

  void phase(flash::Resource resource, std::uint32_t plane, flash::Phase phase, TimeNs start,
             TimeNs /*end*/, const Command& command) override {
    if (resource != flash::Resource::kPlane) return;
    const std::uint32_t die = g_.die_of_plane(plane);
    if ((phase == flash::Phase::kArrayRead && command.op == Op::kRead) ||
        phase == flash::Phase::kArrayErase) {
      others_[die].push_back({start, command});
      return;
    }
    if (phase != flash::Phase::kArrayProgram && phase != flash::Phase::kCopyBack) return;
    // (A two-plane command reports each of its planes.)
    const flash::Ppn ppn = g_.plane_of(command.ppn) == plane ? command.ppn : command.ppn2;
    if (nand_.is_slc(g_.block_of(ppn))) return;
    const std::uint32_t type = g_.page_in_block(ppn) % bits_;
    if (type == 0) {
      others_[die].push_back({start, command});
      staged_[plane] = start;
    } else if (type + 1 == bits_ && staged_[plane] != kNone) {
      spans_[die].push_back({staged_[plane], start});
      staged_[plane] = kNone;
    }
  }

  // The first operation that began inside a span on its die, as text; empty
  // if none did. `spans`: how many spans there were.
  std::string first_passing(std::size_t& spans) const {
    spans = 0;
    for (const auto& [die, list] : spans_) {
      spans += list.size();
      const auto found = others_.find(die);
      if (found == others_.end()) continue;
      for (const auto& [from, to] : list)
        for (const auto& [at, command] : found->second)
          if (at > from && at < to)
            return std::string(flash::op_name(command.op)) + " of page " +
                   std::to_string(command.ppn) + " on die " + std::to_string(die) + " at " +
                   std::to_string(at) + " ns, inside [" + std::to_string(from) + ", " +
                   std::to_string(to) + ")";
    }
    return {};
  }

 private:
  static constexpr TimeNs kNone = -1;
  flash::Geometry g_;
  const flash::NandArray& nand_;
  std::uint32_t bits_;
  std::vector<TimeNs> staged_;  // per plane: when its wordline's first page came in
  std::map<std::uint32_t, std::vector<std::pair<TimeNs, TimeNs>>> spans_;
  std::map<std::uint32_t, std::vector<std::pair<TimeNs, Command>>> others_;
};

struct LatchRun {
  std::string passing;
  std::size_t spans = 0;
  std::uint64_t released_open = 0;
  std::uint64_t blocks_cleaned = 0;
  std::uint64_t verified = 0;
};

LatchRun run(const std::vector<std::string>& overrides, const std::string& workload) {
  const DeviceConfig config = load_config(testing::preset("tiny-tlc"), overrides);
  Ssd ssd(config, {.verify = true});
  LatchWatch watch(config, ssd.ftl().nand());
  ssd.core().observers().add_flash(&watch);
  Simulator simulator(ssd, nullptr);
  const auto plan = workloads::parse_inline(workload);
  simulator.run(plan.experiments.front(), 0, 1);
  ssd.idle(1'000'000'000'000, 1'001'000'000'000);
  ssd.core().observers().remove_flash(&watch);
  LatchRun result;
  result.passing = watch.first_passing(result.spans);
  result.released_open = ssd.core().scheduler().latches_released_open();
  result.blocks_cleaned = ssd.ftl().stats().blocks_cleaned;
  result.verified = ssd.core().observers().verified_pages();
  ssd.ftl().check_invariants();
  return result;
}

constexpr const char* kMixed = "RW:io_size=4096,count=12000,queue_depth=8,read_share=0.3";

// Reads, erases and other wordlines wait for a staged wordline's program;
// cleaning (with copy-backs on this preset, and with moves through the
// controller) keeps going, and every read returns the latest write.
TEST(DieLatches, NoOtherArrayOperationPassesAStagedWordline) {
  for (const char* copy_back : {"ftl.copy_back=true", "ftl.copy_back=false"}) {
    const LatchRun result = run({copy_back}, kMixed);
    EXPECT_EQ(result.passing, "") << copy_back;
    EXPECT_GT(result.spans, 1000u) << copy_back;
    EXPECT_GT(result.blocks_cleaned, 100u) << copy_back;
    EXPECT_GT(result.verified, 1000u) << copy_back;
    EXPECT_EQ(result.released_open, 0u) << copy_back;
  }
}

// Every path that writes flash ends the wordlines it begins in one stage:
// none is let go open, whatever writes (buffer flushes, map units, DFTL's
// translation pages, the SLC cache's folds, incremental and background
// cleaning, suspend, each dispatch order), so no die waits for a page that
// a later stage brings.
TEST(DieLatches, NoPathLeavesAWordlineOpenAtTheEndOfAStage) {
  const std::vector<std::vector<std::string>> variants = {
      {"controller.write_buffer=\"256KiB\""},
      {"ftl.type=\"dftl\""},
      {"slc_cache.mode=\"dynamic\"", "slc_cache.size_gib=0.004"},
      {"ftl.clean_granularity=\"incremental\""},
      {"ftl.clean_high_water=0.1"},
      {"timing.suspend=true"},
      {"controller.dispatch_order=\"read>write>cleaning\""},
      {"controller.dispatch_order=\"fewest-queued\""},
      {"controller.dispatch_order=\"flin\""},
      {"ftl.copy_back=false", "geometry.interleaving=\"planes\""},
  };
  for (const std::vector<std::string>& overrides : variants) {
    const LatchRun result = run(overrides, kMixed);
    EXPECT_EQ(result.released_open, 0u) << overrides.front();
    EXPECT_EQ(result.passing, "") << overrides.front();
    EXPECT_GT(result.spans, 500u) << overrides.front();
  }
}

// Runs that deadlocked the latches (docs/model.md, "A scheduler deadlock"):
// a later list's pages taken for an earlier list's wordline (queue depth 32:
// 75 of 500 rows were written), a reprogram's stage shift splitting
// wordlines of map units (16 KiB pages, 4 KiB units), and DFTL's translation
// blocks, whose wordlines a request's host chain began and its cleaning
// chain continued (48 of 50,000 rows at queue depth 1), and DFTL's
// translation wordlines begun alone and padded as two-plane programs (map
// units and a write buffer: the run stopped at I/O 3,731 of 20,000). Every
// I/O completes, and io.csv holds each.
TEST(DieLatches, QueuedRunsWithAndWithoutMapUnitsWriteEveryRow) {
  const std::filesystem::path dir = testing::temp_dir_for_this_test("latches");
  for (const std::string ftl : {"page-mapped", "dftl"}) {
    for (const std::string depth : {"1", "32"}) {
      for (const bool units : {false, true}) {
        SimOptions options;
        options.workload = "RW:io_size=4KiB,count=2000,queue_depth=" + depth;
        options.precondition = "random";
        options.overrides = {"ftl.type=\"" + ftl + "\""};
        // (At the preset's 15% DFTL runs out of room: docs/model.md.)
        if (ftl == "dftl") options.overrides.push_back("ftl.overprovisioning=0.25");
        if (units) options.overrides.push_back("geometry.page_size=\"16KiB\"");
        std::string name = ftl + "-qd" + depth + (units ? "-units" : "");
        const auto out = testing::run_preset("tiny-tlc", dir, name, options);
        const std::string csv = testing::read_file(out / "io.csv");
        EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 2001) << name;
        if (ftl != "dftl" || !units) continue;
        // (The old code's first stuck I/O there was number 3,731.)
        options.overrides.push_back("controller.write_buffer=\"1MiB\"");
        options.workload = "RW:io_size=4KiB,count=10000,queue_depth=" + depth;
        name += "-buffer";
        const std::string buffered =
            testing::read_file(testing::run_preset("tiny-tlc", dir, name, options) / "io.csv");
        EXPECT_EQ(std::count(buffered.begin(), buffered.end(), '\n'), 10001) << name;
      }
    }
  }
}

}  // namespace
}  // namespace ssdlab::sim
