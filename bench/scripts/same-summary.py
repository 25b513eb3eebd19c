#!/usr/bin/env python3
"""Compares two summary.json files but for what differs between runs of the same
simulation (wall times, state-cache paths, the ssdlab version): the check of
bench/scripts/same-io-csv.sh that a change left every figure unchanged. Prints
the first difference and exits 1 if any.

SSDLAB_NEW_SUMMARY_KEYS (comma-separated key prefixes, e.g. "energy_"): keys
that a change adds, compared only where both files have them: the new file's
are dropped where the old lacks them (every other key must still agree).
SSDLAB_GONE_SUMMARY_KEYS (the same form): keys that a change removes (a config
echo that no longer carries another part's keys): the old file's are dropped
where the new lacks them.
"""
import json
import os
import sys

VOLATILE = {"wall_seconds", "load_seconds", "state_file", "flash_pages_per_second", "ssdlab"}


def clean(x):
    if isinstance(x, dict):
        return {k: clean(v) for k, v in x.items() if k not in VOLATILE}
    if isinstance(x, list):
        return [clean(v) for v in x]
    return x


def prefixes(variable):
    return tuple(p for p in os.environ.get(variable, "").split(",") if p) or ("\0",)


def drop_unmatched(other, this, keys):
    """`this` without its keys that start with one of `keys` where `other` lacks them."""
    if isinstance(other, dict) and isinstance(this, dict):
        return {k: drop_unmatched(other.get(k), v, keys) for k, v in this.items()
                if k in other or not k.startswith(keys)}
    if isinstance(other, list) and isinstance(this, list) and len(other) == len(this):
        return [drop_unmatched(u, v, keys) for u, v in zip(other, this)]
    return this


a, b = (clean(json.load(open(p))) for p in sys.argv[1:3])
b = drop_unmatched(a, b, prefixes("SSDLAB_NEW_SUMMARY_KEYS"))
a = drop_unmatched(b, a, prefixes("SSDLAB_GONE_SUMMARY_KEYS"))
if a != b:
    def diff(x, y, path=""):
        if isinstance(x, dict) and isinstance(y, dict):
            for k in sorted(set(x) | set(y)):
                if x.get(k) != y.get(k):
                    return diff(x.get(k), y.get(k), f"{path}.{k}")
        if isinstance(x, list) and isinstance(y, list) and len(x) == len(y):
            for i, (u, v) in enumerate(zip(x, y)):
                if u != v:
                    return diff(u, v, f"{path}[{i}]")
        return f"{path}: {json.dumps(x)[:80]} vs {json.dumps(y)[:80]}"
    print(diff(a, b))
    sys.exit(1)
