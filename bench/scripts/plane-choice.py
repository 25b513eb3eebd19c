#!/usr/bin/env python3
"""Plane choice and cleaning bursts (ftl.plane_choice; docs/model.md,
"The authors' configuration").

Runs Table 3's random-write-with-cleaning workload (DiskSim's
ssdmodel/valid/ssd-rw5m.parv: requests to a 3.35 GiB region of a fully mapped
device, exponential sizes of mean 4 KiB, open-loop arrivals uniform over
0-1 ms) on configs/agrawal-baseline.toml in two configurations:

  authors   the authors' model: no copy-back (§4.3's baseline cleans across
            the serial pins) and one parallel unit per package (DiskSim's
            shipped files: interleaving "none");
  preset    the preset as it is (copy-back, die interleaving);

each with host pages placed round-robin over the package's planes and on the
plane with the most free pages. For each run it prints the mean, p99 and
maximum response time, the share of requests of 10 ms or more (from the
summary's histogram), and, from a timeline of a window of the run, the most
blocks one package erased within any 50 ms: the size of a cleaning burst.

  bench/scripts/plane-choice.py [--ssdlab build/sim/ssdlab] [--count 5000000]
                                [--out out/plane-choice]
"""
import argparse
import json
import os
import subprocess
import sys

WORKLOAD = ("RW:io_size=4096,size_distribution=exponential:4KiB,target_size=3593678848,"
            "count={count},interarrival_us=uniform:0:1000")
CONFIGS = {
    "authors": ["ftl.copy_back=false", 'geometry.interleaving="none"'],
    "preset": [],
}
CHOICES = ["round-robin", "most-free"]
BURST_US = 50_000


def run(args, name, overrides, choice):
    out = os.path.join(args.out, f"{name}-{choice}")
    timeline = os.path.join(args.out, f"{name}-{choice}.timeline.json")
    # A window late in the run, where cleaning has long been steady.
    window_end = args.count * 500  # mean arrival gap 500 us
    window = f"{window_end - 4_000_000}:{window_end}"
    command = [args.ssdlab, "sim", "-c", "configs/agrawal-baseline.toml",
               "--precondition", "seq", "-w", WORKLOAD.format(count=args.count),
               "--no-io-log", "-o", out, "--timeline", timeline,
               "--timeline-window", window, "--timeline-ios", str(args.count)]
    for o in overrides + [f'ftl.plane_choice="{choice}"']:
        command += ["--set", o]
    print("$", " ".join(command), flush=True)
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    summary = json.load(open(os.path.join(out, "summary.json")))
    r = summary["experiments"][0]["runs"][0]
    h = r["histogram"]
    slow = sum(c for f, c in zip(h["from_us"], h["counts"]) if f >= 10_000)
    total = sum(h["counts"])
    return {"config": name, "plane_choice": choice, "mean_us": r["mean_us"],
            "p99_us": r["p99_us"], "max_us": r["max_us"],
            "share_10ms": slow / total if total else 0.0,
            "burst": largest_burst(timeline),
            "write_amplification": r["device"]["write_amplification"]}


def largest_burst(path):
    """The most erases one package (a trace 'process') started within BURST_US."""
    events = json.load(open(path))["traceEvents"]
    starts, seen = {}, set()
    for e in events:
        # "ERASE [cleaning]", on the die's track and the plane's: count once.
        if e.get("ph") == "X" and e.get("name", "").startswith("ERASE"):
            key = (e["pid"], e["ts"], e.get("args", {}).get("block"))
            if key not in seen:
                seen.add(key)
                starts.setdefault(e["pid"], []).append(e["ts"])
    most = 0
    for ts in starts.values():
        ts.sort()
        first = 0
        for last, t in enumerate(ts):
            while t - ts[first] > BURST_US:
                first += 1
            most = max(most, last - first + 1)
    return most


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--ssdlab", default="build/sim/ssdlab")
    p.add_argument("--count", type=int, default=5_000_000)
    p.add_argument("--out", default="out/plane-choice")
    args = p.parse_args()
    os.chdir(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
    os.makedirs(args.out, exist_ok=True)
    rows = [run(args, name, overrides, choice)
            for name, overrides in CONFIGS.items() for choice in CHOICES]
    print(f"\n{args.count:,} requests, agrawal-baseline --precondition seq\n")
    print("| configuration | plane choice | mean (µs) | p99 (µs) | max (µs) | ≥ 10 ms | "
          f"largest burst (erases per package in {BURST_US // 1000} ms) | WA |")
    print("|---|---|---|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['config']} | {r['plane_choice']} | {r['mean_us']:,.1f} | {r['p99_us']:,.1f} | "
              f"{r['max_us']:,.1f} | {100 * r['share_10ms']:.2f}% | {r['burst']} | "
              f"{r['write_amplification']:.3f} |")
    with open(os.path.join(args.out, "results.json"), "w") as f:
        json.dump(rows, f, indent=1)


if __name__ == "__main__":
    sys.exit(main())
