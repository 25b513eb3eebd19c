#!/usr/bin/env python3
"""CTest's test names stay short enough to read: no "# GetParam() = <bytes>"
suffix (gtest_discover_tests without NO_PRETTY_VALUES wrote one, and ctest
padded every line of its output to 380 columns), none over 130 characters."""
import subprocess
import sys

build = sys.argv[1]
listing = subprocess.run(["ctest", "--test-dir", build, "-N"], capture_output=True, text=True,
                         check=True).stdout
names = [line.split(": ", 1)[1] for line in listing.splitlines() if line.strip().startswith("Test")
         and ": " in line]
bad = [n for n in names if "GetParam" in n or len(n) > 130]
for name in bad[:10]:
    print(f"FAIL: {len(name)} characters: {name[:160]}")
print(f"{len(names)} tests, longest name {max(map(len, names), default=0)} characters")
sys.exit(1 if bad or not names else 0)
