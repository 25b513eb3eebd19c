#!/usr/bin/env python3
"""What a run guarantees beyond one bad input (docs/reliability.md):

- two runs into one output folder: the second is refused while the first
  runs, and the first's io.csv and summary.json are its own (issue 23, 1);
- a signal mid-run leaves no temporary file (16);
- checkpoints altered with their CRC recomputed never crash `sim
  --load-state` or `state-info`, with or without --verify (4).

  tests/run_safety.py --ssdlab build/sim/ssdlab [--source .]
"""
import argparse
import os
import pathlib
import random
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import time
import zlib

failures = []


def check(condition, what):
    if not condition:
        failures.append(what)
        print("FAIL:", what)


def io_log_started(out):
    """Whether a run writes io.csv's temporary file (io.csv.XXXXXX.partial) in `out`."""
    return out.is_dir() and any(out.glob("io.csv.*.partial"))


def two_runs(ssdlab, tiny, t):
    out = t / "cc"
    count = 1000000
    first = subprocess.Popen([ssdlab, "sim", "-c", tiny, "-w", f"RW:count={count}", "--seed", "1",
                              "-o", out], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    # Once the first writes its io log it holds the folder (it locks before
    # loading anything), however loaded the machine.
    deadline = time.time() + 60
    while time.time() < deadline and not io_log_started(out):
        time.sleep(0.01)
    second = subprocess.run([ssdlab, "sim", "-c", tiny, "-w", f"RW:count={count}", "--seed", "2",
                             "-o", out], capture_output=True, text=True)
    stdout, stderr = first.communicate(timeout=300)
    check(second.returncode == 1, f"second run into a busy folder: exit {second.returncode}")
    check("another ssdlab run is writing into this output folder" in second.stderr
          and str(out) in second.stderr, f"second run's message: {second.stderr!r}")
    check(first.returncode == 0, f"first run: exit {first.returncode}: {stderr}")
    summary = (out / "summary.json").read_text()
    check('"seed": 1' in summary, "summary.json is the first run's")
    rows = (out / "io.csv").read_text().count("\n") - 1
    check(rows == count, f"io.csv has {rows} rows, the first run's {count}")
    check(first.poll() is not None, "the first run ended")
    check(not list(out.glob("*.partial")), "no temporary files after the runs")


def signals(ssdlab, tiny, t):
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        out = t / f"sig-{sig.name}"
        run = subprocess.Popen([ssdlab, "sim", "-c", tiny, "-w", "RW:count=3000000", "-o", out],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        # Wait until the io log is being written, then interrupt.
        deadline = time.time() + 60
        while time.time() < deadline and not io_log_started(out):
            time.sleep(0.05)
        time.sleep(0.3)
        check(io_log_started(out), f"{sig.name}: the run wrote io.csv's temporary file")
        run.send_signal(sig)
        code = run.wait(timeout=60)
        check(code == -sig, f"{sig.name}: ended with {code}, expected the signal")
        left = sorted(p.name for p in out.iterdir() if p.name != ".ssdlab.lock")
        check(not left, f"{sig.name}: left behind {left}")


def forged_checkpoints(ssdlab, tiny, t, count):
    state = t / "state.ssd"
    subprocess.run([ssdlab, "sim", "-c", tiny, "-w", "RW:count=3000", "--no-io-log",
                    "--save-state", state, "-o", t / "saved"], check=True, capture_output=True)
    data = state.read_bytes()
    info_bytes = struct.unpack_from("<I", data, 20)[0]
    start = 24 + info_bytes  # the state, past the header and the info
    rng = random.Random(23)
    crashes = 0
    for i in range(count):
        forged = bytearray(data)
        for _ in range(rng.choice((1, 1, 2, 4, 8))):
            at = rng.randrange(start, len(forged) - 4)
            forged[at] = rng.choice((0, 0xFF, forged[at] ^ (1 << rng.randrange(8)), rng.randrange(256)))
        struct.pack_into("<I", forged, len(forged) - 4, zlib.crc32(bytes(forged[:-4])) & 0xFFFFFFFF)
        path = t / f"forged-{i}.ssd"
        path.write_bytes(bytes(forged))
        for extra in ([], ["--verify"]):
            run = subprocess.run([ssdlab, "sim", "-c", tiny, "-w", "RW:count=2000", "--no-io-log",
                                  "--load-state", path, "-o", t / f"forged-out-{i}", *extra],
                                 capture_output=True, text=True, timeout=120)
            if run.returncode not in (0, 1):
                crashes += 1
                check(False, f"sim --load-state forged-{i} {extra}: exit {run.returncode}: "
                             f"{run.stderr[-300:]}")
            elif run.returncode == 1:
                check(run.stderr.startswith("ssdlab: ") and str(path) in run.stderr,
                      f"forged-{i}: message {run.stderr!r}")
        info = subprocess.run([ssdlab, "state-info", path], capture_output=True, text=True,
                              timeout=120)
        check(info.returncode in (0, 1), f"state-info forged-{i}: exit {info.returncode}")
        path.unlink()
        shutil.rmtree(t / f"forged-out-{i}", ignore_errors=True)
    print(f"{count} forged checkpoints loaded, {crashes} crashes")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--ssdlab", required=True)
    parser.add_argument("--source", default=str(pathlib.Path(__file__).resolve().parent.parent))
    parser.add_argument("--forged", type=int, default=60)
    args = parser.parse_args()
    ssdlab = str(pathlib.Path(args.ssdlab).resolve())
    tiny = str(pathlib.Path(args.source).resolve() / "configs/tiny.toml")
    t = pathlib.Path(tempfile.mkdtemp(prefix="ssdlab-run-safety-"))
    try:
        two_runs(ssdlab, tiny, t)
        signals(ssdlab, tiny, t)
        forged_checkpoints(ssdlab, tiny, t, args.forged)
    finally:
        shutil.rmtree(t, ignore_errors=True)
    print(f"{len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
