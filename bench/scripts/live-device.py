#!/usr/bin/env python3
"""The figures of docs/live-device.md: the simulated SSD served live through
nbdkit (build/sim/nbdkit-ssdlab-plugin.so) to fio, beside nbdkit's own
`memory` plugin on the same machine.

  1. fio 4 KiB random writes at QD1, 8 and 32: fio's mean and p99 total
     latency (`lat`) against the model's io.csv for the same I/Os, the late
     replies the plugin counted; the same fio against `nbdkit memory`; what
     the plugin adds beyond nbdkit memory at QD1 (fio mean - model mean -
     memory mean). With --docs FILE, the table goes into FILE between
     <!-- live-latency results --> and <!-- end live-latency results -->.
  2. fio verify=crc32c after a fill and an overwrite of the whole device.
  3. The request rate the plugin sustains before it lags: fio at fixed
     rates (rate_iops) on a device with data=none, the late replies and
     the mean lag the plugin reports (summary.json `live`).
  4. Data over a restart from a saved state (nbdcopy and cmp).

usage: bench/scripts/live-device.py [--build build] [--config configs/tiny.toml]
                                    [--ios 2000] [--rates 2000,5000,10000,20000,40000]
                                    [--depths 1,8,32] [--only-latency] [--docs FILE]
Prints a table per part; exit 1 if a verification or the restart fails."""
import argparse
import csv
import json
import os
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tests", "live"))
from nbd_support import Server, fio_job  # noqa: E402


def fio(args):
    out = subprocess.run(args, capture_output=True, text=True, check=True).stdout
    job = json.loads(out[out.index("{"):])["jobs"][0]
    return job


def lat_us(job, mode="write"):
    """fio's total latency (`lat`: from submission to completion, what the
    program waits), mean and p99; not `clat`, which starts after the
    submission and so can read below the device's own time."""
    lat = job[mode]["lat_ns"]
    return lat["mean"] / 1000, lat["percentile"]["99.000000"] / 1000


def model_us(outdir, mode="W"):
    with open(os.path.join(outdir, "io.csv"), newline="") as f:
        rt = sorted(float(r["rt_us"]) for r in csv.DictReader(f) if r["mode"] == mode)
    return statistics.fmean(rt), rt[min(len(rt) - 1, int(0.99 * len(rt)))]


def latency(args, tmp):
    """Part 1 as a Markdown table (docs/live-device.md, "Measured figures")."""
    rows = ["| queue depth | fio mean | model mean | fio / model | nbdkit memory mean | "
            "fio - memory, / model | fio p99 | model p99 | late replies | mean lag |",
            "|---|---|---|---|---|---|---|---|---|---|"]
    added = None
    for qd in args.depths:
        folder = tempfile.mkdtemp(dir=tmp)
        out = os.path.join(folder, "out")
        keys = dict(rw="randwrite", bs="4k", iodepth=qd, number_ios=args.ios, size="8M",
                    lat_percentiles=1)
        with Server(args.plugin, folder, f"config={args.config}", f"io-log={out}") as s:
            mean, p99 = lat_us(fio(fio_job(s.uri, f"qd{qd}", **keys)))
            s.stop()
        m_mean, m_p99 = model_us(out)
        live = json.load(open(os.path.join(out, "summary.json")))["live"]
        mem_folder = tempfile.mkdtemp(dir=tmp)
        with Server("memory", mem_folder, "size=16M") as s:
            mem_mean, _ = lat_us(fio(fio_job(s.uri, f"mem{qd}", **keys)))
        rows.append(f"| {qd} | {mean:.1f} | {m_mean:.1f} | {mean / m_mean:.3f} | {mem_mean:.1f} | "
                    f"{(mean - mem_mean) / m_mean:.3f} | {p99:.1f} | {m_p99:.1f} | "
                    f"{live['late_replies']} | {live['mean_lag_us']:.1f} |")
        if qd == 1:
            added = mean - m_mean - mem_mean
    print("1. fio 4 KiB random writes, total latency (us), against the model's io.csv")
    table = "\n".join(rows)
    print(table)
    if added is not None:
        print(f"   plugin overhead beyond nbdkit memory at QD1: {added:.1f} us "
              "(fio mean - model mean - memory mean; target < 20)")
    if args.docs:
        subprocess.run([sys.executable, os.path.join(ROOT, "bench", "scripts", "docs-block.py"),
                        args.docs, "live-latency"], input=table + "\n", text=True, check=True)


def verify_whole(args, tmp):
    print("2. verification after a fill and an overwrite of the whole device")
    folder = tempfile.mkdtemp(dir=tmp)
    ok = True
    with Server(args.plugin, folder, f"config={args.config}") as s:
        size = int(json.loads(subprocess.run(["nbdinfo", "--json", s.uri], capture_output=True,
                                             text=True, check=True).stdout)
                   ["exports"][0]["export-size"])
        for name, rw, bs in (("fill", "write", "128k"), ("overwrite", "randwrite", "4k")):
            result = subprocess.run(
                fio_job(s.uri, name, rw=rw, bs=bs, size=size, iodepth=16, verify="crc32c",
                        verify_fatal=1, do_verify=1, verify_state_save=0), capture_output=True, text=True)
            print(f"   {name}: {size} bytes, {rw} bs={bs}: "
                  f"{'verified' if result.returncode == 0 else 'FAILED'}")
            ok &= result.returncode == 0
    return ok


def rates(args, tmp):
    print("3. requests per second before the plugin lags (fio randread, QD32, data=none, 3 s)")
    print(f"{'rate_iops':>10} {'achieved':>9} {'late':>6} {'mean lag us':>12} {'max lag us':>11}")
    for rate in args.rates:
        folder = tempfile.mkdtemp(dir=tmp)
        out = os.path.join(folder, "out")
        with Server(args.plugin, folder, f"config={args.config}", "data=none",
                    f"io-log={out}") as s:
            job = fio(fio_job(s.uri, "rate", rw="randread", bs="4k", iodepth=32,
                              rate_iops=rate, time_based=1, runtime=3, size="8M"))
            s.stop()
        live = json.load(open(os.path.join(out, "summary.json")))["live"]
        print(f"{rate:10d} {job['read']['iops']:9.0f} {live['late_replies']:6d} "
              f"{live['mean_lag_us']:12.1f} {live['max_lag_us']:11.1f}")


def restart(args, tmp):
    print("4. data over a restart from a saved state")
    folder = tempfile.mkdtemp(dir=tmp)
    data, state = os.path.join(folder, "device.img"), os.path.join(folder, "device.state")
    source, back = os.path.join(folder, "in.bin"), os.path.join(folder, "back.bin")
    with open(source, "wb") as f:
        f.write(os.urandom(8 << 20))
    with Server(args.plugin, folder, f"config={args.config}", f"data=sparse-file:{data}",
                f"save-state={state}") as s:
        subprocess.run(["nbdcopy", source, s.uri], check=True)
    with Server(args.plugin, folder, f"config={args.config}", f"data=sparse-file:{data}",
                f"load-state={state}") as s:
        subprocess.run(["nbdcopy", s.uri, back], check=True)
    same = subprocess.run(["cmp", "-n", str(8 << 20), source, back]).returncode == 0
    print(f"   8 MiB written, state saved, nbdkit restarted with load-state: "
          f"{'byte-identical' if same else 'DIFFERENT'}")
    return same


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--config", default=os.path.join(ROOT, "configs", "tiny.toml"))
    parser.add_argument("--ios", type=int, default=2000)
    parser.add_argument("--rates", default="2000,5000,10000,20000,40000")
    parser.add_argument("--depths", default="1,8,32")
    parser.add_argument("--only-latency", action="store_true", help="part 1 only")
    parser.add_argument("--docs", help="put part 1's table into this docs page")
    args = parser.parse_args()
    args.plugin = os.path.join(args.build, "sim", "nbdkit-ssdlab-plugin.so")
    args.rates = [int(r) for r in args.rates.split(",")]
    args.depths = [int(d) for d in args.depths.split(",")]
    with tempfile.TemporaryDirectory(prefix="ssdlab-live-bench-") as tmp:
        latency(args, tmp)
        if args.only_latency:
            return 0
        ok = verify_whole(args, tmp)
        rates(args, tmp)
        ok &= restart(args, tmp)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
