"""Page-mapped vs BAST vs FAST on the tiny preset: the same 5,000 random 4 KiB
writes after a sequential fill, one figure per kind into OUTDIR (default out/ftls).
Run from the source tree: PYTHONPATH=python /usr/bin/python3 docs/examples/compare_ftls.py"""
import os
import sys

import ssdlab

out = sys.argv[1] if len(sys.argv) > 1 else "out/ftls"
runs = [ssdlab.run("configs/tiny.toml", "RW:io_size=4096,count=5000", os.path.join(out, ftl),
                   precondition="seq", ftl__type=ftl) for ftl in ("page-mapped", "bast", "fast")]
for r in runs:
    print(r.label, r.runs[["mean_us", "p99_us", "write_amplification"]].round(2).to_dict("records"))
for path in ssdlab.plot.plot_runs([r.outdir for r in runs], os.path.join(out, "plots")):
    print(path)
