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

    # Issue 51: nothing a request does ends the server (H2), and what the
    # server refuses at start (M10, M11, L14, L15).

    def summary(self, outdir):
        with open(os.path.join(outdir, "summary.json")) as f:
            return json.load(f)

    def fio_error(self, server, **keys):
        """fio's errno for one job (0: none), from its JSON output."""
        result = subprocess.run(fio_job(server.uri, "job", **keys), capture_output=True,
                                text=True, timeout=300)
        start = result.stdout.find("{")
        self.assertGreaterEqual(start, 0, result.stdout + result.stderr)
        return json.loads(result.stdout[start:])["jobs"][0]["error"]

    def check_outputs(self, out):
        """io.csv and summary.json written and agreeing: failures not served."""
        summary = self.summary(out)
        self.assertEqual(summary["experiments"][0]["runs"][0]["count"], len(self.rows(out)))
        return summary

    def test_sector_writes_to_the_host_log_are_served(self):
        # The review's H2 case A: a 512-byte write to the host log aborted
        # nbdkit. The log now serves sector I/O by read-modify-write (issue
        # 51, M5), so the same fio job runs, and the server goes on.
        self.need("fio")
        out = os.path.join(self.dir, "out")
        zoned = ['set=ftl.type="zoned"', "set=ftl.zone_width=2",
                 "set=ftl.overprovisioning=0.03", "set=host.log.overprovisioning=0.12"]
        with self.server(*zoned, f"io-log={out}") as server:
            self.assertEqual(self.fio_error(server, rw="write", bs="512", size="64k",
                                            verify="crc32c", verify_fatal=1, do_verify=1,
                                            verify_state_save=0), 0)
            self.assertEqual(self.fio_error(server, rw="randwrite", bs="4k", size="1M", iodepth=8,
                                            verify="crc32c", verify_fatal=1, do_verify=1,
                                            verify_state_save=0), 0)
            self.assertEqual(server.stop(), 0, server.output())
        summary = self.check_outputs(out)
        self.assertEqual(summary["live"]["failed_requests"], 0)
        self.assertEqual(summary["live"]["failure"], "")
        written = sum(int(r["size"]) for r in self.rows(out) if r["mode"] == "W")
        self.assertEqual(written, (1 << 20) + (64 << 10))

    def test_end_of_life_fails_writes_with_enospc_and_keeps_serving_reads(self):
        self.need("fio")
        out = os.path.join(self.dir, "out")
        with self.server("set=geometry.pe_cycles=3", f"io-log={out}") as server:
            error = self.fio_error(server, rw="randwrite", bs="4k", size="13M", iodepth=32,
                                   loops=30)
            self.assertEqual(error, 28)  # ENOSPC
            # Still up: writes keep failing with ENOSPC, reads are served.
            self.assertEqual(self.fio_error(server, rw="write", bs="4k", size="64k"), 28)
            self.assertEqual(self.fio_error(server, rw="read", bs="4k", size="1M"), 0)
            self.assertEqual(server.stop(), 0, server.output())
        self.assertIn("end of life", server.output())
        summary = self.check_outputs(out)
        self.assertTrue(summary["lifetime"]["end_of_life"])
        self.assertIn("end of life", summary["live"]["failure"])
        self.assertGreaterEqual(summary["live"]["failed_requests"], 2)
        self.assertEqual(summary["live"]["reads_after_end_of_life"], 256)

    def refused(self, *keys):
        """The output of an nbdkit that the plugin refuses to start."""
        socket = os.path.join(self.dir, "refused.sock")
        if os.path.exists(socket):  # an earlier refused server's
            os.remove(socket)
        result = subprocess.run(["nbdkit", "-f", "-U", socket, ARGS.plugin,
                                 f"config={self.config}", *keys],
                                capture_output=True, text=True, timeout=60)
        self.assertNotEqual(result.returncode, 0, result.stdout + result.stderr)
        return result.stdout + result.stderr

    def test_data_file_is_no_other_file_of_the_server(self):
        config = os.path.join(self.dir, "cfg.toml")
        with open(self.config) as source, open(config, "w") as copy:
            copy.write(source.read())
        with open(config) as f:
            before = f.read()
        out = os.path.join(self.dir, "io")
        state = os.path.join(self.dir, "s.ssd")
        for keys, message in (
                ([f"data=sparse-file:{config}"], "is also an input of this command (config=)"),
                ([f"data=sparse-file:{state}", f"save-state={state}"],
                 "is the server's save-state="),
                ([f"data=sparse-file:{out}/io.csv", f"io-log={out}"],
                 "is the server's own io.csv (io-log=")):
            output = self.refused(f"config={config}", *keys)
            self.assertIn("data=sparse-file:", output)
            self.assertIn(message, output)
        with open(config) as f:
            self.assertEqual(f.read(), before)

    def test_a_data_file_of_another_size_is_refused_unless_allowed(self):
        image = self.random_file("big.img", 32 << 20)
        output = self.refused(f"data=sparse-file:{image}")
        self.assertIn("allow-destroy=true", output)
        self.assertEqual(os.path.getsize(image), 32 << 20)  # untouched
        with self.server(f"data=sparse-file:{image}", "allow-destroy=true") as server:
            self.assertEqual(server.stop(), 0, server.output())
        self.assertLess(os.path.getsize(image), 32 << 20)

    def test_placement_ranges_place_a_programs_writes_by_where_it_writes(self):
        # NBD carries no placement identifier: [[placement]] ranges give one
        # by logical range (docs/live-device.md, "Zones and placement").
        self.need("nbdcopy", "qemu-io")
        out = os.path.join(self.dir, "out")
        data = self.random_file("in.bin", 4 << 20)
        with self.server('set=ftl.placement="fdp"', "set=ftl.fdp_handles=2",
                         'set=ftl.placement_map=[{offset=0,size="4MiB",handle=1}]',
                         f"io-log={out}") as server:
            run(["nbdcopy", data, server.uri])  # the range: handle 1
            run(["qemu-io", "-f", "raw", "-c", "write -P 0x5a 8M 4M", server.uri])  # handle 0
            server.stop()
        with open(os.path.join(out, "summary.json")) as f:
            fdp = json.load(f)["fdp"]
        pages = {h["handle"]: h["host_pages"] for h in fdp["handles"]}
        self.assertEqual(pages, {0: 1024, 1: 1024})  # 4 MiB each, in 4 KiB pages

    def test_a_recorded_session_replays_by_its_dependencies_under_two_orders(self):
        # Two connections (a reader that thinks 100 us between reads, a
        # writer at depth 8) recorded live; each connection replayed as a
        # tenant by what it waited for (--mode dependent, docs/reference/
        # trace-formats.md "Replaying a recorded run"), under FIFO and
        # reads-first dispatch.
        self.need("fio")
        out = os.path.join(self.dir, "out")
        with self.server(f"io-log={out}") as server:
            run(["fio", "--ioengine=nbd", f"--uri={server.uri}", "--output-format=json",
                 "--bs=4k", "--size=8M", "--name=reader", "--rw=randread", "--iodepth=1",
                 "--thinktime=100", "--number_ios=400", "--name=writer", "--rw=randwrite",
                 "--iodepth=8", "--number_ios=3000"])
            server.stop()
        recorded = self.rows(out)
        modes = {}
        for row in recorded:
            modes.setdefault(int(row["process"]), set()).add(row["mode"])
        self.assertEqual(sorted(modes.values(), key=sorted), [{"R"}, {"W"}])
        reader = next(p for p, m in modes.items() if m == {"R"})
        writer = next(p for p, m in modes.items() if m == {"W"})
        means = {}
        for order in ("fifo", "read>write>cleaning"):
            replay = os.path.join(self.dir, order.replace(">", "-"))
            run([ARGS.ssdlab, "sim", "-c", self.config, "--mode", "dependent", "-q",
                 "--set", f'controller.dispatch_order="{order}"',
                 "-w", f"trace:{out}/io.csv,process={reader},queue=1,name=reader",
                 "-w", f"trace:{out}/io.csv,process={writer},queue=1,name=writer",
                 "-o", replay])
            self.assertEqual(len(self.rows(replay)), len(recorded))
            with open(os.path.join(replay, "summary.json")) as f:
                summary = json.load(f)
            tenants = {t["name"]: t for t in summary["tenants"]}
            self.assertEqual(tenants["reader"]["ios"], 400)
            depths = summary["experiments"][1]["trace"]["queue_depth_by_process"]
            self.assertLessEqual(depths[str(writer)], 8)  # what nbdkit let through
            means[order] = tenants["reader"]["mean_us"]
        print(f"reader mean, dependent replay: {means}", file=sys.stderr)
        self.assertLess(means["read>write>cleaning"], means["fifo"])

    def test_a_read_no_ecc_step_corrects_fails_with_eio(self):
        # Flash errors (docs/errors.md) with an ECC too weak for a fresh
        # TLC page: about half the reads have a media error, which the
        # client gets as an I/O error.
        self.need("qemu-io")
        out = os.path.join(self.dir, "out")
        self.config = os.path.join(ARGS.source, "configs", "tiny-tlc.toml")
        commands = []
        for page in range(40):
            commands += ["-c", f"read {page * 4096} 4k"]
        with self.server("set=errors.correctable_bits=45", f"io-log={out}") as server:
            result = subprocess.run(["qemu-io", "-f", "raw", *commands, server.uri],
                                    capture_output=True, text=True, timeout=300)
            server.stop()
        failures = (result.stdout + result.stderr).lower().count("error")
        with open(os.path.join(out, "summary.json")) as f:
            device = json.load(f)["device"]
        self.assertEqual(device["read_error_page_reads"], 40)
        self.assertGreater(device["read_error_uncorrectable"], 5)
        self.assertEqual(failures, device["read_error_uncorrectable"])

    def test_namespaces_and_queues_are_refused(self):
        self.assertIn("namespaces", self.refused('set=host.namespaces=[{size="4MiB"}]'))
        self.assertIn("submission queues", self.refused("set=host.queues=[{},{}]"))

    def test_refusals_name_the_plugin_keys(self):
        state = os.path.join(self.dir, "s.ssd")
        self.assertIn("(load-state=)", self.refused(f"save-state={state}", f"load-state={state}"))
        output = self.refused(f"save-state={self.dir}/nodir/s.ssd")
        self.assertIn("save-state=", output)
        self.assertNotIn("--save-state", output)
        out = os.path.join(self.dir, "out")
        first = os.path.join(self.dir, "first")
        os.mkdir(first)
        with self.server(f"io-log={out}", folder=first) as server:
            self.assertIn("give each run its own io-log=", self.refused(f"io-log={out}"))
            server.stop()


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
