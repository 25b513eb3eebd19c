"""bench/scripts/disksim-valid.py on a fixture of our own (ssd-fixture.parv
and .outv, written in DiskSim 4.0's syntax for this test, not DiskSim's
files): the .parv parser, the mapping to ssdlab settings, the .outv reader,
and one run of the script against the binary with its 10% criterion.

Usage: disksim_valid_test.py --ssdlab BUILD/sim/ssdlab (CTest: disksim_valid)
"""
import argparse
import csv
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
SCRIPT = os.path.join(ROOT, "bench", "scripts", "disksim-valid.py")
sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.join(ROOT, "bench", "scripts"))
import disksim_parv  # noqa: E402

SSDLAB = None
PARV = os.path.join(HERE, "ssd-fixture.parv")
OUTV = os.path.join(HERE, "ssd-fixture.outv")


def fixture_blocks(replace=None):
    with open(PARV) as f:
        text = f.read()
    if replace:
        text = text.replace(*replace)
    return disksim_parv.parse_parv(text)


class ParserReadsDiskSimSyntax(unittest.TestCase):
    def test_blocks_keys_nested_blocks_and_lists(self):
        blocks = fixture_blocks()
        self.assertEqual(set(blocks), {"disksim_global", "disksim_iosim", "ssdmodel_ssd",
                                       "disksim_synthio"})
        ssd = blocks["ssdmodel_ssd"]
        self.assertEqual(ssd["copy back"], "0")  # the comment after it is dropped
        self.assertEqual(ssd["scheduler"]["__type__"], "disksim_ioqueue")
        gen = blocks["disksim_synthio"]["generators"][0]
        self.assertEqual(gen["sizes"], ["uniform", "8.0", "24.0"])
        self.assertEqual(gen["devices"], ["org0 .. org1"])

    def test_outv_statistics_and_workload_kind(self):
        with open(OUTV) as f:
            ref = disksim_parv.parse_outv(f.read())
        self.assertAlmostEqual(ref["response_us"], 2.5)  # "^ssd Response", not the logorg's
        self.assertAlmostEqual(ref["access_us"], 2.0)
        self.assertAlmostEqual(ref["system_response_us"], 4.0)
        self.assertIsNone(ref["trace"])
        ref = disksim_parv.parse_outv("*** I/O trace used: my.trace\n")
        self.assertEqual(ref["trace"], "my.trace")
        self.assertIsNone(ref["response_us"])


class MappingFollowsTheParameters(unittest.TestCase):
    def test_device(self):
        s, notes = disksim_parv.map_device(fixture_blocks())
        expected = {
            "geometry.channels": "2", "geometry.packages_per_channel": "1",
            "geometry.dies_per_package": "2", "geometry.planes_per_die": "1",
            "geometry.two_plane_pairs": "[]", "geometry.interleaving": "dies",
            "ftl.two_plane": "false", "geometry.blocks_per_plane": "64",
            "geometry.pages_per_block": "16", "geometry.page_size": "4096",
            "ftl.logical_page_size": "4096", "ftl.stripe_size": "8192",
            "timing.bus_ns_per_byte": "30", "timing.read_us": "50", "timing.program_us": "400",
            "timing.erase_us": "2000", "timing.command_ns": "0",
            "ftl.overprovisioning": "0.2", "ftl.clean_low_water": "0.04",
            "ftl.copy_back": "false", "ftl.clean_scope": "pool",
            "ftl.clean_granularity": "until-mark", "ftl.allocation_pool": "package",
            "ftl.victim_policy": "greedy", "ftl.type": "page-mapped", "ftl.clean_high_water": "0",
        }
        self.assertEqual(s, expected)
        self.assertTrue(any("plane_choice" in n for n in notes))

    def test_parallel_units_and_copy_back(self):
        one = disksim_parv.map_device(fixture_blocks(("units = 2", "units = 1")))[0]
        self.assertEqual(one["geometry.interleaving"], "none")
        four = disksim_parv.map_device(fixture_blocks(("units = 2", "units = 4")))[0]
        self.assertEqual((four["geometry.interleaving"], four["ftl.two_plane"]), ("planes", "true"))
        cb = disksim_parv.map_device(fixture_blocks(("Copy back = 0", "Copy back = 1")))[0]
        self.assertEqual((cb["ftl.copy_back"], cb["ftl.clean_scope"], cb["ftl.clean_granularity"]),
                         ("true", "plane", "one-victim"))

    def test_optional_settings_only_where_the_binary_has_them(self):
        s, notes = disksim_parv.map_device(fixture_blocks(), lambda k, v: k == "ftl.summary_page")
        self.assertEqual(s.get("ftl.summary_page"), "true")
        self.assertNotIn("ftl.plane_choice", s)
        gang = fixture_blocks(("Elements per gang = 1", "Elements per gang = 2"))
        s = disksim_parv.map_device(gang, gang_values=["none", "shared-bus", "shared-bus-sync"])[0]
        self.assertEqual((s["geometry.gang"], s["geometry.channels"]), ("shared-bus-sync", "1"))

    def test_synthetic_workload(self):
        self.assertEqual(
            disksim_parv.map_synthetic(fixture_blocks()),
            "RR:io_size=4096,size_distribution=uniform:4096:12288,target_size=4198400,count=3000,"
            "sequential_share=0.25,read_share=0.5,interarrival_us=exponential:2000")
        self.assertIn("count=150,", disksim_parv.map_synthetic(fixture_blocks(), 0.05))

    def test_refusals_name_the_key(self):
        for old, new, key in (("background = 0", "background = 1", "Cleaning in background"),
                              ("Write policy = 2", "Write policy = 1", "Write policy"),
                              ("access =  0.0", "access =  0.3", "Probability of local access"),
                              ("[ exponential, 0.0, 2.0  ],\n       Seq",
                               "[ normal, 0.0, 2.0  ],\n       Seq", "General inter-arrival times")):
            with self.subTest(key=key):
                blocks = fixture_blocks((old, new))
                with self.assertRaisesRegex(disksim_parv.ParvError, key):
                    disksim_parv.map_device(blocks)
                    disksim_parv.map_synthetic(blocks)


class ScriptRunsTheBinary(unittest.TestCase):
    def run_script(self, out, *extra):
        return subprocess.run([sys.executable, SCRIPT, HERE, "--ssdlab", SSDLAB, "--out", out,
                               *extra], capture_output=True, text=True, timeout=240)

    def test_a_miss_fails_unless_no_fail(self):
        with tempfile.TemporaryDirectory() as out:
            proc = self.run_script(out)
            self.assertEqual(proc.returncode, 1, proc.stderr)
            self.assertIn("outside: fixture", proc.stdout)
            with open(os.path.join(out, "results.csv")) as f:
                rows = list(csv.DictReader(f))
            self.assertEqual([r["workload"] for r in rows], ["fixture"])
            self.assertEqual(rows[0]["DiskSim mean (us)"], "2.5")
            self.assertEqual(rows[0]["requests"], "3000")
            self.assertGreater(float(rows[0]["ssdlab mean (us)"]), 50.0)
            self.assertEqual(rows[0]["within 10%"], "NO")
            with open(os.path.join(out, "commands.sh")) as f:
                self.assertIn("--set geometry.interleaving=dies", f.read())
            proc = self.run_script(out, "--no-fail", "--tolerance", "0.5")
            self.assertEqual(proc.returncode, 0, proc.stderr)
            self.assertIn("within 50%", proc.stdout)

    def test_bad_inputs_exit_2(self):
        with tempfile.TemporaryDirectory() as out:
            self.assertEqual(self.run_script(out, "--only", "nosuch").returncode, 2)
            proc = subprocess.run([sys.executable, SCRIPT, out, "--ssdlab", SSDLAB],
                                  capture_output=True, text=True)
            self.assertEqual(proc.returncode, 2)
            self.assertIn("no .parv", proc.stderr)


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--ssdlab", required=True)
    args, rest = ap.parse_known_args()
    SSDLAB = os.path.abspath(args.ssdlab)
    unittest.main(argv=[sys.argv[0]] + rest, verbosity=2)
