"""Figures of ssdlab output folders: the one implementation behind
`ssdlab plot`, `ssdlab compare --plot` and the Python package (ssdlab.plot).

It needs only the standard library and matplotlib (Debian's
python3-matplotlib), because `ssdlab plot` runs this file on its own with
/usr/bin/python3: the build embeds it into the binary (sim/CMakeLists.txt).

One output folder, like the uFLIP paper's figures (Bouganim, Jonsson, Bonnet,
"uFLIP: Understanding Flash IO Patterns", CIDR 2009):

  <benchmark>.<fmt>         mean response time vs the varied parameter, one
                            line per pattern or mix (Figures 6-8)
  <benchmark>-series.<fmt>  response time vs I/O number, with the running
                            average including and excluding the start-up
                            phase, one panel per pattern (Figures 3-4)
  <experiment>.<fmt>        the same series, for plans without benchmarks
  cdf.<fmt>, <benchmark>-cdf.<fmt>
                            cumulative distribution of response times, one
                            line per experiment (all runs)
  write-amplification.<fmt> write amplification of each experiment
  wear.<fmt>                blocks by erase count (remaining life), from
                            summary.json's wear.remaining_life_buckets

Several output folders, or a sweep folder (its job-* folders): a line or bar
per run, labelled with its FTL and config:

  runs-response-time.<fmt>  mean and p99 response time per experiment
  runs-write-amplification.<fmt>
  runs-cdf.<fmt>            response-time CDF per run (folders with io.csv)
  runs-read-age.<fmt>       runs with flash errors at different ages (--age):
                            read response time and retries per read against
                            the data's age or the P/E cycles (docs/errors.md)
  <benchmark>-runs.<fmt>    uFLIP benchmarks: mean response time vs the
                            parameter, one panel per pattern, a line per run

Every figure's title names the FTL and the config it shows.

Usage:
  plot.py OUTDIR PLOTDIR FORMAT                  (what `ssdlab plot OUTDIR` runs;
                                                  OUTDIR may be a sweep folder)
  plot.py [-o PLOTDIR] [--format png|svg] OUTDIR [OUTDIR...]
  plot.py --compare TABLE.csv FILE.png|FILE.svg LABEL_A LABEL_B
  plot.py --timeline TIMELINE.json OUTFILE START_US|- END_US|-
"""
import csv
import json
import math
import os
import re
import sys

try:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import FuncFormatter, LogLocator
except ImportError:
    sys.stderr.write("ssdlab: plot needs matplotlib: apt-get install python3-matplotlib\n")
    sys.exit(1)

MAX_SERIES_FIGURES = 24
# Legible when a figure is shrunk into a paper or a slide: nothing under 10 pt.
matplotlib.rcParams.update({"font.size": 11, "axes.titlesize": 12, "axes.labelsize": 11,
                            "xtick.labelsize": 10, "ytick.labelsize": 10,
                            "legend.fontsize": 10, "figure.titlesize": 12})
SMALL = 10
IO_CSV_HEADER = ["experiment", "run", "process", "io", "submit_us", "rt_us", "mode", "offset",
                 "size"]
# uFLIP parameters: axis label and unit of each.
PARAMETERS = {"io_size": ("I/O size", "bytes"), "io_shift": ("I/O shift", "bytes"),
              "target_size": ("target size", "bytes"), "partitions": ("partitions", None),
              "increment": ("increment", None), "processes": ("processes", None),
              "mix_ratio": ("mix ratio", None), "pause_us": ("pause", "us"),
              "burst": ("burst length", "I/Os")}


class PlotError(Exception):
    """Bad input: the message is one line for the user."""


def fail(message):
    raise PlotError(message)


def figure(*args, **kwargs):
    """A figure whose labels are never clipped (constrained layout)."""
    return plt.subplots(*args, layout="constrained", **kwargs)


def save(fig, path):
    directory = os.path.dirname(path)
    if directory:
        os.makedirs(directory, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)


def safe_name(text):
    return re.sub(r"[^A-Za-z0-9_.=+-]", "_", text)


def format_bytes(value, _position=None):
    for unit, size in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if value >= size:
            number = value / size
            return f"{number:.0f} {unit}" if number == int(number) else f"{number:.3g} {unit}"
    return f"{value:.0f} B"


def wide_range(values, ratio=10.0):
    """True if positive values span enough for a log axis (constant or
    nearly constant series are drawn on a linear one)."""
    positive = [v for v in values if v > 0]
    return bool(positive) and len(positive) == len(values) and \
        max(positive) / min(positive) >= ratio


def plain_number(value, _position=None):
    return f"{value:g}"


def set_value_scale(axes, values, axis="y"):
    if wide_range(values):
        (axes.set_yscale if axis == "y" else axes.set_xscale)("log")
        # Plain numbers (0.2, 1, 50), with 2x and 5x ticks labelled too, so
        # that a range of less than a decade still reads.
        scale = axes.yaxis if axis == "y" else axes.xaxis
        scale.set_major_formatter(FuncFormatter(plain_number))
        scale.set_minor_locator(LogLocator(base=10, subs=(2.0, 5.0)))
        scale.set_minor_formatter(FuncFormatter(plain_number))
    elif axis == "y":
        axes.set_ylim(bottom=0, top=max(values + [0]) * 1.1 or 1)


def describe(summary):
    """'FTL on config' of a summary.json, for titles and legends; a probe's
    'KIND FILE' of its target ('file disk.img'), as it has neither."""
    config = summary.get("config", {})
    target = summary.get("target")
    if isinstance(target, dict) and "ftl" not in config:
        return f"{target.get('kind', 'target')} {os.path.basename(str(target.get('path', '')))}"
    ftl = config.get("ftl", {}).get("type", "?")
    source = config.get("source") or config.get("name") or "?"
    stem = os.path.basename(source)
    stem = stem[:-5] if stem.endswith(".toml") else stem
    return f"{ftl} on {stem}"


def check_summary(path, summary):
    """Fails unless `summary` has the shape ssdlab writes, as far as the
    figures rely on it (the package's _check_summary does the same)."""
    def refuse(what):
        fail(f"{path}: not an ssdlab summary.json: {what}")
    if not isinstance(summary, dict):
        refuse(f"a JSON {type(summary).__name__}, not an object")
    for key in ("config", "device", "wear"):
        if key in summary and not isinstance(summary[key], dict):
            refuse(f"{key} is not an object")
    if "ftl" in summary.get("config", {}) and not isinstance(summary["config"]["ftl"], dict):
        refuse("config.ftl is not an object")
    for key in ("experiments", "benchmarks"):
        if not isinstance(summary.get(key, []), list):
            refuse(f"{key} is not a list")
    for i, experiment in enumerate(summary.get("experiments", [])):
        if not isinstance(experiment, dict) or not isinstance(experiment.get("name"), str):
            refuse(f"experiments[{i}] is not an object with a name")
        runs = experiment.get("runs", [])
        if not isinstance(runs, list) or not all(isinstance(run, dict) for run in runs):
            refuse(f"experiments[{i}].runs is not a list of objects")
    for i, table in enumerate(summary.get("benchmarks", [])):
        if not isinstance(table, dict) or not isinstance(table.get("name"), str):
            refuse(f"benchmarks[{i}] is not an object with a name")


def load_summary(outdir):
    path = os.path.join(outdir, "summary.json")
    try:
        with open(path, encoding="utf-8") as f:
            summary = json.load(f)
    except OSError as error:
        fail(f"{path}: {error.strerror}")
    except json.JSONDecodeError as error:
        fail(f"{path}:{error.lineno}: not JSON: {error.msg}")
    except UnicodeDecodeError as error:
        fail(f"{path}: not text (UTF-8): byte {error.start}")
    check_summary(path, summary)
    return summary


def running_average(values):
    total, averages = 0.0, []
    for i, value in enumerate(values):
        total += value
        averages.append(total / (i + 1))
    return averages


def check_header(io_csv, header):
    if header != IO_CSV_HEADER:
        fail(f"{io_csv}: not an ssdlab io.csv (header {header})")


# The io.csv modes a run's response times count (summary.json's figures):
# reads and writes, a zone append included; not trims or zone management.
SERVED_MODES = {"R", "W", "A"}


def refused_keys(io_csv):
    """(experiment, run, process, io) of each row of the refused.csv beside
    an io.csv (a zoned device's refusals), or an empty set."""
    path = os.path.join(os.path.dirname(io_csv), "refused.csv")
    if not os.path.isfile(path):
        return set()
    keys = set()
    with open(path, newline="", encoding="utf-8") as f:
        for line in list(f)[1:]:
            fields = line.rstrip("\n").rsplit(",", 8)
            if len(fields) == 9:
                keys.add((fields[0], fields[1], fields[2], fields[3]))
    return keys


def io_rows(io_csv, with_mode_and_size=False):
    """(experiment, run, submit_us, rt_us) of each served read and write of an
    io.csv (as summary.json counts them: not trims, zone management or
    refusals), checked as compare checks them: a malformed row fails naming
    its line. `with_mode_and_size`: (..., mode, size in bytes) too."""
    refused = refused_keys(io_csv)
    try:
        with open(io_csv, newline="", encoding="utf-8") as f:
            reader = csv.reader(f)
            check_header(io_csv, next(reader, None))
            for row in reader:
                where = f"{io_csv}:{reader.line_num}"
                if len(row) != len(IO_CSV_HEADER):
                    fail(f"{where}: expected {len(IO_CSV_HEADER)} fields, got {len(row)}")
                if row[6] not in SERVED_MODES or (refused and tuple(row[:4]) in refused):
                    continue
                times = []
                for column in (4, 5):
                    try:
                        value = float(row[column])
                    except ValueError:
                        value = math.nan
                    if not 0 <= value < math.inf:
                        fail(f"{where}: {IO_CSV_HEADER[column]}: '{row[column]}' is not a time")
                    times.append(value)
                if with_mode_and_size:
                    if not row[8].isdigit():
                        fail(f"{where}: size: '{row[8]}' is not a byte count")
                    yield row[0], row[1], times[0], times[1], row[6], int(row[8])
                else:
                    yield row[0], row[1], times[0], times[1]
    except UnicodeDecodeError as error:
        fail(f"{io_csv}: not text (UTF-8) at byte {error.start}: not an ssdlab io.csv")
    except csv.Error as error:
        fail(f"{io_csv}: not an ssdlab io.csv: {error}")


def read_series(io_csv, wanted):
    """Run 0's response times of each wanted experiment, in I/O order."""
    series = {name: [] for name in wanted}
    for experiment, run, submit, rt in io_rows(io_csv):
        if run == "0" and experiment in series:
            series[experiment].append((submit, rt))
    # Submission order: with several processes, completions interleave.
    return {name: [rt for _, rt in sorted(rows)] for name, rows in series.items()}


def read_response_times(io_csv, wanted=None):
    """Response times (us) of every run of each wanted experiment (all if None)."""
    times = {}
    for experiment, _, _, rt in io_rows(io_csv):
        if wanted is None or experiment in wanted:
            times.setdefault(experiment, []).append(rt)
    return times


def plot_series(axes, name, rts, startup):
    x = range(len(rts))
    ms = [max(rt, 1e-3) / 1000 for rt in rts]
    axes.plot(x, ms, ".", markersize=2, label="rt")
    axes.plot(x, [a / 1000 for a in running_average(rts)], "--", label="Avg(rt)")
    if startup:
        tail = running_average(rts[startup:])
        axes.plot(range(startup, len(rts)), [a / 1000 for a in tail], "-",
                  label=f"Avg(rt) after start-up ({startup} I/Os)")
        axes.axvline(startup, color="grey", linewidth=0.8)
    set_value_scale(axes, ms)
    axes.set_title(name, fontsize=SMALL + 1)
    axes.set_xlabel("I/O number")
    axes.set_ylabel("Response time (ms)")
    axes.legend()


def startup_of(experiment):
    runs = experiment.get("runs", [])
    return runs[0].get("startup_ios", 0) if runs else 0


def representative(table, experiments_by_column):
    """The experiment per column at the middle parameter value."""
    rows = table["rows"]
    value = rows[len(rows) // 2]["value"] if rows else None
    chosen = {}
    for column, experiments in experiments_by_column.items():
        for experiment in experiments:
            if experiment["value"] == value:
                chosen[column] = experiment
        if column not in chosen and experiments:
            chosen[column] = experiments[0]
    return chosen


def label_parameter(axes, parameter, values):
    name, unit = PARAMETERS.get(parameter, (parameter, None))
    numeric = [v for v in values if v > 0]
    if numeric and len(numeric) == len(values) and max(numeric) / min(numeric) >= 16:
        axes.set_xscale("log", base=2)
    if unit == "bytes":
        axes.xaxis.set_major_formatter(FuncFormatter(format_bytes))
        axes.set_xlabel(f"{name} ({parameter})")
    else:
        axes.set_xlabel(f"{name} ({unit})" if unit else name)


def plot_benchmark(path, table, subject):
    fig, axes = figure(figsize=(7, 4.5))
    values = [float(row["value"]) for row in table["rows"]]
    all_ms = []
    for column in table["columns"]:
        points = [(float(r["value"]), r["mean_us"][column] / 1000) for r in table["rows"]
                  if column in r["mean_us"]]
        all_ms += [p[1] for p in points]
        axes.plot([p[0] for p in points], [p[1] for p in points], "o-", markersize=4,
                  label=column)
    label_parameter(axes, table["parameter"], values)
    set_value_scale(axes, all_ms)
    axes.set_ylabel("Mean response time (ms)")
    axes.set_title(f"uFLIP {table['name']}: {subject}")
    axes.legend()
    axes.grid(True, which="both", linewidth=0.3)
    save(fig, path)


def plot_cdfs(path, title, times):
    fig, axes = figure(figsize=(7, 4.5))
    everything = []
    for name, values in times.items():
        if not values:
            continue
        values = sorted(values)
        n = len(values)
        ms = [max(v, 1e-3) / 1000 for v in values]
        everything += [ms[0], ms[-1]]
        axes.plot(ms, [(i + 1) / n for i in range(n)], drawstyle="steps-post", label=name)
    set_value_scale(axes, everything, axis="x")
    axes.set_xlabel("Response time (ms)")
    axes.set_ylabel("Fraction of I/Os")
    axes.set_ylim(0, 1.01)
    axes.set_title(title)
    axes.grid(True, which="both", linewidth=0.3)
    if len(times) <= 12:
        axes.legend()
    save(fig, path)


def experiment_names_axis(axes, names):
    axes.set_xticks(range(len(names)))
    if len(names) <= 40:
        axes.set_xticklabels(names, rotation=45 if len(names) > 3 else 0,
                             ha="right" if len(names) > 3 else "center")
    else:
        axes.set_xticklabels([])
        axes.set_xlabel(f"{len(names)} experiments")


def mean_write_amplification(experiment, key="write_amplification"):
    """The mean over the runs that wrote of their device block's `key`: the
    device's write amplification, or with a host log
    "end_to_end_write_amplification" or "host_log_write_amplification"."""
    was = [run["device"][key] for run in experiment.get("runs", [])
           if run.get("device", {}).get(key) is not None
           and run["device"].get("host_pages_written", 0) > 0]
    return sum(was) / len(was) if was else None


def grouped_bars(axes, series, width):
    """One group of bars at each x position 0, 1, ...: each (label, values)
    of `series` a bar `width` wide, the group centred on its position."""
    for index, (label, values) in enumerate(series):
        offset = (index - (len(series) - 1) / 2) * width
        axes.bar([i + offset for i in range(len(values))], values, width=width, label=label)


def read_write_throughput(io_csv, wanted, points=100):
    """Run 0's write throughput of each wanted experiment against the data it
    had written: (GB written, MB/s) at `points` steps of its written bytes,
    each step's bytes over the time its writes took to complete (GB and MB:
    10^9 and 10^6 bytes). Experiments without writes are left out."""
    writes = {}
    for experiment, run, submit, rt, mode, size in io_rows(io_csv, with_mode_and_size=True):
        if run == "0" and mode == "W" and experiment in wanted:
            writes.setdefault(experiment, []).append((submit + rt, size))
    curves = {}
    for experiment, done in writes.items():
        done.sort()
        total = sum(size for _, size in done)
        step = max(1, total // points)
        curve, written, since, start = [], 0, 0, 0.0
        for at, size in done:
            written += size
            since += size
            if since >= step:
                if at > start:
                    curve.append((written / 1e9, since / (at - start)))  # bytes/us = MB/s
                since, start = 0, at
        if curve:
            curves[experiment] = curve
    return curves


def plot_throughput_by_written(path, curves, subject):
    """Write throughput against the data written (the figure a review of an
    SLC cache shows first: the speed falls where the cache is full)."""
    if not curves:
        return False
    fig, axes = figure(figsize=(8, 4.5))
    for name, curve in curves.items():
        axes.plot([gb for gb, _ in curve], [mbps for _, mbps in curve], "-", label=name)
    axes.set_xlabel("Data written in the run (GB)")
    axes.set_ylabel("Write throughput (MB/s)")
    axes.set_ylim(bottom=0)
    axes.set_title(f"Write throughput against data written: {subject}")
    if len(curves) > 1:
        axes.legend(fontsize="small")
    save(fig, path)
    return True


def plot_slc_cache(path, summary):
    """The SLC cache's blocks in use against the host data written (a sample
    every 1% of the logical capacity, from preconditioning on): on a drive
    filled from empty, how much of its data the cache held by fill."""
    cache = summary.get("slc_cache")
    if not cache or not cache.get("size_blocks"):
        return False
    unit = summary.get("config", {}).get("ftl", {}).get("logical_page_size", 4096)
    capacity = summary.get("logical_bytes") or 1
    per_block = cache.get("pages_per_block", 0) * unit
    written = [100 * pages * unit / capacity for pages in cache["size_host_pages"]]
    size = [blocks * per_block / 2**30 for blocks in cache["size_blocks"]]
    fig, axes = figure(figsize=(8, 4.5))
    axes.plot(written, size, "-", label="SLC cache")
    if cache.get("static_blocks"):
        axes.axhline(cache["static_blocks"] * per_block / 2**30, color="grey", linestyle="--",
                     linewidth=0.8, label="its static part")
    axes.set_xlabel("Host data written, % of the logical capacity (the fill, while first filled)")
    axes.set_ylabel("SLC cache in use (GiB of host data)")
    axes.set_ylim(bottom=0)
    axes.set_title(f"SLC cache in use ({cache.get('mode', '')}): {describe(summary)}")
    axes.legend(fontsize="small")
    save(fig, path)
    return True


def plot_reads_by_page_type(path, summary):
    """On cells of several bits: each experiment's reads (run 0) by the page
    type they waited for in the array (summary.json's
    read_latency_by_page_type): mean response time as bars, p99 as dots,
    the reads of each type on the bar."""
    series = []
    for experiment in summary.get("experiments", []):
        runs = experiment.get("runs") or [{}]
        by_type = runs[0].get("read_latency_by_page_type")
        if by_type:
            series.append((experiment["name"], {t["page_type"]: t for t in by_type}))
    if not series:
        return False
    order = ["lower", "middle", "upper", "top", "slc"]
    types = [t for t in order if any(t in by_type for _, by_type in series)]
    series = series[:MAX_SERIES_FIGURES]
    fig, axes = figure(figsize=(max(6.0, 1.6 * len(types) * len(series) + 2), 4.5))
    width = 0.8 / len(series)
    for index, (name, by_type) in enumerate(series):
        offset = (index - (len(series) - 1) / 2) * width
        xs = [i + offset for i, t in enumerate(types) if t in by_type]
        present = [t for t in types if t in by_type]
        bars = axes.bar(xs, [by_type[t]["mean_us"] for t in present], width=width,
                        label=f"{name}: mean")
        axes.bar_label(bars, labels=[f"{by_type[t]['reads']:,}" for t in present],
                       fontsize="x-small", padding=2)
        axes.plot(xs, [by_type[t]["p99_us"] for t in present], "o", color="black",
                  markersize=4, label=f"{name}: p99" if index == 0 else None)
    axes.set_xticks(range(len(types)))
    axes.set_xticklabels(["SLC mode" if t == "slc" else t for t in types])
    axes.set_xlabel("Page type of the slowest page the read waited for (reads on each bar)")
    axes.set_ylabel("Read response time (us)")
    axes.set_ylim(bottom=0)
    axes.set_title(f"Read latency by page type: {describe(summary)}")
    axes.legend(fontsize="small")
    save(fig, path)
    return True


IO_DETAIL_PARTS = [  # (column, label, colour): the stages, then the flash part's split
    ("host_queue_us", "host queue", "#c7c7c7"),
    ("to_flash_us", "to the flash (link, firmware)", "#9edae5"),
    ("array_us", "array", "#1f77b4"),
    ("bus_us", "bus", "#aec7e8"),
    ("behind_tenant_us", "behind another tenant", "#d62728"),
    ("behind_io_us", "behind its own I/Os", "#ff9896"),
    ("behind_cleaning_us", "behind cleaning", "#ff7f0e"),
    ("behind_fold_us", "behind SLC folding", "#ffbb78"),
    ("other_us", "other (controller, stages)", "#7f7f7f"),
    ("from_flash_us", "back to the host", "#dbdb8d"),
]


def io_detail_means(path):
    """Each experiment's (run 0's) mean of every io_detail.csv part, and its
    read and write counts: {experiment: {column: mean us}}, in file order."""
    sums, counts = {}, {}
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            if row["run"] != "0":
                continue
            name = row["experiment"]
            total = sums.setdefault(name, {column: 0.0 for column, _, _ in IO_DETAIL_PARTS})
            for column, _, _ in IO_DETAIL_PARTS:
                total[column] += float(row[column])
            counts[name] = counts.get(name, 0) + 1
    return {name: {c: v / counts[name] for c, v in total.items()} for name, total in sums.items()}


def plot_io_detail(path, io_detail, subject):
    """--io-detail: each experiment's mean response time split into where it
    went (io_detail.csv), one stacked bar each."""
    if not os.path.isfile(io_detail):
        return False
    means = io_detail_means(io_detail)
    if not means:
        return False
    names = list(means)[:MAX_SERIES_FIGURES]
    fig, axes = figure(figsize=(9, 1.2 + 0.6 * len(names)))
    left = [0.0] * len(names)
    for column, label, colour in IO_DETAIL_PARTS:
        widths = [means[name][column] for name in names]
        if not any(widths):
            continue
        axes.barh(names, widths, left=left, color=colour, label=label)
        left = [a + b for a, b in zip(left, widths)]
    axes.invert_yaxis()
    axes.set_xlabel("Mean response time (us), by where it went")
    axes.set_title(f"Where the response time went (--io-detail): {subject}")
    axes.legend(fontsize="small", loc="upper left", bbox_to_anchor=(1.01, 1.0))
    save(fig, path)
    return True


def plot_write_amplification(path, summary):
    """Bars of each experiment's write amplification (mean of its runs): the
    device's, and over a host log the end-to-end one beside it."""
    names, values, end_to_end = [], [], []
    for experiment in summary.get("experiments", []):
        wa = mean_write_amplification(experiment)
        if wa is not None:
            names.append(experiment["name"])
            values.append(wa)
            end_to_end.append(mean_write_amplification(experiment,
                                                       "end_to_end_write_amplification"))
    if not values:
        return False
    fig, axes = figure(figsize=(min(14, 5 + 0.3 * len(names)), 4.5))
    if any(value is not None for value in end_to_end):
        # A zoned drive under a host log: its own WA is 1.00; the log's
        # cleaning is the rest (preconditioning excluded: the runs' counters).
        grouped_bars(axes, [("device", values),
                            ("end to end (host log x device)", [v or 0 for v in end_to_end])],
                     0.4)
    else:
        axes.bar(range(len(names)), values, width=0.7, label="experiment")
    device = summary.get("device", {}).get("write_amplification")
    if device:
        axes.axhline(device, color="grey", linestyle="--", linewidth=0.8,
                     label=f"device, all writes ({device:.2f})")
    axes.axhline(1, color="black", linewidth=0.5)
    experiment_names_axis(axes, names)
    axes.set_ylabel("Flash pages / host pages written")
    axes.set_title(f"Write amplification: {describe(summary)}")
    axes.legend()
    save(fig, path)
    return True


def plot_wear(path, summary):
    """Blocks by erase count, in the fixed buckets of wear.remaining_life_buckets."""
    wear = summary.get("wear", {})
    buckets = wear.get("remaining_life_buckets")
    if not buckets:
        return False
    edges, blocks = buckets["erases_from"], buckets["blocks"]
    rated = buckets["rated_cycles"]
    labels = []
    for i, low in enumerate(edges):
        high = edges[i + 1] - 1 if i + 1 < len(edges) else None
        labels.append(f">={low}" if high is None else str(low) if high == low else f"{low}-{high}")
    fig, axes = figure(figsize=(8, 4.5))
    axes.bar(range(len(blocks)), blocks, width=0.8)
    axes.set_xticks(range(len(blocks)))
    axes.set_xticklabels(labels, rotation=60, ha="right")
    axes.set_xlabel(f"Erases per block (rated {rated}; >={rated}: expired)")
    axes.set_ylabel("Blocks")
    axes.set_title(f"Wear: {describe(summary)}\nremaining life mean "
                   f"{wear.get('remaining_life_mean', 0):.1f}, min "
                   f"{wear.get('remaining_life_min', 0)}")
    save(fig, path)
    return True


def plot_tenants(path, summary):
    """A run of tenants: each tenant's mean and p99 response time, shared
    and (with --fairness) alone, and its slowdown."""
    tenants = summary.get("tenants")
    if not tenants:
        return False
    names = [t["name"] for t in tenants]
    fairness = summary.get("fairness")
    panels = 2 if fairness else 1
    fig, grid = figure(1, panels, figsize=(6.5 * panels, 5.5), squeeze=False)
    axes = grid[0][0]
    bars = [("mean_us", "mean, shared"), ("p99_us", "p99, shared")]
    if fairness:
        bars += [("alone_mean_us", "mean, alone"), ("alone_p99_us", "p99, alone")]
    grouped_bars(axes, [(label, [t.get(key, 0) for t in tenants]) for key, label in bars], 0.2)
    axes.set_xticks(range(len(names)))
    axes.set_xticklabels(names, rotation=30, ha="right")
    axes.set_ylabel("Response time (us)")
    axes.set_yscale("log")
    axes.legend(loc="upper center", bbox_to_anchor=(0.5, -0.22), ncol=2, fontsize="small")
    axes.set_title("Response times by tenant")
    if fairness:
        axes = grid[0][1]
        # Over each tenant's whole run, and while every tenant ran (FLIN's).
        slowdowns = [("mean, whole run", [t.get("slowdown_mean", 1) for t in tenants]),
                     ("p99, whole run", [t.get("slowdown_p99", 1) for t in tenants])]
        if all(t.get("contended") for t in tenants):
            slowdowns += [(f"{kind}, while all ran", [t["contended"].get(key, 1) for t in tenants])
                          for kind, key in (("mean", "slowdown_mean"), ("p99", "slowdown_p99"))]
        grouped_bars(axes, slowdowns, 0.8 / len(slowdowns))
        axes.axhline(1.0, color="black", linewidth=0.8)
        axes.set_xticks(range(len(names)))
        axes.set_xticklabels(names, rotation=30, ha="right")
        axes.set_ylabel("Slowdown (shared / alone)")
        axes.legend(loc="upper center", bbox_to_anchor=(0.5, -0.22), ncol=2, fontsize="small")
        title = (f"Fairness index (whole runs): mean {fairness['index_mean']:.3f}, "
                 f"p99 {fairness['index_p99']:.3f}")
        if "contended_index_mean" in fairness:
            title += (f"\nwhile all ran (FLIN's): mean {fairness['contended_index_mean']:.3f}, "
                      f"p99 {fairness['contended_index_p99']:.3f}")
        axes.set_title(title)
    fig.suptitle(f"Tenants: {describe(summary)}")
    save(fig, path)
    return True


def plot_outdir(outdir, plotdir, fmt):
    """The figures of one output folder; returns the files written."""
    summary = load_summary(outdir)
    subject = describe(summary)
    io_csv = os.path.join(outdir, "io.csv")
    has_io = os.path.isfile(io_csv)
    os.makedirs(plotdir, exist_ok=True)
    written = []
    experiments = summary.get("experiments", [])
    tables = summary.get("benchmarks", [])

    wanted = {}  # figure file -> [(panel title, experiment)]
    for table in tables:
        path = os.path.join(plotdir, f"{table['name']}.{fmt}")
        plot_benchmark(path, table, subject)
        written.append(path)
        by_column = {}
        for experiment in experiments:
            if experiment.get("benchmark") == table["name"]:
                by_column.setdefault(experiment["column"], []).append(experiment)
        chosen = representative(table, by_column)
        wanted[f"{table['name']}-series.{fmt}"] = [
            (experiment["name"], experiment) for column, experiment in
            sorted(chosen.items(), key=lambda item: table["columns"].index(item[0]))]
    if not tables:
        for experiment in experiments[:MAX_SERIES_FIGURES]:
            wanted[f"{safe_name(experiment['name'])}.{fmt}"] = [(experiment["name"], experiment)]

    # Response-time CDFs: per benchmark its representative experiments, else
    # every experiment (up to MAX_SERIES_FIGURES) in one figure.
    cdfs = {}  # figure file -> (title, [experiment names])
    for filename, panels in wanted.items():
        if filename.endswith(f"-series.{fmt}"):
            benchmark = filename[:-len(f"-series.{fmt}")]
            cdfs[f"{benchmark}-cdf.{fmt}"] = (f"uFLIP {benchmark}, response-time CDF: {subject}",
                                              [e["name"] for _, e in panels])
    if not tables and experiments:
        cdfs[f"cdf.{fmt}"] = (f"Response-time CDF: {subject}",
                              [e["name"] for e in experiments[:MAX_SERIES_FIGURES]])
    if cdfs and has_io:
        times = read_response_times(io_csv, {n for _, names in cdfs.values() for n in names})
        for filename, (title, names) in cdfs.items():
            path = os.path.join(plotdir, filename)
            plot_cdfs(path, title, {name: times.get(name, []) for name in names})
            written.append(path)
    path = os.path.join(plotdir, f"write-amplification.{fmt}")
    if plot_write_amplification(path, summary):
        written.append(path)
    path = os.path.join(plotdir, f"wear.{fmt}")
    if plot_wear(path, summary):
        written.append(path)
    path = os.path.join(plotdir, f"tenants.{fmt}")
    if plot_tenants(path, summary):
        written.append(path)
    path = os.path.join(plotdir, f"slc-cache.{fmt}")
    if plot_slc_cache(path, summary):
        written.append(path)
    path = os.path.join(plotdir, f"reads-by-page-type.{fmt}")
    if plot_reads_by_page_type(path, summary):
        written.append(path)
    path = os.path.join(plotdir, f"io-detail.{fmt}")
    if plot_io_detail(path, os.path.join(outdir, "io_detail.csv"), subject):
        written.append(path)
    if has_io and not tables and experiments:
        names = {e["name"] for e in experiments[:MAX_SERIES_FIGURES]}
        path = os.path.join(plotdir, f"throughput.{fmt}")
        if plot_throughput_by_written(path, read_write_throughput(io_csv, names), subject):
            written.append(path)

    if wanted and has_io:
        series = read_series(io_csv, {e["name"] for panels in wanted.values() for _, e in panels})
        for filename, panels in wanted.items():
            columns = min(2, len(panels))
            rows = math.ceil(len(panels) / columns)
            fig, grid = figure(rows, columns, figsize=(6.5 * columns, 3.8 * rows + 0.5),
                               squeeze=False)
            for index, (title, experiment) in enumerate(panels):
                plot_series(grid[index // columns][index % columns], title,
                            series[experiment["name"]], startup_of(experiment))
            for index in range(len(panels), rows * columns):
                grid[index // columns][index % columns].axis("off")
            fig.suptitle(f"Response time by I/O: {subject}")
            path = os.path.join(plotdir, filename)
            save(fig, path)
            written.append(path)
    elif wanted:
        sys.stderr.write(f"ssdlab: {io_csv} is missing (--no-io-log?): "
                         "no response-time series plotted\n")
    if not written:
        fail(f"{outdir}: nothing to plot")
    return written


# ---- Several runs ----------------------------------------------------------
#
# Runs are labelled by what differs between them (FTL, config, each swept
# key, workload, seed), the rest going to the title. Runs that differ only
# by their seed are one variant: drawn as the mean over the seeds, with the
# spread (minimum to maximum) as error bars or a band. One colour per FTL,
# a marker and line style per variant of that FTL; one legend, beside the
# axes; one panel per workload; figures at most MAX_INCHES (1760 x 2200 px).

FTL_COLOURS = {"page-mapped": "#1f77b4", "dftl": "#ff7f0e", "bast": "#2ca02c",
               "fast": "#d62728", "block-mapped": "#9467bd", "example": "#8c564b"}
OTHER_COLOURS = ["#e377c2", "#17becf", "#bcbd22", "#7f7f7f"]
# Further variants of one FTL: colours no FTL has.
VARIANT_COLOURS = ["#17becf", "#bcbd22", "#e377c2", "#7f7f7f", "#aec7e8", "#ffbb78", "#98df8a",
                   "#c5b0d5"]
MARKERS = "os^Dv<>p"
LINESTYLES = ["-", "--", ":", "-."]
HATCHES = [None, "//", "..", "xx", "\\\\", "++"]
MAX_INCHES = (16.0, 20.0)
MAX_PANELS = 12  # workloads shown; the title says how many more there are


class RunInfo:
    """One run of several: unpacks as (outdir, summary, label); `variant`
    (what differs but the workload and seed), `workload`, `seed`, `ftl`."""

    def __init__(self, outdir, summary, job):
        self.outdir, self.summary = outdir, summary
        self.ftl = subject_of(summary)[0]
        self.config = subject_of(summary)[1]
        self.sets = {}
        for text in job.get("sets", []):
            key, _, value = str(text).partition("=")
            if key.strip() != "ftl.type":  # the FTL is its own part
                self.sets[key.strip()] = value.strip().strip('"')
        self.echo = config_echo(summary)
        self.workload = short_workload(job.get("workload") or summary.get("workload") or "?")
        self.seed = job.get("seed", summary.get("seed"))
        self.variant = self.label = ""

    def __iter__(self):
        return iter((self.outdir, self.summary, self.label))


# Config keys a label does not name: the FTL and the config's name are parts
# of their own; the capacity is derived from the others.
UNLABELLED_KEYS = ("source", "name", "capacity", "ftl.type")


def config_echo(summary):
    """summary.json's config as {'section.key': value text}, tables and lists
    as JSON, without UNLABELLED_KEYS."""
    flat = {}

    def walk(node, prefix):
        for key, value in node.items():
            name = prefix + str(key)
            if name in UNLABELLED_KEYS:
                continue
            if isinstance(value, dict):
                walk(value, name + ".")
            else:
                flat[name] = json.dumps(value) if isinstance(value, list) else str(value)
    config = summary.get("config", {})
    if isinstance(config, dict):
        walk(config, "")
    return flat


def echo_keys(runs):
    """Keys of the config that differ between runs of one FTL on one config
    file (an FDP run beside a plain one, a cache on and off: the --set keys
    of plain output folders), in first-seen order. A part echoes its keys
    only when on: of the keys some runs lack, one per section names the part
    (its shortest, e.g. ftl.placement of FDP's ftl.fdp_* and ftl.placement)."""
    groups = {}
    for run in runs:
        groups.setdefault((run.ftl, run.config), []).append(run)
    keys = []
    for group in groups.values():
        named = set()  # sections named by a key some runs lack
        for run in group:
            for key in run.echo:
                if key in keys or not differing(r.echo.get(key, "") for r in group):
                    continue
                if all(key in r.echo for r in group):
                    keys.append(key)
                    continue
                section = key.rsplit(".", 1)[0]
                lacking = [k for r in group for k in r.echo if k.rsplit(".", 1)[0] == section
                           and not all(k in other.echo for other in group)]
                if section not in named and key == min(lacking, key=len):
                    named.add(section)
                    keys.append(key)
    return keys


def subject_of(summary):
    """(FTL, config) of a summary; a probe's (target kind, file name)."""
    target = summary.get("target")
    if isinstance(target, dict) and "ftl" not in summary.get("config", {}):
        return (str(target.get("kind", "target")),
                os.path.basename(str(target.get("path", "?"))) or "?")
    return tuple(describe(summary).split(" on ", 1))


def short_workload(text):
    """A workload as a label: trace:/a/b/hm0.csv,speed=200 -> hm0.csv,speed=200."""
    text = str(text)
    if text.startswith("trace:"):
        path, comma, keys = text[6:].partition(",")
        return os.path.basename(path) + comma + keys
    parts = [os.path.basename(p) if p.endswith(".toml") else p for p in text.split(" + ")]
    return " + ".join(parts)


def sweep_jobs(folder):
    """The job folders of a sweep folder with their jobs.json entries
    (sets, workload, seed), or None if `folder` is not a sweep folder."""
    if not os.path.isfile(os.path.join(folder, "sweep.csv")) and \
            not os.path.isfile(os.path.join(folder, "jobs.json")):
        return None
    listed = None  # only the jobs the sweep lists: not an earlier sweep's job-*
    try:
        with open(os.path.join(folder, "jobs.json")) as f:
            listed = [job for job in json.load(f)["jobs"] if isinstance(job, dict)]
    except (OSError, ValueError, KeyError, TypeError):
        pass
    if listed is None:
        listed = []
        try:
            with open(os.path.join(folder, "sweep.csv"), newline="") as f:
                for row in csv.DictReader(f):
                    job = {"dir": f"job-{int(row['job']):05d}", "sets": row.get("sets", "").split()}
                    if job not in listed:
                        listed.append(job)
        except (OSError, KeyError, ValueError):
            pass
    jobs = []
    for job in listed:
        name = str(job.get("dir", ""))
        path = os.path.join(folder, name)
        if name.startswith("job-") and "/" not in name and \
                os.path.isfile(os.path.join(path, "summary.json")):
            jobs.append((path, job))
    if not jobs:
        fail(f"{folder}: a sweep folder without finished jobs (job-*/summary.json)")
    return jobs


def differing(values):
    return len(set(map(str, values))) > 1


def collect_runs(folders):
    """[RunInfo] of output folders and sweep folders, each labelled by what
    differs between them."""
    runs = []
    for folder in folders:
        if not os.path.isdir(folder):
            fail(f"{folder}: no such output folder")
        jobs = sweep_jobs(folder)
        if jobs is None:
            runs.append(RunInfo(folder, load_summary(folder), {}))
        else:
            runs += [RunInfo(path, load_summary(path), job) for path, job in jobs]
    keys = []
    for run in runs:
        keys += [key for key in run.sets if key not in keys]
    if not keys:  # output folders, not a sweep's jobs: what their configs say
        keys = echo_keys(runs)
        for run in runs:
            run.sets = {key: run.echo[key] for key in keys if key in run.echo}
    short = {key: key.rsplit(".", 1)[-1] for key in keys}
    if len(set(short.values())) < len(short):
        short = {key: key for key in keys}
    for run in runs:
        parts = []
        if differing(r.ftl for r in runs):
            parts.append(run.ftl)
        if differing(r.config for r in runs):
            parts.append(run.config)
        for key in keys:
            if differing(r.sets.get(key, "") for r in runs) and key in run.sets:
                parts.append(f"{short[key]}={run.sets[key]}")
        run.variant = ", ".join(parts) or f"{run.ftl} on {run.config}"
    several_workloads = differing(r.workload for r in runs)
    several_seeds = differing(r.seed for r in runs)
    for run in runs:
        run.label = run.variant + (f", {run.workload}" if several_workloads else "") + \
            (f", seed {run.seed}" if several_seeds else "")
    labels = [run.label for run in runs]
    for run in runs:
        if labels.count(run.label) > 1 and not several_seeds:
            run.label += f", {os.path.basename(os.path.normpath(run.outdir))}"
    return runs


def variants(runs):
    """The variants in first-seen order, and a style for each: one colour
    per FTL, its further variants each a colour of their own (an FDP run is
    not drawn in plain page-mapping's), and a marker, line style and hatch
    per variant of that FTL."""
    order = []
    for run in runs:
        if run.variant not in order:
            order.append(run.variant)
    ftl_of = {run.variant: run.ftl for run in runs}
    styles, per_ftl, others, extra = {}, {}, {}, 0
    for variant in order:
        ftl = ftl_of[variant]
        if ftl not in FTL_COLOURS and ftl not in others:
            others[ftl] = OTHER_COLOURS[len(others) % len(OTHER_COLOURS)]
        index = per_ftl.get(ftl, 0)
        per_ftl[ftl] = index + 1
        colour = FTL_COLOURS.get(ftl, others.get(ftl))
        if index > 0:
            colour = VARIANT_COLOURS[extra % len(VARIANT_COLOURS)]
            extra += 1
        styles[variant] = {"color": colour,
                           "marker": MARKERS[index % len(MARKERS)],
                           "linestyle": LINESTYLES[index % len(LINESTYLES)],
                           "hatch": HATCHES[index % len(HATCHES)]}
    return order, styles


def workloads_of(runs):
    order = []
    for run in runs:
        if run.workload not in order:
            order.append(run.workload)
    return order


def spread(values):
    """(mean, mean - min, max - mean) of a list of numbers."""
    mean = sum(values) / len(values)
    return mean, mean - min(values), max(values) - mean


def common_title(runs):
    """'36 runs: 6 variants x 3 workloads x 2 seeds, FTL ... on config'."""
    counts = [f"{len(variants(runs)[0])} variants"]
    if differing(r.workload for r in runs):
        counts.append(f"{len(workloads_of(runs))} workloads")
    if differing(r.seed for r in runs):
        counts.append(f"{len({str(r.seed) for r in runs})} seeds (mean, min-max)")
    common = []
    if not differing(r.ftl for r in runs):
        common.append(runs[0].ftl)
    if not differing(r.config for r in runs):
        common.append(f"on {runs[0].config}")
    if not differing(r.workload for r in runs):
        common.append(runs[0].workload)
    return f"{len(runs)} runs: {' x '.join(counts)}" + (f"; {' '.join(common)}" if common else "")


def runs_figure(panels, columns, panel_size, labels):
    """A figure of `panels` axes in `columns` columns, and a column beside
    them for the legend (sized to the longest label); at most MAX_INCHES."""
    columns = max(1, min(columns, panels))
    rows = math.ceil(panels / columns)
    legend = min(5.5, 0.9 + 0.075 * max([len(text) for text in labels] + [10]))
    width = min(MAX_INCHES[0], panel_size[0] * columns + legend)
    height = min(MAX_INCHES[1], panel_size[1] * rows + 0.9)
    fig = plt.figure(figsize=(width, height), layout="constrained")
    panel = (width - legend) / columns
    grid = fig.add_gridspec(rows, columns + 1, width_ratios=[panel] * columns + [legend])
    axes = [fig.add_subplot(grid[i // columns, i % columns]) for i in range(panels)]
    side = fig.add_subplot(grid[:, columns])
    side.axis("off")
    return fig, axes, side


def put_legend(side, handles, labels):
    side.legend(handles, labels, loc="upper left", frameon=False, borderaxespad=0)


def run_values(run, key):
    """{experiment: mean over its runs of `key`} (key of the run record)."""
    return run_means(run.summary, key)


def run_means(summary, key):
    result = {}
    for experiment in summary.get("experiments", []):
        values = [run[key] for run in experiment.get("runs", []) if key in run]
        if values:
            result[experiment["name"]] = sum(values) / len(values)
    return result


def shown_workloads(runs):
    names = workloads_of(runs)
    return names[:MAX_PANELS], len(names) - min(len(names), MAX_PANELS)


def plot_runs_response(path, runs):
    """Per workload, mean and p99 response time of each variant: bars (one
    experiment) or lines over the experiments, with the seeds' spread."""
    order, styles = variants(runs)
    workloads, more = shown_workloads(runs)
    panels = [(w, key) for w in workloads for key in ("mean_us", "p99_us")]
    if not any(run.summary.get("experiments") for run in runs):
        return False
    fig, axes, side = runs_figure(len(panels), 2, (6.0, 3.4), order)
    handles = {}
    for ax, (workload, key) in zip(axes, panels):
        group = [run for run in runs if run.workload == workload]
        names = []
        for run in group:
            names += [e["name"] for e in run.summary.get("experiments", [])
                      if e["name"] not in names]
        values = []
        for index, variant in enumerate(v for v in order if any(r.variant == v for r in group)):
            per_seed = [run_values(r, key) for r in group if r.variant == variant]
            points = []
            for name in names:
                seen = [v[name] / 1000 for v in per_seed if name in v]
                points.append(spread(seen) if seen else (math.nan, 0, 0))
            values += [p[0] for p in points if p[0] == p[0]]
            style = styles[variant]
            if len(names) == 1:
                mean, low, high = points[0]
                handles[variant] = ax.bar([index], [mean], width=0.7, color=style["color"],
                                          hatch=style["hatch"], edgecolor="white",
                                          yerr=[[low], [high]], capsize=3)
            else:
                xs = range(len(names))
                handles[variant], = ax.plot(xs, [p[0] for p in points], color=style["color"],
                                            marker=style["marker"], linestyle=style["linestyle"],
                                            markersize=4)
                ax.fill_between(xs, [p[0] - p[1] for p in points], [p[0] + p[2] for p in points],
                                color=style["color"], alpha=0.15, linewidth=0)
        if len(names) == 1:
            ax.set_xticks([])
        else:  # at most 10 names, so that they stay legible
            step = math.ceil(len(names) / 10)
            ax.set_xticks(range(0, len(names), step))
            ax.set_xticklabels(names[::step], rotation=30, ha="right")
            ax.set_xlabel(f"{len(names)} experiments" + (f", every {step}th named"
                                                         if step > 1 else ""))
        if len(names) == 1:  # bars start at 0: a log axis would hide the short ones
            ax.set_ylim(0, max(values + [0]) * 1.15 or 1)
        else:
            set_value_scale(ax, values or [1])
        what = "Mean" if key == "mean_us" else "p99"
        ax.set_ylabel(f"{what} response time (ms)")
        ax.set_title(f"{workload}: {what.lower()}" + (f" ({names[0]})" if len(names) == 1 and
                                                       names[0] != workload else ""),
                     fontsize=SMALL + 1)
        ax.grid(True, axis="y", which="both", linewidth=0.3)
    put_legend(side, [handles[v] for v in order if v in handles], [v for v in order if v in handles])
    fig.suptitle(f"Response time, {common_title(runs)}" +
                 (f" ({more} more workloads not shown)" if more else ""))
    save(fig, path)
    return True


def runs_write_amplification(summary):
    """Flash pages over host pages written in the measured runs (not the
    preconditioning), or None if they wrote nothing."""
    host = flash = 0
    for experiment in summary.get("experiments", []):
        for run in experiment.get("runs", []):
            device = run.get("device", {})
            host += device.get("host_pages_written", 0)
            flash += device.get("flash_pages_written", 0)
    return flash / host if host else None


def exported_capacity(summary):
    """The logical capacity the run's device exported (summary.json
    logical_bytes), as text, or None if the summary lacks it."""
    nbytes = summary.get("logical_bytes")
    return format_bytes(nbytes) if isinstance(nbytes, (int, float)) and nbytes > 0 else None


def plot_runs_write_amplification(path, runs):
    """Bars of each variant's write amplification (mean over seeds, their
    spread as error bars), grouped by workload; the legend gives each
    variant's exported capacity, since FTLs and over-provisioning settings
    export different capacities and a lower WA may come from a smaller
    exported space."""
    order, styles = variants(runs)
    workloads, more = shown_workloads(runs)
    bars = []  # (group, variant, mean, low, high)
    for workload in workloads:
        for variant in order:
            was = [runs_write_amplification(r.summary) for r in runs
                   if r.workload == workload and r.variant == variant]
            was = [wa for wa in was if wa]
            if was:
                bars.append((workload, variant) + spread(was))
    if not bars:
        return False
    capacity = {r.variant: exported_capacity(r.summary) for r in runs}
    labels = [v + (f" ({capacity[v]} exported)" if capacity.get(v) else "") for v in order]
    fig, axes, side = runs_figure(1, 1, (min(11.0, 3.0 + 0.32 * len(bars)), 4.5), labels)
    ax = axes[0]
    groups = [w for w in workloads if any(b[0] == w for b in bars)]
    handles, x, ticks = {}, 0, []
    for group in groups:
        first = x
        for _, variant, mean, low, high in (b for b in bars if b[0] == group):
            style = styles[variant]
            handles[variant] = ax.bar([x], [mean], width=0.8, color=style["color"],
                                      hatch=style["hatch"], edgecolor="white",
                                      yerr=[[low], [high]], capsize=2)
            x += 1
        ticks.append(((first + x - 1) / 2, group))
        x += 1  # a gap between workloads
    ax.set_xticks([t for t, _ in ticks])
    ax.set_xticklabels([g for _, g in ticks], rotation=20 if len(ticks) > 3 else 0,
                       ha="right" if len(ticks) > 3 else "center")
    ax.axhline(1, color="black", linewidth=0.5)
    ax.set_ylim(0, max(b[2] + b[4] for b in bars) * 1.15)
    ax.set_ylabel("Flash pages / host pages written")
    ax.grid(True, axis="y", linewidth=0.3)
    shown = [i for i, v in enumerate(order) if v in handles]
    put_legend(side, [handles[order[i]] for i in shown], [labels[i] for i in shown])
    fig.suptitle(f"Write amplification (preconditioning excluded)\n{common_title(runs)}" +
                 (f" ({more} more workloads not shown)" if more else ""))
    save(fig, path)
    return True


def plot_runs_cdf(path, runs):
    """Per workload, the response-time CDF of each variant (its seeds'
    I/Os together); runs without io.csv are left out."""
    order, styles = variants(runs)
    workloads, more = shown_workloads(runs)
    curves = {}  # (workload, variant) -> response times
    for run in runs:
        io_csv = os.path.join(run.outdir, "io.csv")
        if run.workload in workloads and os.path.isfile(io_csv):
            times = curves.setdefault((run.workload, run.variant), [])
            times += [t for ts in read_response_times(io_csv).values() for t in ts]
    if not curves:
        return False
    groups = [w for w in workloads if any(k[0] == w for k in curves)]
    fig, axes, side = runs_figure(len(groups), 2 if len(groups) > 1 else 1, (6.0, 3.6), order)
    handles, drawn = {}, 0
    for ax, group in zip(axes, groups):
        everything = []
        for variant in order:
            values = sorted(curves.get((group, variant), []))
            if not values:
                continue
            ms = [max(v, 1e-3) / 1000 for v in values]
            everything += [ms[0], ms[-1]]
            n = len(ms)
            style = styles[variant]
            handles[variant], = ax.plot(ms, [(i + 1) / n for i in range(n)],
                                        drawstyle="steps-post", color=style["color"],
                                        linestyle=style["linestyle"])
            drawn += 1
        set_value_scale(ax, everything, axis="x")
        ax.set_xlabel("Response time (ms)")
        ax.set_ylabel("Fraction of I/Os")
        ax.set_ylim(0, 1.01)
        ax.set_title(group, fontsize=SMALL + 1)
        ax.grid(True, which="both", linewidth=0.3)
    put_legend(side, [handles[v] for v in order if v in handles], [v for v in order if v in handles])
    fig.suptitle(f"Response-time CDF, {common_title(runs)}" +
                 (f" ({more} more workloads not shown)" if more else ""))
    save(fig, path)
    return drawn  # curves: one per workload and variant


def plot_runs_benchmarks(plotdir, fmt, runs):
    """Per uFLIP benchmark: a panel per pattern, a line per variant (mean
    over seeds, their spread as a band)."""
    written = []
    names = []
    for run in runs:
        for table in run.summary.get("benchmarks", []):
            if table["name"] not in names:
                names.append(table["name"])
    for name in names:
        having = [r for r in runs if any(t["name"] == name for t in r.summary.get("benchmarks", []))]
        order, styles = variants(having)
        tables = {id(r): next(t for t in r.summary["benchmarks"] if t["name"] == name)
                  for r in having}
        columns = []
        for table in tables.values():
            columns += [c for c in table["columns"] if c not in columns]
        fig, axes, side = runs_figure(len(columns), 2, (6.0, 3.6), order)
        handles = {}
        for ax, column in zip(axes, columns):
            xs_all, ys_all = [], []
            for variant in order:
                points = {}
                for run in (r for r in having if r.variant == variant):
                    table = tables[id(run)]
                    for row in table["rows"]:
                        if column in row["mean_us"]:
                            points.setdefault(float(row["value"]), []).append(
                                row["mean_us"][column] / 1000)
                    parameter = table["parameter"]
                if not points:
                    continue
                xs = sorted(points)
                stats = [spread(points[x]) for x in xs]
                style = styles[variant]
                handles[variant], = ax.plot(xs, [s[0] for s in stats], color=style["color"],
                                            marker=style["marker"], linestyle=style["linestyle"],
                                            markersize=4)
                ax.fill_between(xs, [s[0] - s[1] for s in stats], [s[0] + s[2] for s in stats],
                                color=style["color"], alpha=0.15, linewidth=0)
                xs_all += xs
                ys_all += [s[0] for s in stats]
            label_parameter(ax, parameter, xs_all)
            set_value_scale(ax, ys_all or [1])
            ax.set_title(column, fontsize=SMALL + 1)
            ax.set_ylabel("Mean response time (ms)")
            ax.grid(True, which="both", linewidth=0.3)
        put_legend(side, [handles[v] for v in order if v in handles],
                   [v for v in order if v in handles])
        fig.suptitle(f"uFLIP {name}, {common_title(having)}")
        path = os.path.join(plotdir, f"{name}-runs.{fmt}")
        save(fig, path)
        written.append(path)
    return written


def error_age(summary):
    """(retention days, P/E cycles) of a run's aged drive ([errors],
    docs/errors.md), or None without the error model."""
    errors = summary.get("config", {}).get("errors")
    if not isinstance(errors, dict):
        return None
    return (float(errors.get("age_retention_days", 0)), float(errors.get("age_pe_cycles", 0)))


def plot_runs_read_age(path, runs):
    """Runs with flash errors at different ages (--age): read response
    time (mean, p99, p99.9 over the experiments) and retries per read
    against the data's age, or the P/E cycles where only they differ."""
    aged = [(error_age(run.summary), run) for run in runs if error_age(run.summary)]
    if len(set(age for age, _ in aged)) < 2:
        return False
    by_days = len(set(age[0] for age, _ in aged)) > 1
    aged.sort(key=lambda item: item[0] if by_days else item[0][::-1])
    xs = [age[0] if by_days else age[1] for age, _ in aged]
    fig, (latency, retries) = plt.subplots(1, 2, figsize=(11, 4.2))
    values = []
    for key, label, marker in (("mean_us", "mean", "o"), ("p99_us", "p99", "s"),
                               ("p99_9_us", "p99.9", "^")):
        ys = []
        for _, run in aged:
            means = run_means(run.summary, key)
            ys.append(sum(means.values()) / len(means) / 1000 if means else math.nan)
        if all(y != y for y in ys):
            continue
        values += [y for y in ys if y == y]
        latency.plot(xs, ys, marker=marker, label=label)
    set_value_scale(latency, values or [1])
    latency.set_ylabel("Response time (ms)")
    latency.legend(fontsize=SMALL)
    per_read = [run.summary.get("device", {}).get("read_error_retries_per_read", math.nan)
                for _, run in aged]
    retries.plot(xs, per_read, marker="o", color="tab:red")
    retries.set_ylabel("Read retries per page read")
    for ax in (latency, retries):
        ax.set_xlabel("Data age at the start (days)" if by_days else "P/E cycles (age)")
        ax.grid(True, which="both", linewidth=0.3)
    # With the age in days, each point names its P/E cycles (those far
    # enough from the last named, so that the names stay legible).
    named = -math.inf
    for x, y, (age, _) in zip(xs, per_read, aged):
        if by_days and y == y and x - named > 0.08 * (max(xs) - min(xs)):
            retries.annotate(f"{age[1]:g} P/E", (x, y), fontsize=SMALL - 1,
                             textcoords="offset points", xytext=(3, 4))
            named = x
    fig.suptitle(f"Reads by the drive's age, {common_title([run for _, run in aged])}")
    save(fig, path)
    return True


def plot_runs(folders, plotdir, fmt="png"):
    """Figures comparing several runs (output folders, or sweep folders'
    jobs) into `plotdir`; returns the files written."""
    runs = collect_runs(folders)
    os.makedirs(plotdir, exist_ok=True)
    written = []
    for name, draw in (("runs-response-time", plot_runs_response),
                       ("runs-write-amplification", plot_runs_write_amplification),
                       ("runs-cdf", plot_runs_cdf),
                       ("runs-read-age", plot_runs_read_age)):
        path = os.path.join(plotdir, f"{name}.{fmt}")
        if draw(path, runs):
            written.append(path)
    written += plot_runs_benchmarks(plotdir, fmt, runs)
    if not written:
        fail(f"{', '.join(folders)}: nothing to plot")
    return written


# ---- ssdlab compare --plot ---------------------------------------------------

def compare_main(table, path, label_a, label_b):
    try:
        with open(table, newline="") as f:
            rows = [row for row in csv.DictReader(f) if row["experiment"] != "(total)"]
    except OSError as error:
        fail(f"{table}: {error.strerror}")
    if not rows:
        fail(f"{table}: no experiments to plot")
    names = [row["experiment"] for row in rows]
    figures = [("mean", "Mean"), ("p50", "p50"), ("p99", "p99")]
    fig, (bars, scatter) = figure(
        1, 2, figsize=(min(18, 9 + 0.15 * len(rows)), 5.5),
        gridspec_kw={"width_ratios": [min(3, max(1, len(rows) / 8)), 1]})
    x = list(range(len(rows)))
    mean_ratios = [float(row["mean_ratio"] or "nan") for row in rows]
    p99_ratios = [float(row["p99_ratio"] or "nan") for row in rows]
    bars.bar(x, [r - 1 for r in mean_ratios], bottom=1, width=0.7, label="mean B/A")
    bars.plot(x, p99_ratios, "k_", markersize=10, label="p99 B/A")
    bars.axhline(1, color="grey", linewidth=0.8)
    experiment_names_axis(bars, names)
    bars.set_ylabel("B / A")
    bars.set_title(f"A: {label_a}\nB: {label_b}")
    bars.legend()
    low, high = math.inf, 0.0
    for (key, label), marker in zip(figures, "os^"):
        xs = [float(row[f"a_{key}_us"]) / 1000 for row in rows]
        ys = [float(row[f"b_{key}_us"]) / 1000 for row in rows]
        scatter.scatter(xs, ys, marker=marker, s=20, label=label)
        positive = [v for v in xs + ys if v > 0]
        if positive:
            low, high = min(low, min(positive)), max(high, max(positive))
    if high > 0:
        scatter.plot([low, high], [low, high], color="grey", linewidth=0.8, label="B = A")
        if high / low >= 10:
            scatter.set_xscale("log")
            scatter.set_yscale("log")
    scatter.set_xlabel("A (ms)")
    scatter.set_ylabel("B (ms)")
    scatter.legend()
    scatter.grid(True, which="both", linewidth=0.3)
    fig.suptitle("Response times, B against A")
    save(fig, path)
    print(path)


# ---- ssdlab plot TIMELINE.json -----------------------------------------------

# Colours by operation; cleaning work is hatched. Host requests (the
# "Requests" rows) have colours of their own, so that a host WRITE never
# looks like the PROGRAM it causes.
TIMELINE_COLOURS = {"READ": "#4c9be8", "PROGRAM": "#e8834c", "ERASE": "#d62728",
                    "COPYBACK": "#9467bd", "COPY-BACK": "#9467bd", "MOVE": "#8c564b",
                    "DATA IN": "#f2b48a", "DATA OUT": "#9ec9f2", "CMD": "#7f7f7f"}
REQUEST_COLOURS = {"WRITE": "#2ca02c", "READ": "#17becf", "TRIM": "#bcbd22"}
# Every bar has an outline, so that back-to-back operations of one resource
# (a bus moving page after page) show as separate bars, not one long one.
BAR_EDGE = {"edgecolor": "white", "linewidth": 0.8}
CLEANING_EDGE = {"edgecolor": "black", "linewidth": 0.5, "hatch": "////"}


def load_timeline(timeline):
    try:
        with open(timeline) as f:
            trace = json.load(f)
    except OSError as error:
        fail(f"{timeline}: {error.strerror}")
    except json.JSONDecodeError as error:
        fail(f"{timeline}:{error.lineno}: not JSON: {error.msg}")
    return trace.get("traceEvents", trace if isinstance(trace, list) else [])


def timeline_style(event):
    """(legend label, colour, bar keywords) of one trace event."""
    if event.get("cat") == "request":
        name = event["name"]
        return f"host {name}", REQUEST_COLOURS.get(name, "#bcbd22"), BAR_EDGE
    base = event["name"].replace(" [cleaning]", "").replace(" 2-plane", "")
    colour = TIMELINE_COLOURS.get(base, TIMELINE_COLOURS.get(base.split(" ")[0], "#bcbd22"))
    if event.get("cat") == "cleaning":
        return base + " (cleaning)", colour, CLEANING_EDGE
    return base, colour, BAR_EDGE


def draw_timeline(events, low, high, title):
    """The figure of the "X" events overlapping [low, high) simulated us: a row
    per track, a bar per operation; host requests numbered where they fit."""
    spans = [e for e in events if e.get("ph") == "X" and e["ts"] + e["dur"] > low
             and e["ts"] < high]
    if not spans:
        return None
    names, order = {}, {}
    for e in events:
        if e.get("ph") == "M" and e.get("name") == "thread_name":
            names[(e["pid"], e["tid"])] = e["args"]["name"]
        if e.get("ph") == "M" and e.get("name") == "thread_sort_index":
            order[(e["pid"], e["tid"])] = e["args"]["sort_index"]
    used = {(e["pid"], e["tid"]) for e in spans}
    tracks = sorted(names if len(names) <= 40 else used,
                    key=lambda t: (t[0], order.get(t, 0), t[1]))
    row = {track: i for i, track in enumerate(tracks)}
    first = max(low, min(e["ts"] for e in spans))
    last = min(high, max(e["ts"] + e["dur"] for e in spans))
    fig, axes = figure(figsize=(11, 1.2 + 0.3 * len(tracks)), dpi=80)
    seen = set()
    for e in spans:
        track = (e["pid"], e["tid"])
        if track not in row:
            continue
        label, colour, edge = timeline_style(e)
        axes.barh(row[track], max(e["dur"], (last - first) / 2000), left=e["ts"], height=0.7,
                  color=colour, label=None if label in seen else label, **edge)
        seen.add(label)
        io = e.get("args", {}).get("io")
        if e.get("cat") == "request" and io is not None and e["dur"] > (last - first) / 25:
            middle = max(first, e["ts"]) + (min(last, e["ts"] + e["dur"]) - max(first, e["ts"])) / 2
            axes.text(middle, row[track], f"io {io}", ha="center", va="center", fontsize=8)
    axes.set_yticks(range(len(tracks)))
    axes.set_yticklabels([names.get(t, f"{t[0]}/{t[1]}") for t in tracks], fontsize=SMALL)
    axes.invert_yaxis()
    axes.set_xlim(first, last)
    axes.set_xlabel("Simulated time (us)")
    axes.set_title(title)
    axes.grid(True, axis="x", linewidth=0.3)
    axes.legend(loc="center left", bbox_to_anchor=(1.0, 0.5), frameon=False)
    return fig


def timeline_main(timeline, path, start, end):
    low = float(start) if start != "-" else -math.inf
    high = float(end) if end != "-" else math.inf
    window = "" if start == end == "-" else \
        f", {start if start != '-' else 'start'} to {end if end != '-' else 'end'} us"
    fig = draw_timeline(load_timeline(timeline), low, high,
                        f"Flash operations: {os.path.basename(timeline)}{window}")
    if fig is None:
        fail(f"{timeline}: no operations in the window")
    save(fig, path)
    print(path)


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    try:
        if len(argv) == 5 and argv[0] == "--compare":
            compare_main(*argv[1:])
        elif len(argv) == 5 and argv[0] == "--timeline":
            timeline_main(*argv[1:])
        elif len(argv) == 3 and argv[2] in ("png", "svg") and not argv[0].startswith("-"):
            # `ssdlab plot OUTDIR`: one output folder, or a sweep folder.
            outdir, plotdir, fmt = argv
            if sweep_jobs(outdir) is not None:
                written = plot_runs([outdir], plotdir, fmt)
            else:
                written = plot_outdir(outdir, plotdir, fmt)
            print("\n".join(written))
        else:
            import argparse
            parser = argparse.ArgumentParser(
                prog="python3 -m ssdlab.plot",
                description="Figures of one or more ssdlab output folders or sweep folders.")
            parser.add_argument("outdirs", nargs="+", metavar="OUTDIR")
            parser.add_argument("-o", "--plotdir",
                                help="where the figures go (default: OUTDIR/plots of the first)")
            parser.add_argument("--format", default="png", choices=["png", "svg"])
            args = parser.parse_args(argv)
            plotdir = args.plotdir or os.path.join(args.outdirs[0], "plots")
            if len(args.outdirs) == 1 and sweep_jobs(args.outdirs[0]) is None:
                written = plot_outdir(args.outdirs[0], plotdir, args.format)
            else:
                written = plot_runs(args.outdirs, plotdir, args.format)
            print("\n".join(written))
    except PlotError as error:
        sys.stderr.write(f"ssdlab: {error}\n")
        return 1
    except OSError as error:  # a figure that cannot be written: OUTDIR/plots a file, a full disk
        where = error.filename or "plot"
        sys.stderr.write(f"ssdlab: {where}: {error.strerror or error}\n")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
