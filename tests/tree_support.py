"""For the tests of the source-tree tools (tools/check-layering.py,
tools/part-metrics.py): runs a tool on a small tree of the test's own."""
import os
import subprocess
import sys
import tempfile


def run_on_tree(files, arguments):
    """Writes `files` ({path: text}) into a fresh tree and runs
    `arguments(root)` (the tool's argv after the interpreter) on it; returns
    (exit status, stdout)."""
    with tempfile.TemporaryDirectory() as root:
        for path, text in files.items():
            os.makedirs(os.path.join(root, os.path.dirname(path)), exist_ok=True)
            with open(os.path.join(root, path), "w", encoding="utf-8") as out:
                out.write(text)
        done = subprocess.run([sys.executable, *arguments(root)], capture_output=True, text=True)
        return done.returncode, done.stdout
