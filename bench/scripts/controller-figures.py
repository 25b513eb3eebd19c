#!/usr/bin/python3
"""The controller figures of docs/model.md ("Controller: host queue, write
buffer, background cleaning").

    controller-figures.py [SSDLAB]      (SSDLAB: default build/sim/ssdlab)

Runs the commands that the section shows, each as
`ssdlab sim -c CONFIG [--set ...] --precondition random -w WORKLOAD -o DIR`,
at most two at a time, in a temporary folder, and prints three markdown tables
(each under a line naming it) and the figures the text quotes:
- write buffer on bursty writes (workloads/plans/controller-bursts.toml):
  mean, p50, p99 per burst size (summary.json, per run), without and with it;
- background cleaning on writes with idle periods
  (workloads/plans/controller-idle.toml, and the same pattern with 100,000
  writes): the run's response times and device counters (summary.json);
- reads-first on a mixed workload (workloads/plans/controller-mix.toml): the
  response times of reads and of writes, from io.csv's rt_us by mode, with
  nearest-rank percentiles as summary.json computes them.
The unloaded times quoted (a page read, a page write, an erase) are computed
from the resolved timing in summary.json's config. Run from anywhere; paths
are relative to the repository.
"""
import argparse
import concurrent.futures
import csv
import json
import math
import os
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
BURSTS = "workloads/plans/controller-bursts.toml"
IDLE = "workloads/plans/controller-idle.toml"
IDLE_100K = "RW:io_size=4096,count=100000,burst=100,pause_us=100000,io_ignore=0"
MIX = "workloads/plans/controller-mix.toml"
PREEMPT_OFF = ["controller.background_cleaning_preempt=false"]

# name: (preset, --set overrides, workload)
RUNS = {
    "bursts-off": ("agrawal-baseline.toml", [], BURSTS),
    "bursts-on": ("agrawal-write-buffer.toml", [], BURSTS),
    "idle-off": ("agrawal-baseline.toml", [], IDLE),
    "idle-whole-rounds": ("agrawal-background-cleaning.toml", PREEMPT_OFF, IDLE),
    "idle-on": ("agrawal-background-cleaning.toml", [], IDLE),
    "idle100k-off": ("agrawal-baseline.toml", [], IDLE_100K),
    "idle100k-on": ("agrawal-background-cleaning.toml", [], IDLE_100K),
    "mix-unlimited": ("agrawal-reads-first.toml", ["host.queue_depth=0"], MIX),
    "mix-fifo": ("agrawal-reads-first.toml", ["host.scheduling=fifo"], MIX),
    "mix-reads-first": ("agrawal-reads-first.toml", [], MIX),
}


def simulate(ssdlab, outdir, preset, overrides, workload):
    command = [ssdlab, "sim", "-c", os.path.join("configs", preset)]
    for o in overrides:
        command += ["--set", o]
    command += ["--precondition", "random", "-w", workload, "-o", outdir, "--quiet"]
    run = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
    if run.returncode != 0:
        sys.exit(f"{' '.join(command)}: exit {run.returncode}\n{run.stderr}")
    with open(os.path.join(outdir, "summary.json")) as f:
        return json.load(f)


def only_run(summary):
    """The run of a one-experiment, one-run workload."""
    [experiment] = summary["experiments"]
    [run] = experiment["runs"]
    return run


def nearest_rank(values, fraction):
    """As sim/results/run_stats.cpp: the ceil(fraction x n)-th smallest."""
    ordered = sorted(values)
    k = math.ceil(fraction * len(ordered) - 1e-7)
    return ordered[min(max(k, 1), len(ordered)) - 1]


def by_mode(io_csv):
    """{mode: (mean, p50, p99)} of rt_us."""
    times = {}
    with open(io_csv, newline="") as f:
        for row in csv.DictReader(f):
            times.setdefault(row["mode"], []).append(float(row["rt_us"]))
    return {mode: (statistics.fmean(t), nearest_rank(t, 0.5), nearest_rank(t, 0.99))
            for mode, t in times.items()}


def unloaded_us(summary):
    """(page read, page write, erase) in µs on an idle die: the array time plus
    the page and its OOB bytes across the bus."""
    geometry, timing = summary["config"]["geometry"], summary["config"]["timing"]
    transfer = (geometry["page_size"] + geometry["oob_size"]) * timing["bus_ns_per_byte"] / 1000
    return timing["read_us"] + transfer, timing["program_us"] + transfer, timing["erase_us"]


def burst_table(off, on):
    print("#### Write buffer on bursty writes: response time (µs) per burst size")
    print()
    print("| burst | no buffer: mean | p50 | p99 | 8 MiB write-back: mean | p50 | p99 |")
    print("|---:|---:|---:|---:|---:|---:|---:|")
    link_us = on["config"]["controller"]["write_buffer_ns_per_byte"] \
        * on["experiments"][0]["io_size"] / 1000
    absorbed = []
    for a, b in zip(off["experiments"], on["experiments"]):
        ra, rb = a["runs"][0], b["runs"][0]
        print(f"| {a['burst']} | " + " | ".join(
            f"{r[k]:,.0f}" for r in (ra, rb) for k in ("mean_us", "p50_us", "p99_us")) + " |")
        if abs(rb["max_us"] - link_us) < 0.01:
            absorbed.append(a["burst"])
    means = [e["runs"][0]["mean_us"] for e in off["experiments"]]
    mean_ratio = [e["runs"][0]["mean_us"] / o["runs"][0]["mean_us"]
                  for e, o in zip(on["experiments"], off["experiments"])]
    print()
    print(f"- host link time of one {on['experiments'][0]['io_size'] // 1024} KiB write: "
          f"{link_us:.1f} µs; bursts every write of which took just that: {absorbed}")
    print(f"- no buffer: mean per write {min(means):,.0f} to {max(means):,.0f} µs; "
          f"buffered mean / unbuffered mean: {min(mean_ratio):.3f} to {max(mean_ratio):.3f}")
    waits = [(e["burst"], e["runs"][0]["device"]["write_buffer_full_waits"])
             for e in on["experiments"]]
    print(f"- buffered writes that waited for space, per burst size: {waits}")


def cleaning(blocks, time_us, digits):
    return f"{blocks:,} blocks, {time_us / 1e6:.{digits}f} s" if blocks else "0"


def idle_row(label, summary):
    run = only_run(summary)
    d = run["device"]
    print(f"| {label} | {run['mean_us']:,.1f} | {run['p50_us']:,.1f} | {run['p99_us']:,.1f} | "
          f"{run['max_us']:,.1f} | "
          f"{cleaning(d['foreground_blocks_cleaned'], d['foreground_cleaning_time_us'], 2)} | "
          f"{cleaning(d['background_blocks_cleaned'], d['background_cleaning_time_us'], 1)} | "
          f"{d['write_amplification']:.2f} |")


def blocks(summary):
    return only_run(summary)["device"]["blocks_cleaned"]


def idle_table(off, whole, on, off100k, on100k):
    print("#### Background cleaning on a workload with idle periods: response time (µs), cleaning, write amplification")
    print()
    print("| config | mean µs | p50 | p99 | max | foreground cleaning | background cleaning | WA |")
    print("|---|---:|---:|---:|---:|---|---|---:|")
    idle_row("baseline (no background cleaning)", off)
    idle_row("background, `preempt = false`", whole)
    idle_row("background, `preempt = true`", on)
    read_us, write_us, erase_us = unloaded_us(on)
    copy_back_us = on["config"]["timing"]["read_us"] + on["config"]["timing"]["program_us"]
    print()
    print(f"- unloaded page write {write_us:.1f} µs, copy-back {copy_back_us:.1f} µs, "
          f"erase {erase_us:.1f} µs; write + erase {write_us + erase_us:.1f} µs, "
          f"preemptible max {only_run(on)['max_us']:.1f} µs")
    worst = (only_run(off)["max_us"] - write_us - erase_us) / copy_back_us
    print(f"- baseline max = page write + erase + {worst:.2f} copy-backs (one victim's cleaning)")
    d, g = only_run(on)["device"], on["config"]["geometry"]
    total_blocks = (g["channels"] * g["packages_per_channel"] * g["dies_per_package"]
                    * g["planes_per_die"] * g["blocks_per_plane"])
    ftl = on["config"]["ftl"]
    raise_blocks = total_blocks * (ftl["clean_high_water"] - ftl["clean_low_water"])
    moved = d["pages_moved"] / d["blocks_cleaned"]
    print(f"- background cleaning: {d['blocks_cleaned'] - blocks(off):,} more victims than the "
          f"baseline, {moved:.1f} valid pages moved per victim; raising the free blocks from "
          f"{ftl['clean_low_water']:.0%} to {ftl['clean_high_water']:.0%} is "
          f"{raise_blocks:,.0f} blocks, {raise_blocks * g['pages_per_block'] / (g['pages_per_block'] - moved):,.0f} "
          f"victims of that many valid pages")
    b = {name: blocks(s) for name, s in
         (("off", off), ("on", on), ("off100k", off100k), ("on100k", on100k))}
    r0, r1 = only_run(off100k), only_run(on100k)
    print(f"- 100,000 writes (`-w '{IDLE_100K}'`): blocks cleaned {b['on100k']:,} "
          f"(background cleaning) vs {b['off100k']:,} (baseline); WA "
          f"{r1['device']['write_amplification']:.2f} vs {r0['device']['write_amplification']:.2f}; "
          f"mean {r1['mean_us']:,.1f} vs {r0['mean_us']:,.1f} µs; "
          f"p99 {r1['p99_us']:,.1f} vs {r0['p99_us']:,.1f} µs; "
          f"max {r1['max_us']:,.1f} vs {r0['max_us']:,.1f} µs; foreground blocks "
          f"{r1['device']['foreground_blocks_cleaned']:,} vs "
          f"{r0['device']['foreground_blocks_cleaned']:,}")
    last_on, last_off = b["on100k"] - b["on"], b["off100k"] - b["off"]
    print(f"- the last 80,000 writes (100,000-write run less the 20,000-write one): "
          f"{last_on:,} blocks vs {last_off:,} ({100 * (last_on / last_off - 1):+.1f}%)")


def mix_table(outdirs, summaries):
    print("#### Reads-first on a mixed workload: response time (µs) by mode")
    print()
    print("| host queue | read mean µs | read p50 | read p99 | write mean µs | write p50 "
          "| write p99 |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    rows = [("unlimited (dispatch on arrival)", "mix-unlimited"), ("depth 8, `fifo`", "mix-fifo"),
            ("depth 8, `reads-first`", "mix-reads-first")]
    figures = {}
    for label, name in rows:
        figures[name] = by_mode(os.path.join(outdirs[name], "io.csv"))
        print(f"| {label} | " + " | ".join(
            f"{x:,.1f}" for mode in ("R", "W") for x in figures[name][mode]) + " |")
    read_us, _, _ = unloaded_us(summaries["mix-reads-first"])
    fifo, first = figures["mix-fifo"], figures["mix-reads-first"]
    print()
    print(f"- reads-first vs fifo: read mean / {fifo['R'][0] / first['R'][0]:.2f}, "
          f"read p99 / {fifo['R'][2] / first['R'][2]:.2f}; write mean x "
          f"{first['W'][0] / fifo['W'][0]:.2f}, write p99 x {first['W'][2] / fifo['W'][2]:.2f}; "
          f"unloaded page read {read_us:.1f} µs")


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("ssdlab", nargs="?", default="build/sim/ssdlab")
    args = parser.parse_args()
    ssdlab = os.path.abspath(args.ssdlab)
    with tempfile.TemporaryDirectory(prefix="controller-figures-") as tmp:
        outdirs = {name: os.path.join(tmp, name) for name in RUNS}
        with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
            futures = {name: pool.submit(simulate, ssdlab, outdirs[name], *spec)
                       for name, spec in RUNS.items()}
            s = {name: f.result() for name, f in futures.items()}
        burst_table(s["bursts-off"], s["bursts-on"])
        print()
        idle_table(s["idle-off"], s["idle-whole-rounds"], s["idle-on"], s["idle100k-off"],
                   s["idle100k-on"])
        print()
        mix_table(outdirs, s)


if __name__ == "__main__":
    main()
