#!/usr/bin/env python3
"""tools/part-metrics.py on a small tree of its own whose figures are
counted by hand: the part branches and tests of an Ssd, its member
functions and data members (deleted functions, constants, nested types and
comments not counted), the Simulator's lines and members, the tests that
spawn the binary, and a counter struct declared twice."""

import json
import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from tree_support import run_on_tree  # noqa: E402

SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools",
                      "part-metrics.py")

SSD_H = """#pragma once
// class Ssd { int in_a_comment_; };
class Ssd : private Listener {
 public:
  explicit Ssd(const Config& config, Checks checks = {});
  Ssd(const Ssd&) = delete;
  Ssd& operator=(const Ssd&) = delete;
  const Buffer* buffer() const { return buffer_ ? &buffer_->get() : nullptr; }
  struct Outcome {
    int status = 0;
  };
  static constexpr std::uint64_t kWait = ~std::uint64_t{0};
  template <class Io>
  void prefetch(const Io* io) const { ftl_->prefetch(io); }
  void start(TimeNs now);

 private:
  bool at_once() const { return buffer_ || (cleaner_ && cleaner_->on()); }
  using Packing = int;
  Config config_;
  std::unique_ptr<Ftl> ftl_;
  std::uint64_t requests_ = 0;
  std::unique_ptr<Buffer> buffer_;
  std::unique_ptr<Cleaner> cleaner_;
};
"""

SSD_CPP = """#include "ssd.h"
void Ssd::start(TimeNs now) {
  if (buffer_) buffer_->flush(now);
  if (!cleaner_) return;
  cleaner_->before(now);  // if (cleaner_) in a comment
  use(buffer_);
}
"""

# The core's parts count as the Ssd's: a branch on one, in its header or
# in an ssd*.cpp, is the controller's (not its member functions or data).
SSD_CORE_H = """#pragma once
class SsdCore {
 public:
  void reclaim(TimeNs now) {
    if (errors_) errors_->reclaim(now);
  }
 private:
  std::unique_ptr<Errors> errors_;
  bool at_once_ = false;
};
"""

SSD_CORE_CPP = """#include "ssd_core.h"
void SsdCore::read(TimeNs now) {
  const TimeNs decode = errors_ ? errors_->decode(now) : 0;
}
"""

SIMULATOR_H = """#pragma once
class Simulator {
 public:
  void run();
 private:
  int a_ = 0;
  std::vector<int> b_;
};
"""

COUNTERS = """#pragma once
struct CacheCounters {
  std::uint64_t folds = 0;
  std::uint64_t hits = 0;
  double fill = 0;
};
"""

COPY = """#pragma once
struct CacheRecord {
  std::uint64_t hits = 0;
  std::uint64_t folds = 0;
  double fill = 0;
};
struct Other {
  std::uint64_t hits = 0;
  std::uint64_t misses = 0;
  double fill = 0;
};
"""


def measure(files):
    status, out = run_on_tree(files, lambda root: [SCRIPT, "--source", root, "--json"])
    if status:
        raise AssertionError(f"tools/part-metrics.py exited {status}")
    return json.loads(out)


class PartMetricsTest(unittest.TestCase):
    def setUp(self):
        self.result = measure({
            "sim/controller/ssd.h": SSD_H,
            "sim/controller/ssd.cpp": SSD_CPP,
            "sim/controller/ssd_core.h": SSD_CORE_H,
            "sim/controller/ssd_core.cpp": SSD_CORE_CPP,
            "sim/engine/simulator.h": SIMULATOR_H,
            "sim/engine/simulator.cpp": "void Simulator::run() {}\n",
            "records/cache_counters.h": COUNTERS,
            "ftl/cache_record.h": COPY,
            "tests/a_test.cpp": 'auto r = run_ssdlab("sim");\n',
            "tests/b_test.cpp": "// run_ssdlab( in a comment only\nint x;\n",
        })
        self.figures = self.result["figures"]

    def test_the_ssd_figures_are_the_hand_counted_ones(self):
        # Branches: `if (buffer_)`, `if (!cleaner_)`, the core's
        # `if (errors_)`. Tests: those three, `buffer_ ?`, `buffer_ ||`,
        # `(cleaner_ &&`, the core's `errors_ ?`; not `buffer_->`,
        # `use(buffer_)` or the comments.
        self.assertEqual(self.figures["ssd_part_branches"], 3)
        self.assertEqual(self.figures["ssd_part_tests"], 7)
        # Functions: the constructor, buffer(), prefetch(), start(),
        # at_once(); the deleted pair is not counted.
        self.assertEqual(self.figures["ssd_member_functions"], 5)
        # Data: config_, ftl_, requests_, buffer_, cleaner_ (not Outcome's
        # status, kWait or the comment's).
        self.assertEqual(self.figures["ssd_data_members"], 5)

    def test_the_simulator_and_the_tests(self):
        self.assertEqual(self.figures["simulator_lines"], 9)
        self.assertEqual(self.figures["simulator_data_members"], 2)
        self.assertEqual(self.figures["tests_spawning_the_binary"], 1)

    def test_a_counter_struct_declared_twice_is_found_once(self):
        self.assertEqual(self.figures["counter_structs_declared_twice"], 1)
        self.assertEqual(self.result["twice"],
                         [["ftl/cache_record.h:CacheRecord", "records/cache_counters.h:CacheCounters"]])


if __name__ == "__main__":
    unittest.main()
