#!/usr/bin/env python3
"""tools/check-layering.py on small trees of its own: a clean tree passes; a
wrong-way include, an include into a folder the table does not allow and a
source file in a folder the table does not name each fail, naming the file
and line. (CTest runs the check itself on the real tree as `layering`.)"""

import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from tree_support import run_on_tree  # noqa: E402

SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools",
                      "check-layering.py")


def run_check(files):
    """Writes `files` ({path: text}) into a fresh tree and checks it."""
    return run_on_tree(files, lambda root: [SCRIPT, root])


BASE = {
    "common/units.h": "#pragma once\n",
    "flash/geometry.h": '#pragma once\n#include "common/units.h"\n#include <vector>\n',
    "ftl/ftl.h": '#pragma once\n#include "flash/geometry.h"\n',
    "sim/engine/simulator.h": '#pragma once\n#include "ftl/ftl.h"\n',
    "sim/engine/simulator.cpp": '#include "simulator.h"\n#include "plot_script.h"\n',
    "tests/engine_test.cpp": '#include "sim/engine/simulator.h"\n',
}


class CheckLayeringTest(unittest.TestCase):
    def test_a_tree_that_follows_the_table_passes(self):
        status, out = run_check(BASE)
        self.assertEqual((status, out), (0, ""))

    def test_an_upward_include_fails_with_file_line_and_the_allowed_folders(self):
        status, out = run_check(
            dict(BASE, **{"flash/timeline.h": '#pragma once\n\n#include "sim/engine/simulator.h"\n'}))
        self.assertEqual(status, 1)
        self.assertEqual(out.strip(), "flash/timeline.h:3: folder flash may not include folder "
                         "sim/engine (allowed: common, records)")

    def test_a_sideways_include_inside_sim_fails(self):
        status, out = run_check(dict(BASE, **{
            "sim/results/output.h": '#pragma once\n#include "sim/engine/simulator.h"\n'}))
        self.assertEqual(status, 1)
        self.assertIn("sim/results/output.h:2: folder sim/results may not include folder "
                      "sim/engine", out)

    def test_a_folder_missing_from_the_table_fails(self):
        status, out = run_check(dict(BASE, **{"newlib/thing.cpp": "int x;\n"}))
        self.assertEqual(status, 1)
        self.assertIn("newlib/thing.cpp:1: folder newlib is not in the layering table", out)


if __name__ == "__main__":
    unittest.main()
