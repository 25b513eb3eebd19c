#!/usr/bin/python3
"""The Table 4-style comparison of docs/model.md ("A Table 4-style comparison").

    gang-figures.py [SSDLAB] [--seed N]      (SSDLAB: default build/sim/ssdlab)

Runs workloads/plans/gang.toml (Agrawal et al. Table 4's stand-in for the
Exchange trace) on each organisation below, one
`ssdlab sim -c CONFIG -w workloads/plans/gang.toml -o DIR [--set ...]` each,
at most two at a time, in a temporary folder, and prints the markdown table:
for each experiment the mean response time of all I/Os (writes / reads in
brackets, from io.csv's rt_us by mode) and, for the queued and the 32 KiB
experiments, the IO/s of summary.json; then the write amplification (flash
pages written over host pages written, summary.json) of each experiment.
Run from anywhere; paths are relative to the repository.
"""
import argparse
import concurrent.futures
import csv
import json
import os
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
PLAN = "workloads/plans/gang.toml"

# (organisation, preset, --set overrides). The 16-package rows compare the
# gangs at equal package count (64 GiB): a wider gang, fewer buses (§3.3).
ROWS = [
    ("no gang (8 packages, 8 buses)", "agrawal-baseline.toml", []),
    ("8-gang shared bus (8 packages, 1 bus)", "agrawal-gang8-shared-bus.toml", []),
    ("16 packages, no gang (16 buses)", "agrawal-baseline.toml", ["geometry.channels=16"]),
    ("16 packages, two 8-gangs (2 buses)", "agrawal-gang8-shared-bus.toml",
     ["geometry.channels=2"]),
    ("16 packages, one 16-gang (1 bus)", "agrawal-gang16-shared-bus.toml", []),
    ("no gang, 175 ns command cycles", "agrawal-baseline.toml", ["timing.command_ns=175"]),
    ("8-gang shared control, asynchronous", "agrawal-gang8-shared-control-async.toml", []),
    ("8-gang shared control, synchronous", "agrawal-gang8-shared-control-sync.toml", []),
]
# (experiment, whether its IO/s is shown) in the plan's order.
COLUMNS = [("w4k-qd1", False), ("w4k-qd8", True), ("w32k-qd1", True)]


def simulate(ssdlab, seed, outdir, preset, overrides):
    command = [ssdlab, "sim", "-c", os.path.join("configs", preset), "-w", PLAN,
               "-o", outdir, "--quiet", "--seed", str(seed)]
    for o in overrides:
        command += ["--set", o]
    run = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
    if run.returncode != 0:
        sys.exit(f"{' '.join(command)}: exit {run.returncode}\n{run.stderr}")
    return outdir


def means_by_mode(io_csv):
    """{experiment: (mean all, mean writes, mean reads)} of rt_us."""
    times = {}
    with open(io_csv, newline="") as f:
        for row in csv.DictReader(f):
            per = times.setdefault(row["experiment"], {"W": [], "R": []})
            per[row["mode"]].append(float(row["rt_us"]))
    return {name: (statistics.fmean(per["W"] + per["R"]), statistics.fmean(per["W"]),
                   statistics.fmean(per["R"]))
            for name, per in times.items()}


def experiment_runs(outdir):
    """{experiment: its run in summary.json}."""
    with open(os.path.join(outdir, "summary.json")) as f:
        return {e["name"]: e["runs"][0] for e in json.load(f)["experiments"]}


def cells(outdir):
    means = means_by_mode(os.path.join(outdir, "io.csv"))
    iops = {name: run["iops"] for name, run in experiment_runs(outdir).items()}
    out = []
    for name, with_iops in COLUMNS:
        everything, writes, reads = means[name]
        out.append(f"{everything:.1f} ({writes:.1f} / {reads:.1f})")
        if with_iops:
            out.append(f"{iops[name]:.0f}")
    return out


def config_text(preset, overrides):
    return f"`{preset}`" + "".join(f" `--set {o}`" for o in overrides)


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("ssdlab", nargs="?", default="build/sim/ssdlab")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    ssdlab = os.path.abspath(args.ssdlab)
    with tempfile.TemporaryDirectory(prefix="gang-figures-") as tmp:
        with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
            runs = [pool.submit(simulate, ssdlab, args.seed, os.path.join(tmp, str(i)), preset,
                                overrides)
                    for i, (_, preset, overrides) in enumerate(ROWS)]
            outdirs = [r.result() for r in runs]
        print("| organisation | config | 4 KiB, qd 1 | 4 KiB, qd 8 | IOPS | 32 KiB, qd 1 | IOPS |")
        print("|---|---|---|---|---|---|---|")
        for (organisation, preset, overrides), outdir in zip(ROWS, outdirs):
            print(f"| {organisation} | {config_text(preset, overrides)} | "
                  + " | ".join(cells(outdir)) + " |")
        print()
        print("| organisation | write amplification: 4 KiB, qd 1 | 4 KiB, qd 8 | 32 KiB, qd 1 |")
        print("|---|---|---|---|")
        for (organisation, _, _), outdir in zip(ROWS, outdirs):
            runs = experiment_runs(outdir)
            print(f"| {organisation} | " + " | ".join(
                f"{runs[name]['device']['write_amplification']:.2f}" for name, _ in COLUMNS)
                + " |")


if __name__ == "__main__":
    main()
