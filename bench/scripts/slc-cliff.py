#!/usr/bin/env python3
"""The SLC-cache write cliff of a preset (bench/scripts/slc-cliff.sh).

  slc-cliff.py plan PRESET [--set k=v]...      print the count of 128 KiB writes
  slc-cliff.py analyse PRESET OUTDIR [--set k=v]... [--check TOL] [--docs FILE]

The published figures come from the preset's line
`# slc-cliff: cache_gb=C in_cache_mbps=I post_cache_mbps=P` (decimal GB and
MB/s, as the makers give them). A `--set slc_cache.size_gib=X` scales the
cache compared against by X / the preset's size_gib.

Throughput is measured per slice of the bytes written, in completion order
(io.csv: submit_us + rt_us): the bytes of the slice over the time between the
last completion before it and its last completion. In-cache throughput: the
median over the first 10% of the slices before the cliff; after the cache: the
median over the last 25% of the run. The cliff: the first slice whose
throughput is below the geometric mean of the two, where the run stays below
it for the next slices (a single slow slice, such as an erase, is not the
cliff).
"""
import csv
import json
import math
import os
import re
import shutil
import statistics
import sys

IO_SIZE = 131072
SLICE_MIN = 64 * 2**20


def published(preset):
    """The preset's published figures and its slc_cache.size_gib."""
    text = open(preset, encoding="utf-8").read()
    m = re.search(r"^#\s*slc-cliff:\s*(.+)$", text, re.M)
    if not m:
        sys.exit(f"slc-cliff: {preset} has no '# slc-cliff: cache_gb=... "
                 "in_cache_mbps=... post_cache_mbps=...' line")
    figures = {k: float(v) for k, v in (kv.split("=") for kv in m.group(1).split())}
    for key in ("cache_gb", "in_cache_mbps", "post_cache_mbps"):
        if key not in figures:
            sys.exit(f"slc-cliff: {preset}: the slc-cliff line has no {key}")
    size = re.search(r"^\s*size_gib\s*=\s*([0-9.]+)", text, re.M)
    figures["size_gib"] = float(size.group(1)) if size else None
    return figures


def parse_options(args):
    opts = {"set": [], "check": None, "docs": None}
    i = 0
    while i < len(args):
        key, value = args[i], args[i + 1] if i + 1 < len(args) else None
        if value is None or key not in ("--set", "--check", "--docs"):
            sys.exit(f"slc-cliff: bad option {key}")
        if key == "--set":
            opts["set"].append(value)
        else:
            opts[key[2:]] = value
        i += 2
    return opts


def scale(figures, sets):
    """The factor a --set slc_cache.size_gib applies to the cache size."""
    for s in sets:
        k, _, v = s.partition("=")
        if k.strip() == "slc_cache.size_gib" and figures["size_gib"]:
            return float(v) / figures["size_gib"]
    return 1.0


def plan(preset, opts):
    figures = published(preset)
    cache = figures["cache_gb"] * 1e9 * scale(figures, opts["set"])
    print(max(1, math.ceil(2 * cache / IO_SIZE)))


def completions(io_csv):
    """(completion time in us, bytes) of each write, in completion order."""
    rows = []
    with open(io_csv, newline="") as f:
        for r in csv.DictReader(f):
            if r["mode"] == "W":
                rows.append((float(r["submit_us"]) + float(r["rt_us"]), int(r["size"])))
    rows.sort()
    return rows


def slices(rows, total):
    """(GB written at the slice's end, MB/s in the slice) per slice."""
    size = max(SLICE_MIN, total // 400)
    out, done, t_prev, acc = [], 0, 0.0, 0
    for t, b in rows:
        acc += b
        if acc >= size:
            done += acc
            dt = t - t_prev
            out.append((done / 1e9, acc / dt if dt > 0 else float("inf")))  # bytes/us = MB/s
            t_prev, acc = t, 0
    return out


def find_cliff(series):
    """(index of the cliff slice or None, in-cache MB/s, post-cache MB/s)."""
    n = len(series)
    post = statistics.median(v for _, v in series[n - max(1, n // 4):])
    head = series[:max(1, n // 10)]
    inside = statistics.median(v for _, v in head)
    threshold = math.sqrt(inside * post)
    run = 3
    for i in range(n):
        window = series[i:i + run]
        if all(v < threshold for _, v in window):
            return i, inside, post, threshold
    return None, inside, post, threshold


def cache_stats(summary_json):
    """The run's SLC cache counters (summary.json "slc_cache"), if it has them."""
    try:
        data = json.load(open(summary_json))
    except (OSError, ValueError):
        return None
    stack = [data]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            if isinstance(node.get("slc_cache"), dict) and "host_pages_absorbed" in node["slc_cache"]:
                return node["slc_cache"]
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return None


def deviation(measured, expected):
    return (measured - expected) / expected


def plot(series, cliff_gb, figures, factor, path, title):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    fig, ax = plt.subplots(figsize=(7, 3.5))
    ax.plot([g for g, _ in series], [v for _, v in series], lw=1, label="model")
    ax.axvline(figures["cache_gb"] * factor, ls="--", c="gray", label="published cache")
    ax.axhline(figures["post_cache_mbps"], ls=":", c="gray", label="published after cache")
    if cliff_gb is not None:
        ax.axvline(cliff_gb, c="red", lw=0.8, label="measured cliff")
    ax.set_xlabel("GB written")
    ax.set_ylabel("MB/s")
    ax.set_yscale("log")
    ax.set_title(title)
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    return True


def update_docs(path, preset, line):
    if not os.path.isfile(path):
        sys.exit(f"slc-cliff: --docs {path}: no such file")
    text = open(path, encoding="utf-8").read()
    begin, end = "<!-- slc-cliff results -->", "<!-- end slc-cliff results -->"
    if begin not in text or end not in text:
        sys.exit(f"slc-cliff: {path} has no '{begin}' ... '{end}' block")
    head, rest = text.split(begin, 1)
    body, tail = rest.split(end, 1)
    header = ("| preset | cache published | cliff measured | dev. | after cache published "
              "| after cache measured | dev. | in cache published | in cache measured |\n"
              "|---|---|---|---|---|---|---|---|---|\n")
    rows = [r for r in body.splitlines() if r.startswith("| `")]
    figures = sorted(r for r in body.splitlines() if r.startswith("![")
                     and f"slc-cliff-{preset.removesuffix('.toml')}.png" not in r)
    image = f"images/slc-cliff-{preset.removesuffix('.toml')}.png"
    if os.path.isfile(os.path.join(os.path.dirname(path) or ".", image)):
        figures = sorted(figures + [f"![{preset}: throughput per GB written]({image})"])
    rows = [r for r in rows if not r.startswith(f"| `{preset}`")] + [line]
    rows.sort()
    note = ("\nMeasured by `bench/scripts/slc-cliff.sh PRESET OUTDIR --docs "
            "docs/current-devices.md` (128 KiB sequential writes at queue depth 32 on the "
            "fresh device; GB and MB/s decimal).\n\n")
    open(path, "w", encoding="utf-8").write(head + begin + note + header + "\n".join(rows)
                                           + "\n\n" + "\n\n".join(figures) + "\n" + end + tail)


def analyse(preset, outdir, opts):
    figures = published(preset)
    factor = scale(figures, opts["set"])
    rows = completions(os.path.join(outdir, "run", "io.csv"))
    total = sum(b for _, b in rows)
    series = slices(rows, total)
    if len(series) < 8:
        sys.exit("slc-cliff: too few slices to find a cliff")
    i, inside, post, threshold = find_cliff(series)
    cliff_gb = series[i - 1][0] if i else (0.0 if i == 0 else None)
    cache = figures["cache_gb"] * factor
    with open(os.path.join(outdir, "cliff.csv"), "w") as f:
        f.write("gb_written,mbps\n")
        f.writelines(f"{g:.4f},{v:.2f}\n" for g, v in series)
    result = {
        "preset": preset, "scale": factor, "gb_written": total / 1e9,
        "cliff_gb": cliff_gb, "published_cache_gb": cache,
        "in_cache_mbps": inside, "published_in_cache_mbps": figures["in_cache_mbps"],
        "post_cache_mbps": post, "published_post_cache_mbps": figures["post_cache_mbps"],
        "threshold_mbps": threshold,
    }
    result["cliff_deviation"] = deviation(cliff_gb, cache) if cliff_gb is not None else None
    result["post_cache_deviation"] = deviation(post, figures["post_cache_mbps"])
    result["in_cache_deviation"] = deviation(inside, figures["in_cache_mbps"])
    json.dump(result, open(os.path.join(outdir, "result.json"), "w"), indent=2)
    name = os.path.basename(preset)
    scaled = f" (scaled x{factor:.4g})" if factor != 1.0 else ""
    print(f"slc-cliff: {name}{scaled}: {total / 1e9:.1f} GB written")
    if cliff_gb is None:
        print(f"  cliff: none found (throughput never stays below {threshold:.0f} MB/s); "
              f"published cache {cache:.1f} GB")
    else:
        print(f"  cliff after {cliff_gb:.1f} GB; published cache {cache:.1f} GB: "
              f"{100 * result['cliff_deviation']:+.1f}%")
    print(f"  after the cache {post:.0f} MB/s; published {figures['post_cache_mbps']:.0f} MB/s: "
          f"{100 * result['post_cache_deviation']:+.1f}%")
    print(f"  inside the cache {inside:.0f} MB/s; published {figures['in_cache_mbps']:.0f} MB/s: "
          f"{100 * result['in_cache_deviation']:+.1f}% (not checked)")
    stats = cache_stats(os.path.join(outdir, "run", "summary.json"))
    if stats:
        result["slc_cache"] = stats
        print("  cache counters: " + ", ".join(
            f"{k} {stats[k]}" for k in ("host_pages_absorbed", "host_pages_bypassed",
                                        "pages_folded", "peak_blocks", "capacity_blocks")
            if k in stats))
        json.dump(result, open(os.path.join(outdir, "result.json"), "w"), indent=2)
    png = os.path.join(outdir, "cliff.png")
    if plot(series, cliff_gb, figures, factor, png, name + scaled):
        print(f"  figure: {png}")
        if opts["docs"] and factor == 1.0:
            image = f"images/slc-cliff-{name.removesuffix('.toml')}.png"
            shutil.copyfile(png, os.path.join(os.path.dirname(opts["docs"]) or ".", image))
    if opts["docs"]:
        fmt = lambda d: "-" if d is None else f"{100 * d:+.1f}%"
        cliff_txt = "none" if cliff_gb is None else f"{cliff_gb:.1f} GB"
        line = (f"| `{name}`{scaled} | {cache:.1f} GB | {cliff_txt} | {fmt(result['cliff_deviation'])} "
                f"| {figures['post_cache_mbps']:.0f} MB/s | {post:.0f} MB/s "
                f"| {fmt(result['post_cache_deviation'])} | {figures['in_cache_mbps']:.0f} MB/s "
                f"| {inside:.0f} MB/s |")
        update_docs(opts["docs"], name, line)
    if opts["check"] is not None:
        tol = float(opts["check"])
        bad = []
        if cliff_gb is None or abs(result["cliff_deviation"]) > tol:
            bad.append("cliff")
        if abs(result["post_cache_deviation"]) > tol:
            bad.append("post-cache throughput")
        if bad:
            print(f"slc-cliff: {name}: {' and '.join(bad)} more than {100 * tol:.0f}% off the "
                  "published figures")
            sys.exit(1)
        print(f"slc-cliff: {name}: within {100 * tol:.0f}% of the published figures")


def main():
    if len(sys.argv) < 3 or sys.argv[1] not in ("plan", "analyse"):
        sys.exit(__doc__)
    if sys.argv[1] == "plan":
        plan(sys.argv[2], parse_options(sys.argv[3:]))
    else:
        if len(sys.argv) < 4:
            sys.exit(__doc__)
        analyse(sys.argv[2], sys.argv[3], parse_options(sys.argv[4:]))


if __name__ == "__main__":
    main()
