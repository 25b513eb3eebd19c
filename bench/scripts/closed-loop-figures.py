#!/usr/bin/python3
"""The work and the waits of one closed-loop run (bench/scripts/cleaning-granularity.sh).

    closed-loop-figures.py NAME OUTDIR --unloaded US [--cpu-from FILE]

OUTDIR holds io.csv and summary.json of one `ssdlab sim` run of one
experiment. Prints one line: the run's mean, p99 and max response time (us),
its write amplification, erases, pages moved (copy-backs and inter-plane
moves), the writes that waited for cleaning (slower than US, the response
time of one write on an idle device) and the victims erased per such write, and the cleaning
time per cleaned block as the host saw it (wall time: the time from a
cleaning chain's start to its end, summed over chains) beside its serial
flash time (each cleaning command's unloaded duration, summed). Their ratio
is how many victims were cleaned at once on average: at queue depth 1 with
ftl.cleaning_blocks_writes = true, the mean response time is the unloaded
write plus the cleaning wall time per write, which the line also prints.
With --cpu-from, the CPU seconds that ssdlab printed to FILE.
"""
import argparse
import csv
import json
import os
import re

from importlib.machinery import SourceFileLoader

figures = SourceFileLoader(
    "cleaning_figures", os.path.join(os.path.dirname(__file__), "cleaning-figures.py")).load_module()


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("name")
    parser.add_argument("outdir")
    parser.add_argument("--unloaded", type=float, required=True,
                        help="response time of one write on an idle device (us)")
    parser.add_argument("--cpu-from", help="ssdlab's printed output of the run")
    args = parser.parse_args()
    with open(os.path.join(args.outdir, "summary.json")) as f:
        run = json.load(f)["experiments"][0]["runs"][0]
    device = run["device"]
    with open(os.path.join(args.outdir, "io.csv"), newline="") as f:
        rts = sorted(float(row["rt_us"]) for row in csv.DictReader(f))
    unloaded = args.unloaded
    waited = sum(1 for rt in rts if rt > unloaded + 0.05)
    blocks = device["foreground_blocks_cleaned"] + device["background_blocks_cleaned"]
    wall = device["cleaning_time_per_block_us"]
    flash = device["cleaning_flash_time_per_block_us"]
    line = (f"{args.name:<22} mean {run['mean_us']:9.1f}  p99 {figures.percentile(rts, 99):9.1f}"
            f"  max {rts[-1]:9.1f} us  WA {device['write_amplification']:.4f}"
            f"  erases {device['erases']}  moves {device['pages_moved']}"
            f" (copy-back {device['copy_backs']}, inter-plane {device['inter_plane_moves']})"
            f"  waited {waited} ({blocks / max(1, waited):.2f} victims each)"
            f"  cleaning per block {wall:.1f} us wall, {flash:.1f} us flash"
            f" ({flash / wall if wall else 0:.2f} at once)"
            f"  unloaded + wall/writes {unloaded + device['cleaning_time_us'] / len(rts):.1f}")
    if args.cpu_from:
        with open(args.cpu_from) as f:
            cpu = re.search(r", ([0-9.]+) s of CPU time", f.read())
        line += f"  CPU {cpu.group(1)} s"
    print(line)


if __name__ == "__main__":
    main()
