#!/usr/bin/python3
"""Response times and erase gaps of one open-loop run (bench/scripts/cleaning-granularity.sh).

    cleaning-figures.py OUTDIR [--skip N --warm WARMDIR]

OUTDIR holds io.csv, summary.json and timeline.json of one `ssdlab sim` run.
Prints one line: mean, p99 and max response time (us) of the requests after
the first N (the warm-up before cleaning reached its steady state), the
write amplification of those requests (from the device counters of OUTDIR
less those of WARMDIR, the same run stopped after the first N requests:
runs are deterministic, so its state is the full run's at request N), and
the gaps between consecutive erases on the same die
(from the timeline's ERASE events on the die tracks): their median, the share
under 10 ms, and the mean number of erases in a run of erases each under
10 ms after the previous one.
"""
import argparse
import csv
import json
import os
import statistics


def percentile(sorted_values, p):
    if not sorted_values:
        return float("nan")
    rank = p / 100 * (len(sorted_values) - 1)
    low = int(rank)
    high = min(low + 1, len(sorted_values) - 1)
    return sorted_values[low] + (sorted_values[high] - sorted_values[low]) * (rank - low)


def response_times(path, skip):
    with open(path, newline="") as f:
        return sorted(float(row["rt_us"]) for row in csv.DictReader(f) if int(row["io"]) >= skip)


def erase_gaps(path, burst_us):
    with open(path) as f:
        events = json.load(f)["traceEvents"]
    names = {(e["pid"], e["tid"]): e["args"]["name"] for e in events
             if e.get("ph") == "M" and e.get("name") == "thread_name"}
    starts = {}
    for e in events:
        if e.get("ph") != "X" or not e["name"].startswith("ERASE"):
            continue
        track = names.get((e["pid"], e["tid"]), "")
        if track.startswith("Die ") and "/" not in track:  # the die, not its planes
            starts.setdefault(track, []).append(e["ts"])
    gaps, runs = [], []
    for times in starts.values():
        times.sort()
        run = 1
        for before, after in zip(times, times[1:]):
            gaps.append(after - before)
            if after - before < burst_us:
                run += 1
            else:
                runs.append(run)
                run = 1
        runs.append(run)
    return sorted(gaps), runs


def load_device(outdir):
    """The device counters of a run, preconditioning included."""
    with open(os.path.join(outdir, "summary.json")) as f:
        return json.load(f)["device"]


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("outdir")
    parser.add_argument("--skip", type=int, default=0, help="requests of warm-up to leave out")
    parser.add_argument("--warm", help="output folder of the run of the first N requests alone")
    parser.add_argument("--burst-ms", type=float, default=10.0)
    args = parser.parse_args()
    rts = response_times(os.path.join(args.outdir, "io.csv"), args.skip)
    device = load_device(args.outdir)
    wa_label, flash, host = "WA (whole run)", device["flash_pages_written"], device["host_pages_written"]
    if args.warm:
        warm = load_device(args.warm)
        wa_label = "WA"
        flash -= warm["flash_pages_written"]
        host -= warm["host_pages_written"]
    gaps, runs = erase_gaps(os.path.join(args.outdir, "timeline.json"), args.burst_ms * 1000)
    close = sum(1 for g in gaps if g < args.burst_ms * 1000)
    print(f"requests {len(rts)}  mean {statistics.fmean(rts):.1f} us  p99 {percentile(rts, 99):.1f} us"
          f"  max {rts[-1]:.1f} us  {wa_label} {flash / host:.4f}  |  "
          f"erase gaps on a die: {len(gaps)}, median {percentile(gaps, 50) / 1000:.2f} ms, "
          f"{100 * close / max(1, len(gaps)):.1f}% under {args.burst_ms:g} ms, "
          f"mean run {statistics.fmean(runs) if runs else 0:.2f} erases")


if __name__ == "__main__":
    main()
