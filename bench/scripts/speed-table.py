#!/usr/bin/env python3
"""The speed table of docs/performance.md ("Speed on every preset", issue 58).

For every preset in configs/ (or those named with --presets), with one
ssdlab binary:
  1. preconditions it (`--precondition random`, no state cache) and saves the
     state (`--save-state`): the process's CPU seconds (user + system, every
     thread: loading, preconditioning and saving the state), the
     preconditioning's own wall seconds (summary.json's precondition block) and
     the process's peak memory;
  2. from that state, random 4 KiB writes (IO_SIZE below where a preset
     refuses them) at queue depth 1 and 32 with io.csv
     on (`RW:io_size=4KiB,count=N,queue_depth=Q`): the simulated I/Os per CPU
     second that `ssdlab sim` prints (the simulation and its outputs only, not
     loading the state), best of --repeat runs, and the peak memory; beside
     it the run's write amplification (the FTL's pages written on flash per
     host page, summary.json: map units where the FTL maps units smaller
     than the flash page) and those flash writes per CPU second (the rate
     times it): the simulator's speed per unit of flash work, which does not
     depend on how much cleaning a preset's spare area costs each write.
Prints a Markdown table (and, with --json FILE, the figures as JSON).

--quick: presets with at least 1,000 blocks per plane run at a tenth of their
size (blocks per plane divided by ten, rounded up, and the SLC cache by the
same ratio: the "tenth" of docs/current-devices.md), and N is 400,000 (past
the TLC preset's static SLC cache at a tenth) instead of 1,000,000; the others
run whole. Presets whose workload needs more than a
random write stream get their keys from EXTRA below.

  bench/scripts/speed-table.py [--quick] [--presets a,b] [--ios N] BINARY WORKDIR
"""
import argparse
import json
import math
import os
import re
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# Keys a preset needs for random writes: a zoned device takes them through a
# host log (docs/zns.md, "The host log").
EXTRA = {"zns": ["--set", "host.log.overprovisioning=0.12"]}
# The writes' size where 4 KiB is refused: the host log maps whole pages.
IO_SIZE = {"zns": "16KiB"}
RATE = re.compile(r"s of CPU time \((\d+) per CPU second\)")


def scale_keys(config, quick):
    """--set keys of the quick variant (none for a preset run whole)."""
    geometry = config.get("geometry", {})
    blocks = geometry.get("blocks_per_plane", 0)
    if not quick or blocks < 1000:
        return [], "whole"
    tenth = math.ceil(blocks / 10)
    keys = ["--set", f"geometry.blocks_per_plane={tenth}"]
    slc = config.get("slc_cache", {})
    scale = tenth / blocks
    for key in ("size_gib", "static_gib"):
        if slc.get(key):
            keys += ["--set", f"slc_cache.{key}={slc[key] * scale:.3f}"]
    if slc.get("size_by_fill"):
        points = ",".join(f"[{fill},{gib * scale:.3f}]" for fill, gib in slc["size_by_fill"])
        keys += ["--set", f"slc_cache.size_by_fill=[{points}]"]
    return keys, f"{tenth} blocks/plane"


def measured(command, workdir):
    """Runs `command` under os.wait4 accounting: (output, status, cpu s, peak MiB)."""
    pid = os.fork()
    if pid == 0:
        os.environ["XDG_CACHE_HOME"] = str(workdir / "cache")
        log = os.open(workdir / "last.log", os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
        os.dup2(log, 1)
        os.dup2(log, 2)
        os.chdir(ROOT)
        try:
            os.execv(command[0], command)
        finally:
            os._exit(127)
    _, status, usage = os.wait4(pid, 0)
    output = (workdir / "last.log").read_text(errors="replace")
    code = os.waitstatus_to_exitcode(status)
    return output, code, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def preset_row(binary, preset, args, workdir):
    config = tomllib.loads(preset.read_text())
    name = preset.stem
    keys, scale = scale_keys(config, args.quick)
    keys += EXTRA.get(name, [])
    base = [binary, "sim", "-c", str(preset), "-q"] + keys
    state = workdir / f"{name}.ckpt"
    row = {"preset": name, "size": scale, "io_size": IO_SIZE.get(name, "4KiB")}
    output, code, cpu, peak = measured(
        base + ["--precondition", "random", "--no-state-cache", "--save-state", str(state),
                "-o", str(workdir / f"pre-{name}")], workdir)
    if code != 0:
        row["error"] = f"preconditioning exited {code}: {output.strip().splitlines()[-1:]}"
        return row
    summary = json.loads((workdir / f"pre-{name}" / "summary.json").read_text())
    row["precondition_cpu_s"] = round(cpu, 2)
    row["precondition_wall_s"] = (summary.get("precondition") or {}).get("wall_seconds")
    row["peak_mib"] = round(peak)
    for qd in (1, 32):
        best = 0
        for attempt in range(args.repeat):
            workload = f"RW:io_size={row['io_size']},count={args.ios},queue_depth={qd}"
            output, code, cpu, peak = measured(
                base + ["--load-state", str(state), "-w", workload,
                        "-o", str(workdir / f"qd{qd}-{name}")], workdir)
            found = RATE.search(output)
            if code != 0 or not found:
                row[f"qd{qd}_error"] = f"exited {code}: {output.strip().splitlines()[-1:]}"
                break
            rate = int(found.group(1))
            if rate > best:
                best = rate
                run = json.loads((workdir / f"qd{qd}-{name}" / "summary.json").read_text())
                device = run["experiments"][0]["runs"][0]["device"]
                wa = device["flash_pages_written"] / max(1, device["host_pages_written"])
                row[f"qd{qd}_wa"] = round(wa, 2)
                row[f"qd{qd}_flash_per_cpu_s"] = round(rate * wa)
            row["peak_mib"] = max(row["peak_mib"], round(peak))
        if best:
            row[f"qd{qd}_per_cpu_s"] = best
    state.unlink(missing_ok=True)
    return row


def cell(row, key, unit=""):
    if key in row and row[key] is not None:
        value = row[key]
        if isinstance(value, int) and value >= 10000:
            return f"{value / 1e6:.2f} M"
        return f"{value}{unit}"
    return "-"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("binary")
    parser.add_argument("workdir")
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--presets", help="comma-separated preset names (default: all)")
    parser.add_argument("--ios", type=int, help="writes per run (default 1,000,000; quick 400,000)")
    parser.add_argument("--repeat", type=int, default=1, help="runs per queue depth (best kept)")
    parser.add_argument("--json", help="also write the rows to this file")
    args = parser.parse_args()
    # Quick: 400,000 4 KiB writes, past the static SLC cache that the TLC
    # preset keeps at a tenth (0.56 GiB: 146,000 writes), so that the runs
    # measure cleaning, not writes the cache absorbs.
    args.ios = args.ios or (400_000 if args.quick else 1_000_000)
    binary = str(Path(args.binary).resolve())
    workdir = Path(args.workdir).resolve()
    workdir.mkdir(parents=True, exist_ok=True)
    presets = sorted((ROOT / "configs").glob("*.toml"))
    if args.presets:
        wanted = args.presets.split(",")
        presets = [p for p in presets if p.stem in wanted]
    print(f"# {'quick' if args.quick else 'full'} variant, {args.ios} writes per run, "
          f"best of {args.repeat}")
    print("| preset | size | precondition CPU s | precondition wall s | "
          "I/Os per CPU s, QD1 | I/Os per CPU s, QD32 | write amplification, QD1 / QD32 | "
          "flash writes per CPU s, QD1 / QD32 | peak RSS MiB |")
    print("|---|---|---|---|---|---|---|---|---|")
    rows = []
    for preset in presets:
        row = preset_row(binary, preset, args, workdir)
        rows.append(row)
        errors = "; ".join(v for k, v in row.items() if k.endswith("error"))
        size = row["size"] + ("" if row["io_size"] == "4KiB" else f", {row['io_size']} writes")
        print(f"| {row['preset']} | {size} | {cell(row, 'precondition_cpu_s')} | "
              f"{cell(row, 'precondition_wall_s')} | {cell(row, 'qd1_per_cpu_s')} | "
              f"{cell(row, 'qd32_per_cpu_s')} | {cell(row, 'qd1_wa')} / {cell(row, 'qd32_wa')} | "
              f"{cell(row, 'qd1_flash_per_cpu_s')} / {cell(row, 'qd32_flash_per_cpu_s')} | "
              f"{cell(row, 'peak_mib')} |"
              + (f" {errors}" if errors else ""), flush=True)
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1) + "\n")
    return 1 if any(k.endswith("error") for row in rows for k in row) else 0


if __name__ == "__main__":
    sys.exit(main())
