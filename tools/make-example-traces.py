#!/usr/bin/env python3
"""Writes the example traces in traces/examples/ (synthetic: no third-party data).

  synthetic.{csv,disksim,mqsim,spc,blkparse,iolog}: the same 200 requests in
      each format (MSR, DiskSim, MQSim, SPC, blkparse, fio iolog v2), so that
      replaying any of them gives the same io.csv (tests/sim/replay_cli_test.cpp).
  web-server.csv.gz: an MSR-style trace of a made-up web server, two disks,
      bursty, mostly reads, for the README.
  --lines N --out FILE: a large MSR trace for benchmarks (not committed).

Deterministic: a fixed seed, so rerunning gives the same files.
usage: tools/make-example-traces.py [--lines N --out FILE]
"""
import argparse, gzip, os, random

FILETIME_1970 = 116444736000000000
START = FILETIME_1970 + 1_700_000_000 * 10_000_000  # a date in 2023, in filetime ticks


def synthetic(rng, count):
    """(time_us, write, offset, size): sector-aligned, inside the tiny preset."""
    t, requests = 0, []
    for _ in range(count):
        t += rng.choice([0, 5, 40, 150, 300, 900, 2500])
        size = 512 * rng.choice([1, 8, 8, 8, 16, 64])
        offset = 512 * rng.randrange(0, 8 * 2048 - 64)
        requests.append((t, rng.random() < 0.6, offset, size))
    return requests


def write_formats(folder, requests):
    def out(name):
        return open(os.path.join(folder, name), "w", newline="\n")

    with out("synthetic.csv") as f:
        f.write("Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime\n")
        for t, w, off, size in requests:
            f.write(f"{START + t * 10},synth,0,{'Write' if w else 'Read'},{off},{size},{rngless(t)}\n")
    with out("synthetic.disksim") as f:
        for t, w, off, size in requests:
            f.write(f"{t / 1000:.6f}\t0\t{off // 512}\t{size // 512}\t{0 if w else 1}\n")
    with out("synthetic.mqsim") as f:
        for t, w, off, size in requests:
            f.write(f"{t * 1000} 0 {off // 512} {size // 512} {0 if w else 1}\n")
    with out("synthetic.spc") as f:
        for t, w, off, size in requests:
            f.write(f"0,{off // 512},{size},{'W' if w else 'r'},{t / 1e6:.6f}\n")
    with out("synthetic.blkparse") as f:
        seq = 0
        for t, w, off, size in requests:
            rwbs = "WS" if w else "R"
            for action, dt in (("Q", -2), ("G", -1), ("D", 0)):
                seq += 1
                ts = t * 1000 + 1_000_000 + dt * 1000  # trace starts 1 ms before the first
                f.write(f"  8,16   1 {seq:8d} {ts // 10**9:5d}.{ts % 10**9:09d}  4242  {action} {rwbs:>3} "
                        f"{off // 512} + {size // 512} [postgres]\n")
        f.write("CPU1 (8,16):\n Reads Queued:  0,  0KiB\t Writes Queued:  0,  0KiB\nTotal (8,16):\n"
                "Throughput (R/W): 0KiB/s / 0KiB/s\nEvents (8,16): 0 entries\n")
    with out("synthetic.iolog") as f:
        f.write("fio version 2 iolog\n/dev/sdb add\n/dev/sdb open\n")
        last = requests[0][0]
        for t, w, off, size in requests:
            if t > last:
                f.write(f"/dev/sdb wait {t - last} 0\n")
                last = t
            f.write(f"/dev/sdb {'write' if w else 'read'} {off} {size}\n")
        f.write("/dev/sdb close\n")


def rngless(t):  # a plausible ResponseTime column that the replay ignores
    return 40 + t % 700


def msr_lines(rng, count, host, disks):
    """A made-up server: bursts of requests, 70% reads, 4-64 KiB, some sequential runs."""
    t = START
    disk_bytes = 20 << 30
    cursor = [rng.randrange(0, disk_bytes // 4096) * 4096 for _ in range(disks)]
    for _ in range(count):
        t += int(rng.expovariate(1 / 2000)) if rng.random() < 0.9 else int(rng.expovariate(1 / 400000))
        disk = 0 if rng.random() < 0.8 else rng.randrange(1, disks)
        write = rng.random() < 0.3
        size = 4096 * rng.choice([1, 1, 1, 2, 4, 8, 16])
        if rng.random() < 0.4:
            offset = cursor[disk]
        else:
            offset = rng.randrange(0, disk_bytes // 4096) * 4096
        cursor[disk] = (offset + size) % disk_bytes
        response = int(rng.lognormvariate(6, 1))
        yield f"{t},{host},{disk},{'Write' if write else 'Read'},{offset},{size},{response}\n"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--lines", type=int)
    parser.add_argument("--out")
    args = parser.parse_args()
    if args.lines:
        opener = gzip.open if args.out.endswith(".gz") else open
        with opener(args.out, "wt") as f:
            f.writelines(msr_lines(random.Random(7), args.lines, "bench", 2))
        return
    folder = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "traces", "examples")
    os.makedirs(folder, exist_ok=True)
    write_formats(folder, synthetic(random.Random(1), 200))
    with gzip.GzipFile(os.path.join(folder, "web-server.csv.gz"), "wb", mtime=0) as f:
        f.write("".join(msr_lines(random.Random(2), 3000, "web", 2)).encode())


if __name__ == "__main__":
    main()
