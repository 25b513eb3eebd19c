"""Plots of an ssdlab output folder (io.csv and summary.json), like the uFLIP
paper's figures (Bouganim et al., CIDR 2009):

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

`ssdlab plot OUTDIR` runs this with Debian's python3 and python3-matplotlib.
Usage: ssdlab_plot.py OUTDIR PLOTDIR FORMAT

`ssdlab compare A B --plot FILE` runs it in its second mode, on the table that
compare writes as CSV: mean, p50 and p99 response time of A and B per
experiment (bars), and B against A (scatter, with the line B = A).
Usage: ssdlab_plot.py --compare TABLE.csv FILE.png|FILE.svg LABEL_A LABEL_B

`ssdlab plot TIMELINE.json` runs it in its timeline mode: a Gantt chart of the
flash operations that `ssdlab sim --timeline` recorded, one row per track.
Usage: ssdlab_plot.py --timeline TIMELINE.json OUTFILE START_US|- END_US|-
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
except ImportError:
    sys.stderr.write("ssdlab: plot needs matplotlib: apt-get install python3-matplotlib\n")
    sys.exit(1)

MAX_SERIES_FIGURES = 24


def fail(message):
    sys.stderr.write("ssdlab: " + message + "\n")
    sys.exit(1)


def safe_name(text):
    return re.sub(r"[^A-Za-z0-9_.=+-]", "_", text)


def running_average(values):
    total, averages = 0.0, []
    for i, value in enumerate(values):
        total += value
        averages.append(total / (i + 1))
    return averages


def read_series(io_csv, wanted):
    """Run 0's response times of each wanted experiment, in I/O order."""
    series = {name: [] for name in wanted}
    with open(io_csv, newline="") as f:
        reader = csv.reader(f)
        header = next(reader, None)
        if header != ["experiment", "run", "process", "io", "submit_us", "rt_us", "mode",
                      "offset", "size"]:
            fail(f"{io_csv}: not an ssdlab io.csv (header {header})")
        for row in reader:
            if row[1] == "0" and row[0] in series:
                series[row[0]].append((float(row[4]), float(row[5])))
    # Submission order: with several processes, completions interleave.
    return {name: [rt for _, rt in sorted(rows)] for name, rows in series.items()}


def plot_series(axes, name, rts, startup):
    x = range(len(rts))
    axes.semilogy(x, [max(rt, 1e-3) / 1000 for rt in rts], ".", markersize=2, label="rt")
    axes.semilogy(x, [a / 1000 for a in running_average(rts)], "--", label="Avg(rt)")
    if startup:
        tail = running_average(rts[startup:])
        axes.semilogy(range(startup, len(rts)), [a / 1000 for a in tail], "-",
                      label=f"Avg(rt) after start-up ({startup} I/Os)")
        axes.axvline(startup, color="grey", linewidth=0.8)
    axes.set_title(name, fontsize=8)
    axes.set_xlabel("IO number")
    axes.set_ylabel("Response time (ms)")
    axes.legend(fontsize=6)


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
    figure, (bars, scatter) = plt.subplots(
        1, 2, figsize=(min(18, 8 + 0.12 * len(rows)), 5),
        gridspec_kw={"width_ratios": [min(3, max(1, len(rows) / 8)), 1]})
    x = list(range(len(rows)))
    mean_ratios = [float(row["mean_ratio"] or "nan") for row in rows]
    p99_ratios = [float(row["p99_ratio"] or "nan") for row in rows]
    bars.bar(x, [r - 1 for r in mean_ratios], bottom=1, width=0.7, label="mean B/A")
    bars.plot(x, p99_ratios, "k_", markersize=8, label="p99 B/A")
    bars.axhline(1, color="grey", linewidth=0.8)
    bars.set_xticks(x)
    if len(rows) <= 60:
        bars.set_xticklabels(names, rotation=60, ha="right", fontsize=6)
    else:
        bars.set_xticklabels([])
        bars.set_xlabel(f"{len(rows)} experiments, in A's order")
    bars.set_ylabel("B / A")
    bars.set_title(f"A: {label_a}   B: {label_b}", fontsize=8)
    bars.legend(fontsize=7)
    low, high = math.inf, 0.0
    for (key, label), marker in zip(figures, "os^"):
        xs = [float(row[f"a_{key}_us"]) / 1000 for row in rows]
        ys = [float(row[f"b_{key}_us"]) / 1000 for row in rows]
        scatter.scatter(xs, ys, marker=marker, s=14, label=label)
        positive = [v for v in xs + ys if v > 0]
        if positive:
            low, high = min(low, min(positive)), max(high, max(positive))
    if high > 0:
        scatter.plot([low, high], [low, high], color="grey", linewidth=0.8, label="B = A")
        scatter.set_xscale("log")
        scatter.set_yscale("log")
    scatter.set_xlabel("A (ms)")
    scatter.set_ylabel("B (ms)")
    scatter.legend(fontsize=7)
    scatter.grid(True, which="both", linewidth=0.3)
    figure.suptitle("Response times, B against A", fontsize=9)
    figure.tight_layout()
    directory = os.path.dirname(path)
    if directory:
        os.makedirs(directory, exist_ok=True)
    figure.savefig(path)
    plt.close(figure)
    print(path)


def read_response_times(io_csv, wanted):
    """Response times (us) of every run of each wanted experiment."""
    times = {name: [] for name in wanted}
    with open(io_csv, newline="") as f:
        reader = csv.reader(f)
        next(reader, None)
        for row in reader:
            if row[0] in times:
                times[row[0]].append(float(row[5]))
    return times


def plot_cdfs(path, title, times):
    figure, axes = plt.subplots(figsize=(6, 4))
    for name, values in times.items():
        if not values:
            continue
        values = sorted(values)
        n = len(values)
        axes.step([max(v, 1e-3) / 1000 for v in values], [(i + 1) / n for i in range(n)],
                  where="post", label=name)
    axes.set_xscale("log")
    axes.set_xlabel("Response time (ms)")
    axes.set_ylabel("Fraction of I/Os")
    axes.set_ylim(0, 1.01)
    axes.set_title(title, fontsize=9)
    axes.grid(True, which="both", linewidth=0.3)
    if len(times) <= 12:
        axes.legend(fontsize=6)
    figure.tight_layout()
    figure.savefig(path)
    plt.close(figure)


def plot_write_amplification(path, summary):
    """Bars of each experiment's write amplification (mean of its runs)."""
    names, values = [], []
    for experiment in summary.get("experiments", []):
        was = [run["device"]["write_amplification"] for run in experiment.get("runs", [])
               if "write_amplification" in run.get("device", {})
               and run["device"].get("host_pages_written", 0) > 0]
        if was:
            names.append(experiment["name"])
            values.append(sum(was) / len(was))
    if not values:
        return False
    figure, axes = plt.subplots(figsize=(min(14, 4 + 0.25 * len(names)), 4))
    axes.bar(range(len(names)), values, width=0.7, label="experiment")
    device = summary.get("device", {}).get("write_amplification")
    if device:
        axes.axhline(device, color="grey", linestyle="--", linewidth=0.8,
                     label=f"device, all writes ({device:.2f})")
    axes.axhline(1, color="black", linewidth=0.5)
    axes.set_xticks(range(len(names)))
    if len(names) <= 60:
        axes.set_xticklabels(names, rotation=60, ha="right", fontsize=6)
    else:
        axes.set_xticklabels([])
        axes.set_xlabel(f"{len(names)} experiments")
    axes.set_ylabel("Flash pages written / host pages written")
    axes.set_title("Write amplification", fontsize=9)
    axes.legend(fontsize=7)
    figure.tight_layout()
    figure.savefig(path)
    plt.close(figure)
    return True


def plot_wear(path, wear):
    """Blocks by erase count, in the fixed buckets of wear.remaining_life_buckets."""
    buckets = wear.get("remaining_life_buckets")
    if not buckets:
        return False
    edges, blocks = buckets["erases_from"], buckets["blocks"]
    rated = buckets["rated_cycles"]
    labels = []
    for i, low in enumerate(edges):
        high = edges[i + 1] - 1 if i + 1 < len(edges) else None
        labels.append(f">={low}" if high is None else str(low) if high == low else f"{low}-{high}")
    figure, axes = plt.subplots(figsize=(7, 3.5))
    axes.bar(range(len(blocks)), blocks, width=0.8)
    axes.set_xticks(range(len(blocks)))
    axes.set_xticklabels(labels, rotation=60, ha="right", fontsize=6)
    axes.set_xlabel(f"Erases (remaining life = {rated} - erases; >={rated}: expired)")
    axes.set_ylabel("Blocks")
    axes.set_title(f"Wear: remaining life mean {wear.get('remaining_life_mean', 0):.1f}, "
                   f"min {wear.get('remaining_life_min', 0)}", fontsize=9)
    figure.tight_layout()
    figure.savefig(path)
    plt.close(figure)
    return True


# Timeline mode: colours by operation; cleaning work is hatched.
TIMELINE_COLOURS = {"READ": "#4c9be8", "PROGRAM": "#e8834c", "ERASE": "#d62728",
                    "COPYBACK": "#9467bd", "COPY-BACK": "#9467bd", "MOVE": "#8c564b",
                    "DATA IN": "#f2b48a", "DATA OUT": "#9ec9f2", "CMD": "#7f7f7f",
                    "WRITE": "#e8834c"}


def timeline_main(timeline, path, start, end):
    try:
        with open(timeline) as f:
            trace = json.load(f)
    except OSError as error:
        fail(f"{timeline}: {error.strerror}")
    except json.JSONDecodeError as error:
        fail(f"{timeline}:{error.lineno}: not JSON: {error.msg}")
    events = trace.get("traceEvents", trace if isinstance(trace, list) else [])
    names, order = {}, {}
    for e in events:
        if e.get("ph") == "M" and e.get("name") == "thread_name":
            names[(e["pid"], e["tid"])] = e["args"]["name"]
        if e.get("ph") == "M" and e.get("name") == "thread_sort_index":
            order[(e["pid"], e["tid"])] = e["args"]["sort_index"]
    low = float(start) if start != "-" else -math.inf
    high = float(end) if end != "-" else math.inf
    spans = [e for e in events if e.get("ph") == "X" and e["ts"] + e["dur"] > low
             and e["ts"] < high]
    if not spans:
        fail(f"{timeline}: no operations in the window")
    used = {(e["pid"], e["tid"]) for e in spans}
    tracks = sorted(names if len(names) <= 40 else used,
                    key=lambda t: (t[0], order.get(t, 0), t[1]))
    row = {track: i for i, track in enumerate(tracks)}
    first = max(low, min(e["ts"] for e in spans))
    last = min(high, max(e["ts"] + e["dur"] for e in spans))
    figure, axes = plt.subplots(figsize=(9, 0.9 + 0.24 * len(tracks)), dpi=80)
    seen = set()
    for e in spans:
        track = (e["pid"], e["tid"])
        if track not in row:
            continue
        base = e["name"].replace(" [cleaning]", "").replace(" 2-plane", "")
        cleaning = e.get("cat") == "cleaning"
        colour = TIMELINE_COLOURS.get(base, "#bcbd22")
        label = base + (" (cleaning)" if cleaning else "")
        axes.barh(row[track], max(e["dur"], (last - first) / 2000), left=e["ts"], height=0.7,
                  color=colour, edgecolor="black" if cleaning else colour, linewidth=0.3,
                  hatch="////" if cleaning else None,
                  label=None if label in seen else label)
        seen.add(label)
    axes.set_yticks(range(len(tracks)))
    axes.set_yticklabels([names.get(t, f"{t[0]}/{t[1]}") for t in tracks], fontsize=7)
    axes.invert_yaxis()
    axes.set_xlim(first, last)
    axes.set_xlabel("Simulated time (us)")
    axes.grid(True, axis="x", linewidth=0.3)
    axes.legend(fontsize=6, loc="center left", bbox_to_anchor=(1.0, 0.5), frameon=False)
    figure.tight_layout()
    directory = os.path.dirname(path)
    if directory:
        os.makedirs(directory, exist_ok=True)
    figure.savefig(path, bbox_inches="tight")
    plt.close(figure)
    print(path)


def main():
    if len(sys.argv) == 6 and sys.argv[1] == "--compare":
        compare_main(*sys.argv[2:])
        return
    if len(sys.argv) == 6 and sys.argv[1] == "--timeline":
        timeline_main(*sys.argv[2:])
        return
    if len(sys.argv) != 4:
        fail("usage: ssdlab_plot.py OUTDIR PLOTDIR FORMAT")
    outdir, plotdir, fmt = sys.argv[1:]
    summary_path = os.path.join(outdir, "summary.json")
    try:
        with open(summary_path) as f:
            summary = json.load(f)
    except OSError as error:
        fail(f"{summary_path}: {error.strerror}")
    except json.JSONDecodeError as error:
        fail(f"{summary_path}:{error.lineno}: not JSON: {error.msg}")
    io_csv = os.path.join(outdir, "io.csv")
    has_io = os.path.isfile(io_csv)
    os.makedirs(plotdir, exist_ok=True)
    written = []
    experiments = summary.get("experiments", [])
    tables = summary.get("benchmarks", [])

    wanted = {}  # figure file -> [(panel title, experiment)]
    for table in tables:
        figure, axes = plt.subplots(figsize=(6, 4))
        parameter = table["parameter"]
        numeric = [float(row["value"]) for row in table["rows"]]
        log_x = min(numeric) > 0 and max(numeric) / min(numeric) >= 16
        for column in table["columns"]:
            points = [(float(r["value"]), r["mean_us"][column] / 1000) for r in table["rows"]
                      if column in r["mean_us"]]
            axes.plot([p[0] for p in points], [p[1] for p in points], "o-", markersize=3,
                      label=column)
        if log_x:
            axes.set_xscale("log", base=2)
        axes.set_yscale("log")
        axes.set_xlabel(parameter)
        axes.set_ylabel("Mean response time (ms)")
        axes.set_title(f"uFLIP {table['name']}")
        axes.legend(fontsize=7)
        axes.grid(True, which="both", linewidth=0.3)
        path = os.path.join(plotdir, f"{table['name']}.{fmt}")
        figure.tight_layout()
        figure.savefig(path)
        plt.close(figure)
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
            cdfs[f"{benchmark}-cdf.{fmt}"] = (f"uFLIP {benchmark}: response time CDF",
                                              [e["name"] for _, e in panels])
    if not tables and experiments:
        cdfs[f"cdf.{fmt}"] = ("Response time CDF",
                              [e["name"] for e in experiments[:MAX_SERIES_FIGURES]])
    if cdfs and has_io:
        times = read_response_times(io_csv, {n for _, names in cdfs.values() for n in names})
        for filename, (title, names) in cdfs.items():
            path = os.path.join(plotdir, filename)
            plot_cdfs(path, title, {name: times[name] for name in names})
            written.append(path)
    path = os.path.join(plotdir, f"write-amplification.{fmt}")
    if plot_write_amplification(path, summary):
        written.append(path)
    path = os.path.join(plotdir, f"wear.{fmt}")
    if plot_wear(path, summary.get("wear", {})):
        written.append(path)

    if wanted and has_io:
        series = read_series(io_csv, {e["name"] for panels in wanted.values() for _, e in panels})
        for filename, panels in wanted.items():
            columns = min(2, len(panels))
            rows = math.ceil(len(panels) / columns)
            figure, grid = plt.subplots(rows, columns, figsize=(6 * columns, 3.5 * rows),
                                        squeeze=False)
            for index, (title, experiment) in enumerate(panels):
                plot_series(grid[index // columns][index % columns], title,
                            series[experiment["name"]], startup_of(experiment))
            for index in range(len(panels), rows * columns):
                grid[index // columns][index % columns].axis("off")
            figure.tight_layout()
            path = os.path.join(plotdir, filename)
            figure.savefig(path)
            plt.close(figure)
            written.append(path)
    elif wanted:
        sys.stderr.write(f"ssdlab: {io_csv} is missing (--no-io-log?): "
                         "no response-time series plotted\n")
    if not written:
        fail(f"{outdir}: nothing to plot")
    for path in written:
        print(path)


if __name__ == "__main__":
    main()
