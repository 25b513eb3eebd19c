#!/usr/bin/python3
"""DiskSim's own SSD validation suite replayed through ssdlab.

The MSR SSD add-on for DiskSim 4.0 (the authors' model behind Agrawal et al.,
ATC 2008) ships eight validation workloads in ssdmodel/valid: six synthetic
(ssd-{sr,sw,rr,rw}250k, ssd-{sw,rw}5m) and two traces (ssd-iozone,
ssd-postmark), each a .parv parameter file and a .outv reference output. For
each one this script derives ssdlab's device and workload from the .parv
(bench/scripts/disksim_parv.py documents every mapping and every DiskSim
parameter without an ssdlab counterpart), runs `ssdlab sim`, reads DiskSim's
mean response time from the .outv ("ssd Response time average", the line
DiskSim's own runvalid script checks) and ssdlab's from summary.json
(experiments[0].runs[0].mean_us), and prints a table: workload, DiskSim mean,
ssdlab mean, ratio, and whether the ratio is within the tolerance (10%:
|ssdlab / DiskSim - 1| <= 0.10). DiskSim's "ssd Access time average" is shown
beside ssdlab's `access_time_us` where summary.json has it (informational).

DiskSim's licence is non-commercial: the script reads a user's checkout and
copies nothing of it. Outputs (OUT): results.csv, results.md, commands.sh
(every ssdlab command run) and runs/NAME/ (each run's summary.json).

Exit status: 0 when every workload is within the tolerance (or with
--no-fail, or --quick, whose scaled-down runs are not comparable with the
full references); 1 when one is outside; 2 on a bad input or a failed run.

Usage: bench/scripts/disksim-valid.py DISKSIM_DIR [--ssdlab build/sim/ssdlab]
         [--out out/disksim-valid] [--only rw5m,sr250k] [--quick] [--tolerance 0.10]
         [--no-fail] [--seed S] [--set KEY=VALUE]... [--dry-run]
DISKSIM_DIR is a DiskSim checkout (or its ssdmodel/valid folder).
"""
import argparse
import csv
import glob
import json
import os
import shlex
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, HERE)
import disksim_parv  # noqa: E402  (beside this script)

QUICK_SCALE = 0.05  # --quick: 1/20 of each run's requests


def fail(message):
    print(f"disksim-valid: {message}", file=sys.stderr)
    sys.exit(2)


def probe(ssdlab, config):
    """What the binary supports: supports(key, value) and its gang values."""
    def config_rc(setting):
        return subprocess.run([ssdlab, "config", config, "--set", setting],
                              capture_output=True, text=True)

    cache = {}

    def supports(key, value):
        if (key, value) not in cache:
            cache[(key, value)] = config_rc(f"{key}={value}").returncode == 0
        return cache[(key, value)]

    # The error names the organisations: "... (none, shared-bus, ...)".
    err = config_rc("geometry.gang=?").stderr
    gangs = err[err.rfind("(") + 1:err.rfind(")")].replace(",", " ").split() if "(" in err else []
    return supports, gangs


def workloads(valid_dir, only):
    found = {}
    for parv in sorted(glob.glob(os.path.join(valid_dir, "*.parv"))):
        outv = parv[:-len(".parv")] + ".outv"
        name = os.path.basename(parv)[:-len(".parv")]
        name = name[len("ssd-"):] if name.startswith("ssd-") else name
        if os.path.exists(outv):
            found[name] = (parv, outv)
    if only:
        missing = [w for w in only if w not in found]
        if missing:
            fail(f"--only: no {', '.join(missing)} in {valid_dir} (found: {', '.join(found)})")
        found = {w: found[w] for w in only}
    if not found:
        fail(f"{valid_dir}: no .parv with a .outv beside it")
    return found


def plan(name, parv, outv, valid_dir, args, supports, gangs):
    """One workload's reference and ssdlab command."""
    try:
        with open(parv, encoding="latin-1") as f:
            blocks = disksim_parv.parse_parv(f.read())
        with open(outv, encoding="latin-1") as f:
            ref = disksim_parv.parse_outv(f.read())
        overrides, notes = disksim_parv.map_device(blocks, supports, gangs)
        scale = QUICK_SCALE if args.quick else 1.0
        if ref["trace"]:
            trace = os.path.join(valid_dir, ref["trace"])
            if not os.path.exists(trace):
                raise disksim_parv.ParvError(f"the trace {ref['trace']} named by {outv} is missing")
            limit = None
            if args.quick:
                with open(trace, encoding="latin-1") as f:
                    limit = max(1, int(sum(1 for _ in f) * scale))
            workload = disksim_parv.map_trace(blocks, os.path.abspath(trace), limit)
        else:
            workload = disksim_parv.map_synthetic(blocks, scale)
    except (disksim_parv.ParvError, OSError, ValueError) as e:
        fail(f"{name}: {e}")
    if ref["response_us"] is None:
        fail(f"{outv}: no 'ssd Response time average' line")
    for setting in args.set:
        key, _, value = setting.partition("=")
        overrides[key] = value
    out = os.path.join(args.out, "runs", name)
    cmd = [args.ssdlab, "sim", "-c", args.config, "--precondition", "seq", "-w", workload,
           "--no-io-log", "-q", "--seed", str(args.seed), "-o", out]
    for key, value in overrides.items():
        cmd += ["--set", f"{key}={value}"]
    return {"name": name, "ref": ref, "cmd": cmd, "out": out, "notes": notes,
            "kind": "trace" if ref["trace"] else "synthetic"}


def run(job):
    start = time.monotonic()
    proc = subprocess.run(job["cmd"], capture_output=True, text=True)
    job["wall_s"] = time.monotonic() - start
    if proc.returncode != 0:
        fail(f"{job['name']}: ssdlab exited {proc.returncode}:\n{proc.stderr.strip()}\n"
             f"command: {shlex.join(job['cmd'])}")
    with open(os.path.join(job["out"], "summary.json")) as f:
        summary = json.load(f)
    result = summary["experiments"][0]["runs"][0]
    job["mean_us"] = result["mean_us"]
    job["count"] = result["count"]
    device = result.get("device", {})
    job["access_us"] = device.get("access_time_us", summary.get("device", {}).get("access_time_us"))
    job["wa"] = device.get("write_amplification")


def fmt(value, digits=1):
    return "" if value is None else f"{value:.{digits}f}"


def table(jobs, tolerance):
    header = ["workload", "kind", "requests", "DiskSim mean (us)", "ssdlab mean (us)", "ratio",
              f"within {tolerance:.0%}", "DiskSim access (us)", "ssdlab access (us)",
              "ssdlab WA", "wall (s)"]
    rows = []
    for j in jobs:
        ratio = j["mean_us"] / j["ref"]["response_us"]
        j["ratio"], j["within"] = ratio, abs(ratio - 1.0) <= tolerance
        rows.append([j["name"], j["kind"], str(j["count"]), fmt(j["ref"]["response_us"]),
                     fmt(j["mean_us"]), f"{ratio:.3f}", "yes" if j["within"] else "NO",
                     fmt(j["ref"]["access_us"]), fmt(j["access_us"]), fmt(j["wa"], 3),
                     fmt(j["wall_s"])])
    return header, rows


def write_outputs(out, header, rows, jobs, args):
    with open(os.path.join(out, "results.csv"), "w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(header)
        writer.writerows(rows)
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    with open(os.path.join(out, "results.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
        notes = sorted({n for j in jobs for n in j["notes"]})
        if notes or args.quick:
            f.write("\n" + "".join(f"- {n}\n" for n in notes))
            if args.quick:
                f.write(f"- --quick: {QUICK_SCALE:g} of each run's requests; "
                        "not comparable with the references\n")
    with open(os.path.join(out, "commands.sh"), "w") as f:
        f.write("#!/bin/sh\n# bench/scripts/disksim-valid.py: the ssdlab runs\n")
        f.writelines(shlex.join(j["cmd"]) + "\n" for j in jobs)
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("disksim", help="DiskSim checkout, or its ssdmodel/valid folder")
    ap.add_argument("--ssdlab", default=os.path.join(ROOT, "build", "sim", "ssdlab"))
    ap.add_argument("--out", default="out/disksim-valid")
    ap.add_argument("--config", default=os.path.join(ROOT, "configs", "agrawal-baseline.toml"),
                    help="the config the --set overrides start from")
    ap.add_argument("--only", default="", help="comma-separated workloads, e.g. rw5m,sr250k")
    ap.add_argument("--quick", action="store_true",
                    help=f"{QUICK_SCALE:g} of each run's requests (implies --no-fail)")
    ap.add_argument("--tolerance", type=float, default=0.10)
    ap.add_argument("--no-fail", action="store_true", help="exit 0 even when a workload misses")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                    help="an extra override after the mapping's (repeatable)")
    ap.add_argument("--dry-run", action="store_true", help="print the commands, run nothing")
    args = ap.parse_args()
    valid = os.path.join(args.disksim, "ssdmodel", "valid")
    valid = valid if os.path.isdir(valid) else args.disksim
    if not os.path.isdir(valid):
        fail(f"{args.disksim}: not a folder")
    if not os.access(args.ssdlab, os.X_OK):
        fail(f"{args.ssdlab}: no ssdlab binary (build it, or pass --ssdlab)")
    if not 0 < args.tolerance < 1:
        fail(f"--tolerance {args.tolerance}: expected a fraction between 0 and 1")
    args.out = os.path.abspath(args.out)
    args.config = os.path.abspath(args.config)
    supports, gangs = probe(args.ssdlab, args.config)
    only = [w for w in args.only.split(",") if w]
    jobs = [plan(n, p, o, valid, args, supports, gangs)
            for n, (p, o) in workloads(valid, only).items()]
    if args.dry_run:
        for j in jobs:
            print(shlex.join(j["cmd"]))
        return 0
    os.makedirs(args.out, exist_ok=True)
    for j in jobs:
        print(f"disksim-valid: {j['name']} ...", file=sys.stderr, flush=True)
        run(j)
    header, rows = table(jobs, args.tolerance)
    print(write_outputs(args.out, header, rows, jobs, args))
    for note in sorted({n for j in jobs for n in j["notes"]}):
        print(f"note: {note}")
    misses = [j["name"] for j in jobs if not j["within"]]
    print(f"{len(jobs) - len(misses)} of {len(jobs)} within {args.tolerance:.0%} of DiskSim's mean "
          f"response time" + (f"; outside: {', '.join(misses)}" if misses else ""))
    return 1 if misses and not (args.no_fail or args.quick) else 0


if __name__ == "__main__":
    sys.exit(main())
