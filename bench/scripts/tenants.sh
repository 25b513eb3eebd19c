#!/usr/bin/env bash
# Interference between tenants on one device (docs/tenants.md, "Interference,
# measured"). On the paper's baseline device after a random fill:
#  1. a latency-sensitive random reader (4 KiB, queue depth 2) beside a heavy
#     random writer (4 KiB, queue depth 32, cleaning all the time), with
#     --fairness, under FIFO, reads-first, fewest-queued and FLIN flash
#     dispatch: each
#     tenant's mean and p99 response time, shared and alone, its slowdown, and
#     the fairness index, over its whole run and while both tenants ran (the
#     I/Os submitted in that window, the mean slowdown and index: FLIN's);
#  2. the same with a light random writer (queue depth 1) in the reader's
#     place: reads-first cannot help it, the fewest-queued order and FLIN can;
#  3. two saturating random readers on two submission queues, the device
#     taking 8 requests at a time, under weighted arbitration (high weight 3,
#     low weight 1) and round robin: each one's share of the completions while
#     both run.
#   bench/scripts/tenants.sh [SSDLAB_BINARY] [WORKDIR]
set -euo pipefail
cd "$(dirname "$0")/../.."
bin=$(realpath "${1:-build/sim/ssdlab}")
work=${2:-$(mktemp -d)}
mkdir -p "$work"
config=configs/agrawal-baseline.toml
reader='RR:io_size=4096,count=15000,queue_depth=2,name=reader'
writer='RW:io_size=4096,count=100000,queue_depth=32,name=writer'
light='RW:io_size=4096,count=3000,queue_depth=1,name=light'
for order in fifo 'read>write>cleaning' fewest-queued flin; do
  name=${order//>/-}
  "$bin" sim -c "$config" --precondition random --fairness -q -w "$reader" -w "$writer" \
    --set "controller.dispatch_order=\"$order\"" -o "$work/interference-$name" > /dev/null
  "$bin" sim -c "$config" --precondition random --fairness -q -w "$light" -w "$writer" \
    --set "controller.dispatch_order=\"$order\"" -o "$work/light-writer-$name" > /dev/null
done
high='RR:io_size=4096,count=40000,queue_depth=32,name=high,queue=1'
low='RR:io_size=4096,count=40000,queue_depth=32,name=low,queue=2'
queues='host.queues=[{priority="high"},{priority="low"}]'
"$bin" sim -c "$config" --precondition random -q -w "$high" -w "$low" --set host.queue_depth=8 \
  --set 'host.arbitration="weighted"' --set host.weight_high=3 --set host.weight_low=1 \
  --set "$queues" -o "$work/arbitration-weighted" > /dev/null
"$bin" sim -c "$config" --precondition random -q -w "$high" -w "$low" --set host.queue_depth=8 \
  --set 'host.queues=[{},{}]' -o "$work/arbitration-round-robin" > /dev/null

/usr/bin/python3 - "$work" <<'EOF'
import csv
import json
import os
import sys

work = sys.argv[1]
print(f"{'dispatch':<20} {'tenant':<7} {'mean us':>9} {'alone':>8} {'p99 us':>9} {'alone':>8} "
      f"{'slowdown':>9} {'p99 slowdown':>13} {'fairness':>9} {'(p99)':>7}   "
      f"{'window I/Os':>11} {'slowdown':>9} {'fairness':>9}")
for pair in ("interference", "light-writer"):
    for order in ("fifo", "read-write-cleaning", "fewest-queued", "flin"):
        with open(os.path.join(work, f"{pair}-{order}", "summary.json")) as f:
            summary = json.load(f)
        fairness = summary["fairness"]
        for t in summary["tenants"]:
            print(f"{order:<20} {t['name']:<7} {t['mean_us']:>9.1f} {t['alone_mean_us']:>8.1f} "
                  f"{t['p99_us']:>9.1f} {t['alone_p99_us']:>8.1f} {t['slowdown_mean']:>9.2f} "
                  f"{t['slowdown_p99']:>13.2f} {fairness['index_mean']:>9.3f} "
                  f"{fairness['index_p99']:>7.3f}   {t['contended']['ios']:>11} "
                  f"{t['contended']['slowdown_mean']:>9.2f} "
                  f"{fairness['contended_index_mean']:>9.3f}")
print()
print(f"{'arbitration':<20} {'high':>8} {'low':>8} {'ratio':>7}   (completions while both run)")
for name in ("weighted", "round-robin"):
    last, rows = {}, []
    with open(os.path.join(work, f"arbitration-{name}", "io.csv")) as f:
        for row in csv.DictReader(f):
            done = float(row["submit_us"]) + float(row["rt_us"])
            rows.append((row["experiment"], done))
            last[row["experiment"]] = max(last.get(row["experiment"], 0), done)
    end = min(last.values())
    counts = {"high": 0, "low": 0}
    for experiment, done in rows:
        if done <= end:
            counts[experiment] += 1
    print(f"{name:<20} {counts['high']:>8} {counts['low']:>8} "
          f"{counts['high'] / counts['low']:>7.2f}")
EOF
