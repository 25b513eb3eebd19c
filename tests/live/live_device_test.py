#!/usr/bin/env python3
"""The simulated SSD as a live block device (docs/live-device.md): real NBD
clients against nbdkit with the ssdlab plugin on the tiny device. Each test
starts its own nbdkit on a unix socket in a temporary folder and stops it by
its process id. Exit 77 (skipped) without nbdkit or the plugin; a test whose
client (fio, nbdcopy, nbdinfo, qemu-img) is absent is skipped alone.

usage: live_device_test.py --plugin PLUGIN.so --ssdlab SSDLAB --source ROOT"""
import argparse
import csv
import json
import os
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from nbd_support import Server, fio_job, missing  # noqa: E402

ARGS = None


def run(args, **kw):
    result = subprocess.run(args, capture_output=True, text=True, timeout=300, **kw)
    if result.returncode != 0:
        raise AssertionError(f"{' '.join(args)}: exit {result.returncode}\n"
                             f"{result.stdout}\n{result.stderr}")
    return result.stdout


class LiveDevice(unittest.TestCase):
    def setUp(self):
        self.folder = tempfile.TemporaryDirectory(prefix="ssdlab-live-")
        self.dir = self.folder.name
        self.config = os.path.join(ARGS.source, "configs", "tiny.toml")

    def tearDown(self):
        self.folder.cleanup()

    def server(self, *keys, folder=None):
        return Server(ARGS.plugin, folder or self.dir, f"config={self.config}", *keys)

    def need(self, *programs):
        absent = missing(*programs)
        if absent:
            self.skipTest(f"not installed: {', '.join(absent)}")

    def rows(self, outdir):
        with open(os.path.join(outdir, "io.csv"), newline="") as f:
            return list(csv.DictReader(f))

    def random_file(self, name, size):
        path = os.path.join(self.dir, name)
        with open(path, "wb") as f:
            f.write(os.urandom(size))
        return path

    def test_fio_verifies_random_and_sequential_writes(self):
        self.need("fio")
        out = os.path.join(self.dir, "out")
        with self.server(f"io-log={out}") as server:
            for rw, bs in (("randwrite", "4k"), ("write", "64k")):
                run(fio_job(server.uri, rw, rw=rw, bs=bs, size="4M", iodepth=8,
                            verify="crc32c", verify_fatal=1, do_verify=1, verify_state_save=0))
            run(fio_job(server.uri, "randread", rw="randread", bs="4k", size="4M",
                        iodepth=4, number_ios=500))
            self.assertEqual(server.stop(), 0, server.output())
        rows = self.rows(out)
        modes = {row["mode"] for row in rows}
        self.assertEqual(modes, {"R", "W"})
        # Every 4 KiB of the two 4 MiB writes, read back by the verify.
        written = sum(int(r["size"]) for r in rows if r["mode"] == "W")
        self.assertEqual(written, 8 << 20)
        with open(os.path.join(out, "summary.json")) as f:
            summary = json.load(f)
        self.assertEqual(summary["experiments"][0]["pattern"], "live")
        self.assertEqual(summary["experiments"][0]["runs"][0]["count"], len(rows))
        self.assertGreaterEqual(summary["live"]["requests"], len(rows))

    def test_nbdcopy_round_trip_is_byte_identical(self):
        self.need("nbdcopy", "nbdinfo", "cmp")
        source = self.random_file("in.bin", 5 << 20)
        back = os.path.join(self.dir, "back.bin")
        with self.server() as server:
            info = json.loads(run(["nbdinfo", "--json", server.uri]))
            size = info["exports"][0]["export-size"]
            self.assertGreater(size, 5 << 20)
            run(["nbdcopy", source, server.uri])
            run(["nbdcopy", server.uri, back])
        with open(back, "rb") as f:
            whole = f.read()
        self.assertEqual(len(whole), size)
        run(["cmp", "-n", str(5 << 20), source, back])
        self.assertEqual(whole[5 << 20:].count(0), size - (5 << 20))  # never written: zeros

    def test_qemu_img_and_qemu_io(self):
        self.need("qemu-img", "qemu-io")
        image = os.path.join(self.dir, "disk.qcow2")
        run(["qemu-img", "create", "-q", "-f", "qcow2", image, "4M"])
        run(["qemu-io", "-f", "qcow2", "-c", "write -P 0x5a 0 1M", image])
        with self.server() as server:
            info = run(["qemu-img", "info", "--output=json", server.uri])
            self.assertGreater(json.loads(info)["virtual-size"], 4 << 20)
            run(["qemu-img", "convert", "-n", "-f", "qcow2", "-O", "raw", image, server.uri])
            checked = run(["qemu-io", "-f", "raw", "-c", "read -P 0x5a 0 1M",
                           "-c", "read -P 0 1M 3M", server.uri])
            self.assertNotIn("Pattern verification failed", checked)
            wrong = subprocess.run(["qemu-io", "-f", "raw", "-c", "read -P 0x11 0 4k",
                                    server.uri], capture_output=True, text=True)
            self.assertIn("Pattern verification failed", wrong.stdout + wrong.stderr)

    def test_fio_latency_log_compares_with_io_csv(self):
        self.need("fio")
        out = os.path.join(self.dir, "out")
        prefix = os.path.join(self.dir, "fio")
        with self.server(f"io-log={out}") as server:
            run(fio_job(server.uri, "qd1", rw="randwrite", bs="4k", size="8M", number_ios=300,
                        iodepth=1, write_lat_log=prefix, log_avg_msec=0))
            server.stop()
        log = prefix + "_clat.1.log"
        self.assertTrue(os.path.exists(log), os.listdir(self.dir))
        self.assertEqual(len(self.rows(out)), 300)
        with open(log) as f:
            self.assertEqual(sum(1 for line in f if line.strip()), 300)
        table = run([ARGS.ssdlab, "compare", out, log, "--match", "order", "--csv",
                     os.path.join(self.dir, "compare.csv")])
        with open(os.path.join(self.dir, "compare.csv"), newline="") as f:
            row = next(csv.DictReader(f))
        # A reply is never early: what fio measured is the model's time and
        # the serving on top.
        self.assertGreaterEqual(float(row["b_mean_us"]), float(row["a_mean_us"]), table)

    def test_restart_from_saved_state_keeps_data(self):
        self.need("nbdcopy", "cmp")
        data = os.path.join(self.dir, "device.img")
        state = os.path.join(self.dir, "device.state")
        source = self.random_file("in.bin", 3 << 20)
        with self.server(f"data=sparse-file:{data}", f"save-state={state}") as server:
            run(["nbdcopy", source, server.uri])
            self.assertEqual(server.stop(), 0, server.output())
        self.assertTrue(os.path.exists(state), "no state saved")
        out = os.path.join(self.dir, "again")
        back = os.path.join(self.dir, "back.bin")
        with self.server(f"data=sparse-file:{data}", f"load-state={state}",
                         f"io-log={out}") as server:
            run(["nbdcopy", server.uri, back])
            server.stop()
        run(["cmp", "-n", str(3 << 20), source, back])
        with open(os.path.join(out, "summary.json")) as f:
            summary = json.load(f)
        self.assertIn("loaded", summary["checkpoint"])


def main():
    global ARGS
    parser = argparse.ArgumentParser()
    parser.add_argument("--plugin", required=True)
    parser.add_argument("--ssdlab", required=True)
    parser.add_argument("--source", required=True)
    ARGS, rest = parser.parse_known_args()
    if missing("nbdkit") or not os.path.exists(ARGS.plugin):
        print("skipped: nbdkit or the plugin is not installed (Debian: nbdkit, nbdkit-plugin-dev)")
        return 77
    result = unittest.main(argv=[sys.argv[0], *rest], exit=False, verbosity=2).result
    return 0 if result.wasSuccessful() else 1


if __name__ == "__main__":
    sys.exit(main())
