// Preconditioning on several threads (sim/state/precondition.h): the state it
// leaves, saved as a checkpoint, is byte for byte the state of the writes
// made one after another through the controller, whatever the number of
// threads and however the pools are cut.
#include <gtest/gtest.h>

#include <cctype>
#include <string>

#include "ftl/pools.h"
#include "sim/state/checkpoint.h"
#include "sim/state/precondition.h"
#include "test_support.h"

namespace {

namespace support = ssdlab::testing;
using ssdlab::sim::Ssd;

struct Case {
  std::string pool;  // allocation_pool
  std::string spec;  // --precondition
};

class PreconditionThreads : public ::testing::TestWithParam<Case> {
 protected:
  ssdlab::sim::DeviceConfig Config() const {
    return ssdlab::sim::load_config(support::preset("tiny"),
                                    {"ftl.allocation_pool=" + GetParam().pool});
  }

  // The checkpoint bytes after preconditioning `ssd`, and the threads used.
  std::string StateAfter(Ssd& ssd, unsigned threads, unsigned* used = nullptr) {
    const auto spec = ssdlab::workloads::parse_precondition(GetParam().spec);
    if (used) *used = ssdlab::sim::precondition_threads(ssd, spec, threads);
    ssdlab::sim::precondition(ssd, spec, 7, true, threads);
    const auto file = support::temp_dir_for_this_test("precondition-threads-") /
                      ("state-" + std::to_string(threads) + (used ? "" : "-serial"));
    ssdlab::sim::save_checkpoint(file, ssd, ssdlab::sim::RunPosition{}, {});
    return support::read_file(file);
  }
};

TEST_P(PreconditionThreads, StateIsTheSerialOneWhateverTheThreads) {
  // --verify sends every write through the controller and its verifier:
  // the serial path, the reference.
  Ssd serial(Config(), {.verify = true});
  const std::string reference = StateAfter(serial, 4);
  const std::uint32_t pools = ssdlab::ftl::PoolLayout::pool_count(
      serial.config().geometry, serial.config().ftl.pool);
  for (const unsigned threads : {1u, 2u, 3u, 4u, 0u}) {
    Ssd ssd(Config());
    unsigned used = 0;
    const std::string state = StateAfter(ssd, threads, &used);
    EXPECT_GE(used, 1u) << "the page-mapped FTL's pools are independent";
    if (threads > 0) {
      EXPECT_EQ(used, std::min(threads, pools));
    }
    EXPECT_EQ(state.size(), reference.size());
    EXPECT_TRUE(state == reference) << threads << " threads, " << pools << " pools";
    EXPECT_GT(ssd.ftl().stats().blocks_cleaned, 0u) << "cleaning ran while preconditioning";
  }
}

INSTANTIATE_TEST_SUITE_P(PoolsAndSpecs, PreconditionThreads,
                         ::testing::Values(Case{"package", "random"}, Case{"die", "random:2"},
                                           Case{"plane", "random:0.5"}, Case{"die", "seq:2"}),
                         [](const ::testing::TestParamInfo<Case>& info) {
                           std::string name = info.param.pool + "_" + info.param.spec;
                           for (char& c : name)
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           return name;
                         });

// The counters kept per pool while the pools are written in parallel are
// all added back to the FTL's, the summary pages' too: ftl::add_counters
// walks the counters' one list (records/ftl_counters.h), where its own list
// of them had left summary_pages_written out and lost what the threads
// counted.
TEST(PreconditionThreadsCounters, EveryCounterIsAddedBackSummaryPagesToo) {
  const auto config = ssdlab::sim::load_config(
      support::preset("tiny"), {"ftl.allocation_pool=die", "ftl.summary_page=true"});
  const auto spec = ssdlab::workloads::parse_precondition("random");
  Ssd serial(config, {.verify = true});  // through the controller, one write after another
  ssdlab::sim::precondition(serial, spec, 7, true, 4);
  Ssd parallel(config);
  EXPECT_GT(ssdlab::sim::precondition_threads(parallel, spec, 4), 1u);
  ssdlab::sim::precondition(parallel, spec, 7, true, 4);
  EXPECT_GT(serial.ftl().stats().summary_pages_written, 0u);
  EXPECT_EQ(parallel.ftl().stats().summary_pages_written,
            serial.ftl().stats().summary_pages_written);
  EXPECT_TRUE(parallel.ftl().stats() == serial.ftl().stats());
}

TEST(PreconditionThreadsChoice, UflipAndWearLevelingGoOneAfterAnother) {
  {  // uFLIP's writes cover parts of pages: read-modify-write
    Ssd ssd(support::load_preset("tiny"));
    EXPECT_EQ(ssdlab::sim::precondition_threads(ssd, ssdlab::workloads::parse_precondition("uflip"), 2),
              0u);
  }
  {  // rate-limiting draws from one generator for every pool
    Ssd ssd(ssdlab::sim::load_config(support::preset("tiny"), {"ftl.wear_leveling=rate-limit"}));
    EXPECT_EQ(
        ssdlab::sim::precondition_threads(ssd, ssdlab::workloads::parse_precondition("random"), 2),
        0u);
  }
}

}  // namespace
