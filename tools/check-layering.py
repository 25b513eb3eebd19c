#!/usr/bin/env python3
"""Checks that every #include "..." of the source tree follows the layering.

ssdlab's folders are libraries whose dependencies point one way
(docs/layout.md, "Layering"). ALLOWED below is the whole table: for each
folder, the folders its files may include besides its own. An include that
is not in it fails, with

    FILE:LINE: folder A may not include folder B (allowed: ...)

Folders are the top-level ones and, under sim/, each subfolder. Quoted
includes are resolved against the source root (the project's include path),
then against the including file's folder; what resolves to neither (a file
CMake generates) is not checked. Angle-bracket includes are libraries and are
not checked. A source file in a folder that is not in the table fails too, so
that a new folder gets a row.

Usage: tools/check-layering.py [--markdown] [ROOT]   (ROOT: the source tree,
default the checkout this script is in; --markdown: print the table as
docs/layout.md shows it). Exit status 0 if clean, 1 if not.
"""

import os
import re
import sys

# The layering, lowest first: folder -> the folders its files may include
# (docs/layout.md, "Layering", shows this table: `--markdown` prints it, and
# the check fails if the page's copy differs).
ALLOWED = {
    "common": [],
    # Each part's counter block, declared once (records/field_list.h).
    "records": ["common"],
    "flash": ["common", "records"],
    "ftl": ["common", "records", "flash"],
    "workloads": ["common"],
    "traces": ["common"],
    # The device config (TOML presets, --set), read before anything is built.
    "sim/config": ["common", "flash", "ftl"],
    # What a run produces, read back by analysis/ without the simulator.
    "sim/results": ["common", "records", "workloads"],
    # Reads outputs; never the simulator.
    "analysis": ["common", "sim/results"],
    "sim/controller": ["common", "records", "flash", "ftl", "sim/config"],
    "sim/views": ["common", "flash", "sim/config", "sim/controller", "sim/results"],
    "sim/report": ["common", "flash", "ftl", "workloads", "sim/config", "sim/controller",
                   "sim/results"],
    "sim/engine": ["common", "ftl", "workloads", "traces", "sim/config", "sim/controller",
                   "sim/results", "sim/report"],
    "sim/state": ["common", "flash", "ftl", "workloads", "sim/config", "sim/controller",
                  "sim/engine", "sim/results"],
    "sim/run": ["common", "ftl", "workloads", "traces", "sim/config", "sim/controller",
                "sim/engine", "sim/report", "sim/results", "sim/state", "sim/views"],
    # Sweeps: grids of the runs below, frozen jobs, Slurm arrays, sweep.csv.
    "sim/sweep": ["common", "workloads", "traces", "sim/config", "sim/report", "sim/results",
                  "sim/run", "sim/state"],
    # The model as a live device (the nbdkit plugin): the run driver, stepped by its clock.
    "sim/live": ["common", "workloads", "sim/engine", "sim/report", "sim/results", "sim/run"],
    "repro": ["common", "sim/results", "sim/run"],
    "sim/cli": ["common", "ftl", "workloads", "traces", "sim/config", "sim/controller",
                "sim/engine", "sim/results", "sim/run", "sim/state", "sim/sweep", "sim/views",
                "analysis", "repro"],
    # Tests, benchmarks and fuzz targets exercise any layer.
    "tests": ["*"],
    "bench": ["*"],
    "fuzz": ["*"],
}

SOURCE_SUFFIXES = (".h", ".hpp", ".cpp", ".cc")
# Not part of the layered tree: build outputs, and the out-of-tree FTL
# example (built against the installed package, docs/examples/).
SKIPPED = ("build", ".git", "docs", "cmake", "python", "tools", "configs", "shared")
INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"')


def folder_of(relative):
    """The table's folder of a path relative to the root (None: not a source folder)."""
    parts = relative.split("/")
    if len(parts) < 2:
        return None
    if parts[0] == "sim":
        return "sim/" + parts[1] if len(parts) > 2 else "sim"
    return parts[0]


def skipped(relative_dir):
    top = relative_dir.split("/")[0]
    return top.startswith("build") or top in SKIPPED


def source_files(root):
    for directory, subdirs, files in os.walk(root):
        relative_dir = os.path.relpath(directory, root).replace(os.sep, "/")
        if relative_dir != "." and skipped(relative_dir):
            subdirs[:] = []
            continue
        subdirs.sort()
        for name in sorted(files):
            if name.endswith(SOURCE_SUFFIXES) and relative_dir != ".":
                yield relative_dir + "/" + name


def included_folder(root, relative, target):
    """The folder `target` (as written in `relative`'s #include) lives in."""
    for candidate in (target, os.path.join(os.path.dirname(relative), target)):
        path = os.path.normpath(candidate).replace(os.sep, "/")
        if not path.startswith("../") and os.path.isfile(os.path.join(root, path)):
            return folder_of(path)
    return None  # generated (plot_script.h) or a system header in quotes


def check(root):
    problems = []
    for relative in source_files(root):
        folder = folder_of(relative)
        if folder not in ALLOWED:
            problems.append(f"{relative}:1: folder {folder or '.'} is not in the layering table "
                            "(tools/check-layering.py ALLOWED)")
            continue
        allowed = ALLOWED[folder]
        with open(os.path.join(root, relative), encoding="utf-8", errors="replace") as source:
            for number, line in enumerate(source, 1):
                match = INCLUDE.match(line)
                if not match:
                    continue
                target = included_folder(root, relative, match.group(1))
                if target is None or target == folder or "*" in allowed or target in allowed:
                    continue
                problems.append(f"{relative}:{number}: folder {folder} may not include folder "
                                f"{target} (allowed: {', '.join(allowed) or 'nothing'})")
    return problems


def markdown():
    """The table as docs/layout.md shows it."""
    rows = ["| folder | may include |", "|---|---|"]
    layered = [f for f in ALLOWED if ALLOWED[f] != ["*"]]
    for folder in layered:
        rows.append(f"| `{folder}` | {', '.join(ALLOWED[folder]) or '—'} |")
    anything = [f"`{f}`" for f in ALLOWED if ALLOWED[f] == ["*"]]
    rows.append(f"| {', '.join(anything)} | any |")
    return "\n".join(rows) + "\n"


def check_page(root):
    """The page's copy of the table, if the page is in this tree."""
    page = os.path.join(root, "docs", "layout.md")
    if not os.path.isfile(page):
        return []
    with open(page, encoding="utf-8") as text:
        if markdown() in text.read():
            return []
    return ["docs/layout.md:1: its layering table is not tools/check-layering.py's "
            "(paste the output of tools/check-layering.py --markdown)"]


def main():
    arguments = sys.argv[1:]
    if "--markdown" in arguments:
        print(markdown(), end="")
        return 0
    default = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    root = os.path.abspath(arguments[0] if arguments else default)
    problems = check(root) + check_page(root)
    for problem in problems:
        print(problem)
    if problems:
        print(f"{len(problems)} include(s) against the layering (docs/layout.md)", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
