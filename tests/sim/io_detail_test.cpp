// --io-detail: io_detail.csv has a row per io.csv row, each adding up (the
// response time to its stages, the flash part to what it did and waited
// behind), io.csv unchanged; a reader beside a writer waits behind cleaning
// and the other tenant, alone behind neither; a read alone is its array and
// bus time; the host queue and the page types are told.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "run_support.h"

namespace ssdlab::sim {
namespace {

namespace support = ssdlab::testing;

using Row = std::map<std::string, std::string>;

std::vector<Row> Rows(const std::filesystem::path& file) {
  const std::string text = support::read_file(file);
  std::istringstream in(text);
  std::string line;
  std::getline(in, line);
  std::vector<std::string> header;
  for (std::istringstream h(line); std::getline(h, line, ',');) header.push_back(line);
  std::vector<Row> rows;
  while (std::getline(in, line)) {
    Row row;
    std::istringstream fields(line);
    std::string field;
    for (const std::string& name : header) {
      std::getline(fields, field, ',');
      row[name] = field;
    }
    rows.push_back(row);
  }
  return rows;
}

double Us(const Row& row, const std::string& column) {
  return std::stod(row.at(column));
}

// The mean of `column` over the rows of experiment `name`.
double Mean(const std::vector<Row>& rows, const std::string& name, const std::string& column) {
  double sum = 0;
  int count = 0;
  for (const Row& row : rows)
    if (row.at("experiment") == name) {
      sum += Us(row, column);
      ++count;
    }
  return count ? sum / count : NAN;
}

class IoDetailRun : public ::testing::Test {
 protected:
  void SetUp() override { dir_ = support::temp_dir_for_this_test("io-detail-"); }
  std::filesystem::path Run(const std::string& name, const std::vector<std::string>& workloads,
                            bool detail = true, const std::string& preset = "tiny",
                            std::vector<std::string> overrides = {}) {
    SimOptions options;
    options.precondition = "random";
    options.state_cache = false;
    options.quiet = true;
    options.io_detail = detail;
    options.overrides = std::move(overrides);
    std::ostringstream out;
    support::sim_preset(preset, dir_ / name, options, workloads, TraceOptions{}, out);
    return dir_ / name;
  }
  std::filesystem::path dir_;
};

const std::vector<std::string> kReaderBesideWriter = {"RR:count=1500,queue_depth=2,name=reader",
                                                      "RW:count=6000,queue_depth=16,name=writer"};

TEST_F(IoDetailRun, EveryRowAddsUpAndIoCsvIsUnchanged) {
  const auto with = Run("with", kReaderBesideWriter);
  const auto without = Run("without", kReaderBesideWriter, false);
  EXPECT_EQ(support::read_file(with / "io.csv"), support::read_file(without / "io.csv"));
  EXPECT_FALSE(std::filesystem::exists(without / "io_detail.csv"));
  const auto rows = Rows(with / "io_detail.csv");
  const auto io = Rows(with / "io.csv");
  ASSERT_EQ(rows.size(), io.size());
  for (std::size_t k = 0; k < rows.size(); ++k) {
    const Row& row = rows[k];
    for (const char* column : {"experiment", "run", "process", "io"})
      ASSERT_EQ(row.at(column), io[k].at(column)) << k;  // both in completion order
    EXPECT_NEAR(Us(row, "rt_us"), Us(io[k], "rt_us"), 0.0015) << k;
    double stages = 0, flash = 0;
    for (const char* column : {"host_queue_us", "to_flash_us", "flash_us", "from_flash_us"})
      stages += Us(row, column);
    for (const char* column : {"array_us", "bus_us", "behind_tenant_us", "behind_io_us",
                               "behind_cleaning_us", "behind_fold_us", "other_us"}) {
      EXPECT_GE(Us(row, column), 0) << k << " " << column;
      flash += Us(row, column);
    }
    EXPECT_NEAR(stages, Us(row, "rt_us"), 0.004) << k;
    EXPECT_NEAR(flash, Us(row, "flash_us"), 0.008) << k;
  }
}

TEST_F(IoDetailRun, AReaderBesideAWriterWaitsBehindCleaningAndTheWriterButAloneBehindNeither) {
  const auto shared = Rows(Run("shared", kReaderBesideWriter) / "io_detail.csv");
  EXPECT_GT(Mean(shared, "reader", "behind_cleaning_us"), 100.0);
  EXPECT_GT(Mean(shared, "reader", "behind_tenant_us"), 10.0);
  EXPECT_GT(Mean(shared, "writer", "behind_tenant_us"), 0.0);
  const auto alone =
      Rows(Run("alone", {"RR:count=1500,queue_depth=2,name=reader"}) / "io_detail.csv");
  EXPECT_EQ(Mean(alone, "reader", "behind_cleaning_us"), 0.0);
  EXPECT_EQ(Mean(alone, "reader", "behind_tenant_us"), 0.0);
  // Its other read holds the die or the channel's bus it waits for: no
  // wait is left unexplained.
  EXPECT_GT(Mean(alone, "reader", "behind_io_us"), 0.0);
  EXPECT_EQ(Mean(alone, "reader", "other_us"), 0.0);
}

TEST_F(IoDetailRun, AReadAloneIsItsArrayAndBusTime) {
  const auto rows = Rows(Run("qd1", {"RR:count=50,queue_depth=1"}) / "io_detail.csv");
  for (const Row& row : rows) {
    EXPECT_EQ(Us(row, "array_us"), 25.0);  // configs/tiny.toml: read_us
    EXPECT_EQ(Us(row, "flash_us"), Us(row, "array_us") + Us(row, "bus_us"));
    EXPECT_EQ(row.at("pages"), "1");
    EXPECT_EQ(row.at("page_types"), "");  // SLC cells
  }
}

TEST_F(IoDetailRun, TheHostQueueAndThePageTypesAreTold) {
  const auto rows =
      Rows(Run("queue", {"RR:count=400,queue_depth=8"}, true, "tiny-tlc", {"host.queue_depth=2"}) /
           "io_detail.csv");
  double queued = 0;
  for (const Row& row : rows) {
    queued += Us(row, "host_queue_us");
    const std::string& type = row.at("page_types");
    EXPECT_TRUE(type == "lower" || type == "middle" || type == "upper") << type;
  }
  EXPECT_GT(queued / static_cast<double>(rows.size()), 10.0);
}

}  // namespace
}  // namespace ssdlab::sim
