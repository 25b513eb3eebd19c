#!/usr/bin/python3
"""Writes a synthetic MSR Cambridge trace of N lines for the replay figures
of docs/performance.md: requests GAP_US apart (default 1 ms, which
agrawal-baseline keeps up with: no queue builds), 70% writes, 4-64 KiB
(mostly 4 KiB), 4 KiB-aligned offsets over SPAN bytes, seeded.
Not committed: generate it where it is measured.

  bench/scripts/make-msr-trace.py LINES OUT.csv [--span BYTES] [--gap-us US] [--seed N]
      [--writes SHARE] [--hot FRACTION:SHARE] [--sizes 4k]

--writes: the share of writes (default 0.7); --hot 0.2:0.8: that share of the
requests goes to the first FRACTION of the span (hot and cold data, for the
placement figures of docs/fdp.md); --sizes 4k: every request 4 KiB.
"""
import argparse
import random


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("lines", type=int)
    parser.add_argument("out")
    parser.add_argument("--span", type=int, default=16 << 30)
    parser.add_argument("--gap-us", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--writes", type=float, default=0.7)
    parser.add_argument("--hot", default=None)
    parser.add_argument("--sizes", choices=("mixed", "4k"), default="mixed")
    args = parser.parse_args()
    hot_fraction, hot_share = (float(x) for x in args.hot.split(":")) if args.hot else (1, 1)
    rng = random.Random(args.seed)
    start = 128166372000000000  # MSR timestamps: Windows filetime, 100 ns units
    pages = args.span // 4096
    with open(args.out, "w") as out:
        out.write("Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime\n")
        chunk = []
        for i in range(args.lines):
            size = 4096 * (rng.choice((1, 1, 1, 1, 2, 4, 8, 16)) if args.sizes == "mixed" else 1)
            if not args.hot:  # (the draws of the figures before --hot)
                offset = rng.randrange(pages - 16) * 4096
            elif rng.random() < hot_share:
                offset = rng.randrange(max(1, int((pages - 16) * hot_fraction))) * 4096
            else:
                offset = rng.randrange(max(1, int((pages - 16) * hot_fraction)), pages - 16) * 4096
            kind = "Write" if rng.random() < args.writes else "Read"
            chunk.append(f"{start + 10 * args.gap_us * i},synth,0,{kind},{offset},{size},100\n")
            if len(chunk) == 100000:
                out.writelines(chunk)
                chunk = []
        out.writelines(chunk)


if __name__ == "__main__":
    main()
