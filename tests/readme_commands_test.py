#!/usr/bin/env python3
"""The README's two build commands (issue 44): the first builds only the
ssdlab binary it runs (a fresh clone built 234 targets, tests and benchmarks
included, before its first simulation), and the test command builds the rest
and is the line .ci/run runs verbatim."""
import re
import sys
from pathlib import Path

source = Path(sys.argv[1])
readme = (source / "README.md").read_text()
blocks = re.findall(r"```sh\n(.*?)```", readme, re.S)
first = next(b.strip() for b in blocks if "install-deps.sh" in b)
tests = next(b.strip() for b in blocks if "ctest" in b)
failures = []
if "cmake --build build -j2 --target ssdlab &&" not in first:
    failures.append("the first command must build only the binary it runs "
                    "(cmake --build build -j2 --target ssdlab): " + first)
if "--target" in tests:
    failures.append("the test command must build every target (the tests): " + tests)
if tests not in (source / ".ci" / "run").read_text().splitlines():
    failures.append(".ci/run must run the README's test command verbatim: " + tests)
for failure in failures:
    print("FAIL:", failure)
sys.exit(1 if failures else 0)
