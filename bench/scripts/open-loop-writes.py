#!/usr/bin/python3
"""Writes a deterministic open-loop random-write trace in MSR Cambridge format.

Issue 26's workload: uniform 0-1 ms inter-arrival times (about 2,000 writes
per second), writes of 4, 8 or 12 KiB (uniform) at 4 KiB-aligned offsets
uniform over the first REGION bytes of the device. Same arguments, same file.

    bench/scripts/open-loop-writes.py --count 100000 --seed 1 > trace.csv
"""
import argparse
import random
import sys

KIB = 1024
GIB = 1024 ** 3
TICKS_PER_US = 10  # MSR timestamps: Windows filetime, 100 ns ticks
START_TICKS = 128166372000000000  # any filetime; replay times are relative


def parse_size(text):
    units = {"k": KIB, "kib": KIB, "m": KIB ** 2, "mib": KIB ** 2, "g": GIB, "gib": GIB}
    text = text.strip().lower()
    for suffix in sorted(units, key=len, reverse=True):
        if text.endswith(suffix):
            return int(float(text[: -len(suffix)]) * units[suffix])
    return int(text)


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--count", type=int, default=100000, help="writes (default 100000)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--region", default="3.35GiB", help="bytes written over (default 3.35GiB)")
    parser.add_argument("--max-gap-us", type=float, default=1000.0,
                        help="inter-arrival times uniform in [0, this] us (default 1000)")
    args = parser.parse_args()
    region = parse_size(args.region)
    if args.count <= 0 or region < 12 * KIB or args.max_gap_us < 0:
        sys.exit("open-loop-writes.py: --count must be positive, --region at least 12KiB, "
                 "--max-gap-us not negative")
    rng = random.Random(args.seed)
    slots = region // (4 * KIB)
    time_us = 0.0
    out = sys.stdout
    for _ in range(args.count):
        time_us += rng.uniform(0.0, args.max_gap_us)
        pages = rng.randint(1, 3)
        offset = rng.randrange(slots - pages + 1) * 4 * KIB
        ticks = START_TICKS + int(round(time_us * TICKS_PER_US))
        out.write(f"{ticks},ssdlab,0,Write,{offset},{pages * 4 * KIB},0\n")


if __name__ == "__main__":
    main()
