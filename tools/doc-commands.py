#!/usr/bin/python3
"""Runs the commands that the README and docs/ show, so that the docs cannot
drift from the program.

Convention (docs/layout.md, "Checking the documentation"):
- Only fenced blocks opened with ```sh are looked at.
- In them, a runnable command is a line (or a part of an `a && b` line) that
  starts with `ssdlab `, `build/sim/ssdlab ` or `PYTHONPATH=python /usr/bin/python3 `,
  possibly after `SSDLAB_...=VALUE ` environment settings.
  Other lines (cmake, apt-get, tools/...) are shown to the reader, not run.
- A block holding a line `# not run by the doc test: REASON` is skipped, and
  the reason is printed (a real block device, hours of device time, ...).
- A line `# doc test: replace 'OLD' with 'NEW'` shrinks the block's commands
  for the test (e.g. a smaller count); the reader sees the substitution.

Each page runs in its own temporary folder in which configs/, workloads/,
traces/, tools/, python/ and docs/ point into the source tree and build/ to
the build tree, `ssdlab` is on PATH, and `out/` is fresh; commands of one page
run in order, so a later one may read what an earlier one wrote. Any non-zero
exit fails the test, and so does a link to a file or heading that does not
exist.

Usage: doc-commands.py [--source DIR] [--build DIR] [--list] [--timeout S] [PAGE...]
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

RUNNABLE = ("ssdlab ", "build/sim/ssdlab ", "PYTHONPATH=python /usr/bin/python3 ")
SSDLAB_ENV = re.compile(r"^(SSDLAB_[A-Z_]+=\S+ +)+")
SKIP = re.compile(r"#\s*not run by the doc test:\s*(.+)")
REPLACE = re.compile(r"#\s*doc test: replace '([^']*)' with '([^']*)'")
LINKED = ("configs", "workloads", "traces", "tools", "python", "docs")


def pages(source):
    found = [os.path.join(source, "README.md")]
    for root, _, files in os.walk(os.path.join(source, "docs")):
        found += [os.path.join(root, f) for f in sorted(files) if f.endswith(".md")]
    return sorted(found)


def blocks(path):
    """(line number, [lines]) of each ```sh block."""
    result, current, start = [], None, 0
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            stripped = line.strip()
            if current is None and stripped == "```sh":
                current, start = [], number + 1
            elif current is not None and stripped.startswith("```"):
                result.append((start, current))
                current = None
            elif current is not None:
                current.append(line.rstrip("\n"))
    return result


def commands(block):
    """The block's runnable commands, or the reason it is not run."""
    replacements, found = [], []
    for line in block:
        skip = SKIP.search(line)
        if skip:
            return None, skip.group(1).strip()
        replace = REPLACE.search(line)
        if replace:
            replacements.append(replace.groups())
    for line in block:
        for part in line.split(" && "):
            part = part.strip()
            if SSDLAB_ENV.sub("", part).startswith(RUNNABLE):
                for old, new in replacements:
                    part = part.replace(old, new)
                found.append(part)
    return found, None


def anchor(heading):
    """GitHub's anchor of a Markdown heading."""
    # Emphasis marks go; an underscore inside a word is text and stays
    # (`ftl.victim_policy` -> ftlvictim_policy), as on GitHub.
    text = re.sub(r"[`*]|(?<![a-z0-9])_|_(?![a-z0-9])", "", heading.strip().lower())
    return re.sub(r"[^a-z0-9 _-]", "", text).replace(" ", "-")


def anchors(path):
    with open(path, encoding="utf-8") as f:
        text = re.sub(r"```.*?```", "", f.read(), flags=re.S)
    return {anchor(h) for h in re.findall(r"^#+ (.+)$", text, flags=re.M)}


def broken_links(path):
    """Links to files or headings that do not exist: 'page:line: link'."""
    broken = []
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    fenced = False
    for number, line in enumerate(lines, 1):
        if line.strip().startswith("```"):
            fenced = not fenced
        if fenced:
            continue
        for target in re.findall(r"\]\(([^)\s]+)\)", line):
            if re.match(r"[a-z]+:", target):
                continue  # http:, https:, mailto:
            file_part, _, fragment = target.partition("#")
            linked = os.path.normpath(os.path.join(os.path.dirname(path), file_part)) \
                if file_part else path
            if not os.path.exists(linked):
                broken.append(f"{path}:{number}: {target}: no such file")
            elif fragment and linked.endswith(".md") and fragment not in anchors(linked):
                broken.append(f"{path}:{number}: {target}: no such heading")
    return broken


def workspace(source, build):
    root = tempfile.mkdtemp(prefix="ssdlab-doc-")
    for name in LINKED:
        os.symlink(os.path.join(source, name), os.path.join(root, name))
    os.symlink(build, os.path.join(root, "build"))
    os.makedirs(os.path.join(root, "bin"))
    os.symlink(os.path.join(build, "sim", "ssdlab"), os.path.join(root, "bin", "ssdlab"))
    return root


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    parser.add_argument("--source", default=here)
    parser.add_argument("--build", default=os.path.join(here, "build"))
    parser.add_argument("--list", action="store_true", help="list the commands, run nothing")
    parser.add_argument("--timeout", type=float, default=300, help="seconds per command")
    parser.add_argument("pages", nargs="*", help="pages to check (default: README.md, docs/)")
    args = parser.parse_args()
    source, build = os.path.abspath(args.source), os.path.abspath(args.build)
    if not os.access(os.path.join(build, "sim", "ssdlab"), os.X_OK):
        sys.exit(f"doc-commands: {build}/sim/ssdlab is not built")
    chosen = [os.path.abspath(p) for p in args.pages] or pages(source)
    failures, ran, skipped, started = [], 0, 0, time.monotonic()
    for page in chosen:
        name = os.path.relpath(page, source)
        for link in broken_links(page):
            print(f"{os.path.relpath(link, source)}")
            failures.append(os.path.relpath(link, source))
        todo = []
        for line, block in blocks(page):
            found, reason = commands(block)
            if reason:
                print(f"{name}:{line}: not run: {reason}")
                skipped += 1
            else:
                todo += [(line, command) for command in found]
        if not todo or args.list:
            for line, command in todo:
                print(f"{name}:{line}: {command}")
            continue
        root = workspace(source, build)
        env = dict(os.environ, PATH=os.path.join(root, "bin") + os.pathsep + os.environ["PATH"],
                   SSDLAB=os.path.join(build, "sim", "ssdlab"), MPLBACKEND="Agg",
                   # the page's preconditioned states (and its `ssdlab cache clear`)
                   # stay in its folder, never the user's cache
                   XDG_CACHE_HOME=os.path.join(root, "cache"))
        try:
            for line, command in todo:
                begin = time.monotonic()
                try:
                    done = subprocess.run(["bash", "-c", command], cwd=root, env=env,
                                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                          text=True, timeout=args.timeout)
                    status, output = done.returncode, done.stdout
                except subprocess.TimeoutExpired as expired:
                    status, output = "timeout", expired.stdout or ""
                    if isinstance(output, bytes):
                        output = output.decode(errors="replace")
                seconds = time.monotonic() - begin
                ran += 1
                print(f"{name}:{line}: {'ok' if status == 0 else 'FAILED'} "
                      f"({seconds:.1f} s): {command}")
                if status != 0:
                    failures.append(f"{name}:{line}: exit {status}: {command}")
                    print("    " + "\n    ".join(output.rstrip().split("\n")[-15:]))
        finally:
            shutil.rmtree(root, ignore_errors=True)
    print(f"doc-commands: {ran} commands run, {skipped} blocks not run, "
          f"{len(failures)} failed, {time.monotonic() - started:.1f} s")
    for failure in failures:
        print("FAILED " + failure)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
