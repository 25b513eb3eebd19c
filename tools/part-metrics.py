#!/usr/bin/env python3
"""Measures how far the controller is from "one stack, one list" (issue 52):
the figures its review counted by hand, from the sources, each beside its
target.

- ssd_part_branches: the `if (part_)` and `if (!part_)` statements of the
  controller (sim/controller/ssd*.h, ssd*.cpp: the Ssd and its core,
  SsdCore), a part being a `std::unique_ptr<...> name_;` member of class
  Ssd or class SsdCore;
- ssd_part_tests: every place there that tests whether a part is there: an
  occurrence of a part member followed by `?`, `&&`, `||`, `!=` or `==`, or
  preceded by `!`, `&&`, `||` or `if (` (the branches above included); a use
  (`part_->`, `*part_`, passing it on) is not a test.
- ssd_member_functions, ssd_data_members: class Ssd's own declarations (not
  those of its nested types; deleted functions, `using`, static constants
  and type definitions are not counted; overloads count one each).
- simulator_lines: lines of sim/engine/simulator.h and simulator*.cpp;
  simulator_data_members: class Simulator's data members, counted as above.
- tests_spawning_the_binary: C++ test files that run the ssdlab binary
  (run_ssdlab(), run_shell() or SSDLAB_BINARY_PATH), tests/test_support.h
  itself aside.
- counter_structs_declared_twice: pairs of structs (anywhere in the sources)
  with the same set of at least three numeric field names: a counter block
  and a copy of it.

The counts come from the text with comments and strings blanked
(tools/check-sizes.py), not from a compiler: a declaration a regular
expression misreads is miscounted, which tests/part_metrics/ pins on a
small tree of its own.

    tools/part-metrics.py [--source DIR] [--json]
"""
import argparse
import importlib.util
import itertools
import json
import pathlib
import re
import sys

HERE = pathlib.Path(__file__).resolve().parent
_spec = importlib.util.spec_from_file_location("check_sizes", HERE / "check-sizes.py")
check_sizes = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(check_sizes)
blank, BODY = check_sizes.blank, check_sizes.BODY

# Issue 52's targets: (metric, the most it may be).
TARGETS = {
    "ssd_part_branches": 5,
    "ssd_part_tests": None,  # (no target of its own: what the branches leave)
    "ssd_member_functions": 30,
    "ssd_data_members": 12,
    "simulator_lines": 599,
    "simulator_data_members": 24,
    "tests_spawning_the_binary": 12,
    "counter_structs_declared_twice": 0,
}
SOURCE_FOLDERS = ["common", "flash", "ftl", "records", "workloads", "traces", "analysis",
                  "repro", "sim"]


def matching(code, open_at):
    """The index of the brace that closes the one at `open_at`."""
    depth = 0
    for i in range(open_at, len(code)):
        if code[i] == "{":
            depth += 1
        elif code[i] == "}":
            depth -= 1
            if depth == 0:
                return i
    raise ValueError("unbalanced braces")


def statements(code, name):
    """The top-level declarations of class or struct `name` in blanked
    `code`, each as one line of text (a body or an initialiser's braces
    as `{}`)."""
    m = re.search(r"\b(?:class|struct)\s+" + name + r"\b[^;{()]*\{", code)
    if not m:
        return []
    end = matching(code, m.end() - 1)
    out, current, i = [], "", m.end()
    while i < end:
        c = code[i]
        if c == "{":
            close = matching(code, i)
            if BODY.search(current.rstrip()):  # a function body ends the declaration
                out.append(current + "{}")
                current = ""
            else:
                current += "{}"
            i = close + 1
            continue
        if c == ";":
            out.append(current)
            current = ""
        else:
            current += c
        i += 1
    result = []
    for text in out:
        text = re.sub(r"\b(?:public|private|protected)\s*:(?!:)", " ", text)
        text = " ".join(text.split())
        if text:
            result.append(text)
    return result


def classify(text):
    """'function', 'data' or None (not a member that counts)."""
    if re.match(r"(?:using|friend|typedef|template\s*<[^>]*>\s*using)\b", text):
        return None
    if re.match(r"(?:struct|class|enum|union)\b", text) and "{}" in text:
        return None
    if re.search(r"=\s*delete\s*$", text):
        return None
    before_init = re.split(r"=|\{\}", re.sub(r"\boperator\s*\S+?\s*\(", "operator(", text),
                           maxsplit=1)[0]
    if "(" in before_init:
        return "function"
    if re.match(r"static\b", text):
        return None
    return "data"


def members(code, name):
    kinds = [classify(s) for s in statements(code, name)]
    return kinds.count("function"), kinds.count("data"), statements(code, name)


def part_members(decls):
    """The names of the std::unique_ptr members among `decls`."""
    names = []
    for text in decls:
        m = re.match(r"std::unique_ptr<.*>\s+(\w+_)(?:\s*=.*)?$", text)
        if m:
            names.append(m.group(1))
    return names


def part_branches(code, parts):
    return sum(len(re.findall(r"\bif\s*\(\s*!?\s*" + name + r"\s*\)", code)) for name in parts)


def part_tests(code, parts):
    count = 0
    for name in parts:
        for m in re.finditer(r"\b" + name + r"\b", code):
            before = code[:m.start()].rstrip()
            after = code[m.end():].lstrip()
            if after.startswith(("->", ".")):
                continue
            if (after.startswith(("?", "&&", "||", "!=", "==")) or before.endswith(("!", "&&", "||"))
                    or re.search(r"\bif\s*\($", before)):
                count += 1
    return count


def read(path):
    return blank(path.read_text(errors="replace")) if path.is_file() else ""


def numeric_fields(code):
    """{struct name: frozenset of its numeric field names} for `code`."""
    out = {}
    for m in re.finditer(r"\bstruct\s+(\w+)\s*(?::[^{;]*)?\{", code):
        names = set()
        for text in statements(code[m.start():], m.group(1)):
            f = re.match(r"(?:std::)?(?:u?int\d+_t|double|float|TimeNs|bool|std::size_t)\s+(\w+)"
                         r"(?:\s*=.*)?$", text)
            if f:
                names.add(f.group(1))
        if len(names) >= 3:
            out.setdefault(m.group(1), frozenset(names))
    return out


def measure(source):
    controller = source / "sim" / "controller"
    ssd_h = read(controller / "ssd.h")
    functions, data, decls = members(ssd_h, "Ssd")
    core_h = read(controller / "ssd_core.h")
    parts = part_members(decls) + part_members(members(core_h, "SsdCore")[2] if core_h else [])
    ssd_code = "".join(read(p) for p in sorted(controller.glob("ssd*.h"))
                       + sorted(controller.glob("ssd*.cpp")))
    engine = source / "sim" / "engine"
    simulator_files = [engine / "simulator.h"] + sorted(engine.glob("simulator*.cpp"))
    _, simulator_data, _ = members(read(engine / "simulator.h"), "Simulator")
    spawning = 0
    for path in sorted((source / "tests").rglob("*.cpp")):
        if re.search(r"\brun_ssdlab\s*\(|\brun_shell\s*\(|\bSSDLAB_BINARY_PATH\b",
                     read(path)):
            spawning += 1
    fields = {}
    for folder in SOURCE_FOLDERS:
        for path in sorted((source / folder).rglob("*.h")):
            for name, names in numeric_fields(read(path)).items():
                fields[f"{path.relative_to(source)}:{name}"] = names
    twice = [(a, b) for (a, fa), (b, fb) in itertools.combinations(sorted(fields.items()), 2)
             if fa == fb]
    return {
        "ssd_part_branches": part_branches(ssd_code, parts),
        "ssd_part_tests": part_tests(ssd_code, parts),
        "ssd_member_functions": functions,
        "ssd_data_members": data,
        "simulator_lines": sum(p.read_text(errors="replace").count("\n")
                               for p in simulator_files if p.is_file()),
        "simulator_data_members": simulator_data,
        "tests_spawning_the_binary": spawning,
        "counter_structs_declared_twice": len(twice),
    }, twice


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--source", default=HERE.parent, type=pathlib.Path)
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    figures, twice = measure(args.source)
    if args.json:
        print(json.dumps({"figures": figures, "twice": twice}, indent=2))
        return 0
    print("| figure | now | target |")
    print("|---|---|---|")
    for name, value in figures.items():
        target = TARGETS[name]
        if target is None:
            print(f"| {name} | {value} | — |")
            continue
        mark = "" if value <= target else " (over)"
        print(f"| {name} | {value}{mark} | at most {target} |")
    for a, b in twice:
        print(f"same numeric fields: {a} and {b}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
