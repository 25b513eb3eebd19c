"""ssdlab from Python: read the outputs of `ssdlab sim`, `probe` and `sweep`
into pandas, run the simulator, and draw the figures `ssdlab plot` draws.

    import ssdlab
    run = ssdlab.run("configs/tiny.toml", "RW:count=5000", "out/tiny", ftl__type="fast")
    run.runs            # one row per experiment and run: mean_us, p99_us, write_amplification, ...
    ssdlab.read_io("out/tiny")          # io.csv, typed
    ssdlab.read_sweep("out/sweep")      # sweep.csv
    ssdlab.plot.plot_runs(["out/a", "out/b"], "out/plots")

The file formats are described in docs/reference/outputs.md.
"""
import json
import os
import shutil
import subprocess
from dataclasses import dataclass, field


def __getattr__(name):
    # ssdlab.plot (the figures of `ssdlab plot`, which needs matplotlib) is
    # imported on first use, not with the package: `python3 -m ssdlab.plot`
    # then runs it without runpy's "found in sys.modules" warning.
    if name == "plot":
        import importlib
        return importlib.import_module(".plot", __name__)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

__all__ = ["Run", "load_run", "read_io", "read_io_detail", "read_sweep", "run", "find_binary", "SsdlabError"]
__version__ = "0.1.0"

IO_COLUMNS = ["experiment", "run", "process", "io", "submit_us", "rt_us", "mode", "offset",
              "size"]


class SsdlabError(Exception):
    """A missing or malformed output folder, or a failed `ssdlab` run."""


def _pandas():
    try:
        import pandas
    except ImportError as error:  # pragma: no cover - depends on the machine
        raise SsdlabError("ssdlab needs pandas: apt-get install python3-pandas") from error
    return pandas


@dataclass
class Run:
    """One output folder: its summary.json and a table of its runs."""
    outdir: str
    summary: dict
    runs: "object" = field(repr=False)  # pandas.DataFrame

    @property
    def ftl(self):
        return self.summary.get("config", {}).get("ftl", {}).get("type")

    @property
    def config_name(self):
        source = self.summary.get("config", {}).get("source", "")
        stem = os.path.basename(source)
        return stem[:-5] if stem.endswith(".toml") else stem

    @property
    def label(self):
        """'FTL on config', as the figures label it."""
        from . import plot
        return plot.describe(self.summary)

    def io(self):
        """This run's io.csv (see read_io)."""
        return read_io(self.outdir)

    def io_detail(self):
        """This run's io_detail.csv (ssdlab sim --io-detail), see read_io_detail."""
        return read_io_detail(self.outdir)

    def host_log(self):
        """The host log's block over a zoned device ([host.log]; docs/zns.md)
        as a dict, with the runs' own figures beside it (preconditioning
        excluded): "runs", one row per run of host and cleaning pages and the
        log's and the end-to-end write amplification. None without a log."""
        block = self.summary.get("host_log")
        if block is None:
            return None
        keys = ("host_log_host_pages_written", "host_log_cleaning_pages_written",
                "host_log_write_amplification", "end_to_end_write_amplification")
        runs = self.runs[["experiment", "run"] + [k for k in keys if k in self.runs]]
        return dict(block, runs=runs)

    def fdp(self):
        """Flexible data placement's block (docs/fdp.md): one row per
        reclaim unit handle (its host pages, blocks opened, reclaim units,
        cleaning blocks and pages moved), with the device-wide figures
        (mode, isolation, write amplification, media and host bytes, RU
        switches, ...) in every row. Empty without placement."""
        pandas = _pandas()
        block = self.summary.get("fdp")
        if not block:
            return pandas.DataFrame()
        frame = pandas.DataFrame(block.get("handles", []))
        for key, value in block.items():
            if not isinstance(value, (dict, list)):
                frame[key] = value
        return frame

    def fdp_events(self):
        """Flexible data placement's events (docs/fdp.md; the FDP events log
        page): one row per event type the model raises, its TP4146 code
        ("type"), "name" and "count". Empty without placement."""
        return _pandas().DataFrame(self.summary.get("fdp", {}).get("events", []))

    def fdp_status(self):
        """Each reclaim unit handle's status at the end of the run (docs/fdp.md;
        what an I/O Management Receive returns): one row per placement
        identifier and reclaim group, with its "available_media_writes"
        (bytes left in its reclaim unit). Empty without placement."""
        return _pandas().DataFrame(self.summary.get("fdp", {}).get("handle_status", []))

    def zones(self):
        """A zoned device's block (docs/zns.md) as a dict: the zones by
        state, the commands served, and "refusals" as a DataFrame (code,
        status, count). None on a conventional device."""
        block = self.summary.get("zones")
        if block is None:
            return None
        return dict(block, refusals=_pandas().DataFrame(block.get("refusals", [])))

    def tenants(self):
        """A run of tenants (several workloads at once): one row per tenant
        (queue, namespace, IOPS, mean and p99 response time, pages moved by
        its writes' cleaning; with --fairness its alone figures, slowdowns
        and the run's fairness index). The figures while every tenant ran
        (FLIN's window) are the contended_* columns, when the tenants all ran
        at once. Empty for other runs."""
        pandas = _pandas()
        rows = []
        for tenant in self.summary.get("tenants", []):
            row = {k: v for k, v in tenant.items() if k != "contended"}
            for key, value in (tenant.get("contended") or {}).items():
                row["contended_" + key] = value
            rows.append(row)
        frame = pandas.DataFrame(rows)
        fairness = self.summary.get("fairness")
        if fairness and not frame.empty:
            for key in ("index_mean", "index_p99", "contended_index_mean", "contended_index_p99"):
                if key in fairness:
                    frame[key.replace("index", "fairness_index")] = fairness[key]
        return frame


def _runs_frame(summary):
    pandas = _pandas()
    rows = []
    for experiment in summary.get("experiments", []):
        for run in experiment.get("runs", []):
            row = {"experiment": experiment.get("name"), "pattern": experiment.get("pattern")}
            for key in ("benchmark", "column", "parameter", "value"):
                if key in experiment:
                    row[key] = experiment[key]
            # Counted apart from the run's figures; written only when not 0.
            row.update({key: 0 for key in ("trims", "trim_iops", "refused", "zone_management")})
            row.update({k: v for k, v in run.items() if not isinstance(v, (dict, list))})
            row.update({k: v for k, v in run.get("device", {}).items()
                        if not isinstance(v, (dict, list))})
            rows.append(row)
    frame = pandas.DataFrame(rows)
    config = summary.get("config", {})
    frame.insert(0, "ftl", config.get("ftl", {}).get("type"))
    frame.insert(1, "config", config.get("name"))
    return frame


def _check_summary(path, summary):
    """Raises SsdlabError unless `summary` has the shape ssdlab writes, as far
    as the readers rely on it (plot.py's check_summary does the same)."""
    def refuse(what):
        raise SsdlabError(f"{path}: not an ssdlab summary.json: {what}")
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
        if not isinstance(experiment, dict):
            refuse(f"experiments[{i}] is not an object")
        runs = experiment.get("runs", [])
        if not isinstance(runs, list) or not all(isinstance(run, dict) for run in runs):
            refuse(f"experiments[{i}].runs is not a list of objects")
        for j, run in enumerate(runs):
            if not isinstance(run.get("device", {}), dict):
                refuse(f"experiments[{i}].runs[{j}].device is not an object")


def load_run(outdir):
    """Reads OUTDIR/summary.json: a Run with .summary (the dict) and .runs
    (a DataFrame, one row per experiment and run, device counters flattened).
    Raises SsdlabError (one line, naming the file) for a missing or
    malformed summary.json."""
    path = os.path.join(outdir, "summary.json")
    try:
        with open(path, encoding="utf-8") as f:
            summary = json.load(f)
    except OSError as error:
        raise SsdlabError(f"{path}: {error.strerror}") from error
    except json.JSONDecodeError as error:
        raise SsdlabError(f"{path}:{error.lineno}: not JSON: {error.msg}") from error
    except UnicodeDecodeError as error:
        raise SsdlabError(f"{path}: not text (UTF-8): byte {error.start}") from error
    _check_summary(path, summary)
    return Run(outdir, summary, _runs_frame(summary))


def _csv_header(path, what):
    """The first line of the CSV at `path` as its column names; SsdlabError
    naming the file (`what` it should be) if it cannot be read as text."""
    try:
        with open(path, encoding="utf-8") as f:
            return f.readline().strip().split(",")
    except OSError as error:
        raise SsdlabError(f"{path}: {error.strerror}") from error
    except UnicodeDecodeError as error:
        raise SsdlabError(f"{path}:1: not text (UTF-8): not an ssdlab {what}") from error


def _read_csv(path, dtypes, **options):
    """pandas.read_csv of `path` with `dtypes`; its errors as SsdlabError."""
    pandas = _pandas()
    try:
        return pandas.read_csv(path, dtype=dtypes, encoding="utf-8", **options)
    except UnicodeDecodeError as error:
        raise SsdlabError(f"{path}: not text (UTF-8) at byte {error.start}") from error
    except ValueError as error:  # pandas' parser errors too
        message = str(error).strip().splitlines()
        raise SsdlabError(f"{path}: {message[-1] if message else error}") from error


def read_io(outdir):
    """OUTDIR/io.csv as a DataFrame: experiment and mode categorical, run,
    process, io, offset and size int64, submit_us and rt_us float64 (µs).
    Raises SsdlabError (naming the file, and the line where known) for a
    missing or malformed io.csv, a time that is negative or not a number
    included."""
    path = outdir if outdir.endswith(".csv") else os.path.join(outdir, "io.csv")
    header = _csv_header(path, "io.csv")
    if header != IO_COLUMNS:
        raise SsdlabError(f"{path}: not an ssdlab io.csv (header {header})")
    dtypes = {"experiment": "category", "run": "int64", "process": "int64", "io": "int64",
              "submit_us": "float64", "rt_us": "float64", "mode": "category",
              "offset": "int64", "size": "int64"}
    frame = _read_csv(path, dtypes)
    # As compare reads io.csv: times are finite and not negative.
    for column in ("submit_us", "rt_us"):
        bad = ~(frame[column] >= 0) | (frame[column] == float("inf"))
        if bad.any():
            row = int(bad.to_numpy().argmax())
            raise SsdlabError(f"{path}:{row + 2}: {column}: {frame[column].iloc[row]} is not a "
                              "time (negative, infinite or nan)")
    return frame


def read_io_detail(outdir):
    """OUTDIR/io_detail.csv (ssdlab sim --io-detail: where each I/O's
    response time went, docs/reference/outputs.md) as a DataFrame: experiment
    categorical, run, process, io and the page counts int64, the *_us
    columns float64, page_types a string (empty on SLC cells). Raises
    SsdlabError for a missing file or another header."""
    path = outdir if outdir.endswith(".csv") else os.path.join(outdir, "io_detail.csv")
    header = _csv_header(path, "io_detail.csv (written by ssdlab sim --io-detail)")
    if header[:5] != ["experiment", "run", "process", "io", "rt_us"] or "page_types" not in header:
        raise SsdlabError(f"{path}: not an ssdlab io_detail.csv (header {header})")
    dtypes = {name: "float64" for name in header if name.endswith("_us")}
    dtypes.update({"experiment": "category", "run": "int64", "process": "int64", "io": "int64",
                   "pages": "int64", "slc_mode_pages": "int64", "page_types": "string"})
    return _read_csv(path, dtypes, keep_default_na=False)


def read_sweep(folder):
    """FOLDER/sweep.csv (from `ssdlab sweep` or `ssdlab collect`) as a DataFrame:
    text columns as strings, every other column (swept keys, workload.*
    parameters, uFLIP values, statistics) as numbers where all its cells
    are numbers, an empty cell then NaN. Raises SsdlabError for a missing, empty or malformed sweep.csv."""
    pandas = _pandas()
    path = folder if folder.endswith(".csv") else os.path.join(folder, "sweep.csv")
    if not os.path.isfile(path):
        raise SsdlabError(f"{path}: no such file (is it an ssdlab sweep folder?)")
    text = {"sets": "string", "config": "string", "workload": "string",
            "experiment": "string", "pattern": "string", "benchmark": "string",
            "column": "string", "parameter": "string"}
    try:
        frame = pandas.read_csv(path, dtype=text, keep_default_na=False, encoding="utf-8")
    except UnicodeDecodeError as error:
        raise SsdlabError(f"{path}: not text (UTF-8) at byte {error.start}") from error
    except ValueError as error:  # an empty file, a malformed row
        message = str(error).strip().splitlines()
        raise SsdlabError(f"{path}: not an ssdlab sweep.csv: "
                          f"{message[-1] if message else error}") from error
    # Any other column whose cells are all numbers or empty is numeric (a
    # swept key some jobs leave unset: NaN there, never the text '').
    for column in frame.columns:
        if column in text or frame[column].dtype != object:
            continue
        cells = frame[column].replace("", None)
        numbers = pandas.to_numeric(cells, errors="coerce")
        if numbers.notna().sum() == cells.notna().sum() and cells.notna().any():
            frame[column] = numbers
    return frame


def find_binary():
    """The ssdlab binary: $SSDLAB, else `ssdlab` on PATH, else build/sim/ssdlab
    (from the current folder, then from the source tree this package is in)."""
    candidates = [os.environ.get("SSDLAB"), shutil.which("ssdlab"),
                  os.path.join("build", "sim", "ssdlab"),
                  os.path.join(os.path.dirname(__file__), "..", "..", "build", "sim", "ssdlab")]
    for candidate in candidates:
        if candidate and os.access(candidate, os.X_OK) and os.path.isfile(candidate):
            return os.path.abspath(candidate)
    raise SsdlabError("no ssdlab binary: set SSDLAB=/path/to/ssdlab, put it on PATH, "
                      "or build it into build/sim/ssdlab")


def run(config, workload, outdir, seed=None, precondition=None, extra_args=(), check=True,
        **set):
    """Runs `ssdlab sim -c CONFIG -w WORKLOAD -o OUTDIR` and returns load_run(OUTDIR).
    A list of workloads runs them together as tenants (-w each; see
    Run.tenants()).

    Each keyword becomes --set: `ftl__type="fast"` gives --set ftl.type=fast
    (a double underscore separates table and key); pass a dict as
    `**{"ftl.type": "fast"}` too. `extra_args` are more command-line words."""
    workloads = [workload] if isinstance(workload, (str, os.PathLike)) else list(workload)
    args = [find_binary(), "sim", "-c", str(config), "-o", str(outdir)]
    for each in workloads:
        args += ["-w", str(each)]
    if seed is not None:
        args += ["--seed", str(seed)]
    if precondition is not None:
        args += ["--precondition", str(precondition)]
    for key, value in set.items():
        if isinstance(value, bool):
            value = "true" if value else "false"
        args += ["--set", f"{key.replace('__', '.')}={value}"]
    args += list(extra_args)
    done = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if check and done.returncode != 0:
        message = done.stderr.strip().splitlines()
        raise SsdlabError(message[-1] if message else f"ssdlab exited {done.returncode}")
    return load_run(outdir)
