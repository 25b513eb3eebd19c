#!/usr/bin/env python3
"""Replaces a generated block of a docs page with what the standard input gives.

    bench/scripts/docs-block.py FILE NAME < BODY

The block lies between the markers <!-- NAME results --> and
<!-- end NAME results --> in FILE (a script's table, such as
codeword-reads.sh's or drives.sh's); the markers stay, what lies between them
becomes BODY. Exits non-zero, FILE untouched, if either marker is missing.
"""
import sys


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: docs-block.py FILE NAME < BODY")
    path, name = sys.argv[1:]
    begin, end = f"<!-- {name} results -->", f"<!-- end {name} results -->"
    text = open(path, encoding="utf-8").read()
    if begin not in text or end not in text:
        sys.exit(f"{path}: no {begin} ... {end} markers")
    head, rest = text.split(begin, 1)
    _, tail = rest.split(end, 1)
    body = sys.stdin.read()
    with open(path, "w", encoding="utf-8") as out:
        out.write(head + begin + body + end + tail)


if __name__ == "__main__":
    main()
