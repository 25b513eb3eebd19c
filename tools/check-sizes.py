#!/usr/bin/env python3
"""Checks the project's size rules on its C++ sources (docs/layout.md):
every file under 400 lines and every function body under 80 lines.

Prints one line per breach, `file:line: what`, and exits 1 if there is any.
Functions are found by matching braces after comments, strings and
preprocessor lines are blanked: a `{` opens a function body when the text
before it (since the last `;`, `{` or `}`) has a parameter list and is not a
class, namespace, enum or initialiser; lambdas and blocks inside a body
count towards the body that holds them.

    tools/check-sizes.py [--source DIR] [--max-file N] [--max-function N] [FOLDER...]
"""
import argparse
import pathlib
import re
import sys

FOLDERS = ["common", "flash", "ftl", "workloads", "traces", "analysis", "repro", "sim",
           "tests", "bench", "fuzz", "docs/examples"]
CODE = re.compile(r'//[^\n]*|/\*.*?\*/|R"(\w*)\(.*?\)\1"|"(?:\\.|[^"\\\n])*"|'
                  r"'(?:\\.|[^'\\\n])*'|^[ \t]*#[^\n]*(?:\\\n[^\n]*)*", re.S | re.M)


def blank(text):
    """The text with comments, strings and preprocessor lines replaced by
    spaces (newlines kept, so line numbers stay)."""
    return CODE.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)


BODY = re.compile(r"\)\s*(?:const|override|final|noexcept|mutable|&|\s)*"
                  r"(?:->\s*[\w:<>,\s*&]+)?$")


def functions(text):
    """(first line, line count, name) of every function body in `text`."""
    code = blank(text)
    stack = []  # (is a function body, offset) per open brace
    header_start = 0
    for i, c in enumerate(code):
        if c == ";":
            header_start = i + 1
        elif c == "{":
            inside = any(body for body, _ in stack)
            stack.append((not inside and bool(BODY.search(code[header_start:i])), i))
            header_start = i + 1
        elif c == "}":
            if stack:
                body, start = stack.pop()
                if body:
                    first = code.count("\n", 0, start) + 1
                    count = code.count("\n", start, i) + 1
                    name = re.findall(r"([~\w:]+)\s*\(", code[header_of(code, start):start])
                    yield first, count, name[0] if name else "?"
            header_start = i + 1


def header_of(code, brace):
    """Where the declaration that `brace` opens begins."""
    return max(code.rfind(c, 0, brace) for c in ";{}") + 1


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--source", default=pathlib.Path(__file__).resolve().parent.parent,
                        type=pathlib.Path)
    parser.add_argument("--max-file", type=int, default=400)
    parser.add_argument("--max-function", type=int, default=80)
    parser.add_argument("folders", nargs="*", default=FOLDERS)
    args = parser.parse_args()
    breaches = 0
    for folder in args.folders:
        for path in sorted((args.source / folder).rglob("*")):
            if path.suffix not in (".h", ".cpp") or not path.is_file():
                continue
            name = path.relative_to(args.source)
            text = path.read_text(errors="replace")
            lines = text.count("\n")
            if lines >= args.max_file:
                print(f"{name}:1: {lines} lines (at most {args.max_file - 1})")
                breaches += 1
            for first, count, function in functions(text):
                if count > args.max_function:
                    print(f"{name}:{first}: {function} is {count} lines "
                          f"(at most {args.max_function})")
                    breaches += 1
    return 1 if breaches else 0


if __name__ == "__main__":
    sys.exit(main())
