#!/usr/bin/env bash
# A recorded run re-simulated under other dispatch orders (docs/reference/
# trace-formats.md, "Replaying a recorded run"; issue 57 item 5). On the
# paper's baseline device after a random fill, a session is recorded: a
# reader that thinks 100 us between its 4 KiB reads (queue depth 1) beside
# a writer of 4 KiB random writes at queue depth 8, under FIFO flash
# dispatch. Its io.csv is then replayed, each experiment a tenant, under
# FIFO, reads-first and fewest-queued dispatch, once by its timestamps
# (--mode open) and once by its dependencies (--mode dependent). Prints each
# tenant's mean and p99 response time, the reader's I/Os per second and
# when the last I/O completed; and whether the dependent replay under FIFO
# (the recording's own device and order) gave the recording's rows back.
#   bench/scripts/resimulate.sh BINARY [WORKDIR] [--docs FILE]
set -euo pipefail
bin=$(realpath "$1") work=${2:-$(mktemp -d)} docs=""
shift $(( $# < 2 ? $# : 2 ))
while [[ $# -gt 0 ]]; do
  case $1 in
    --docs) docs=$(realpath "$2"); shift 2 ;;
    *) echo "resimulate.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
cd "$(dirname "$0")/../.."
mkdir -p "$work"
device=(-c configs/agrawal-baseline.toml --precondition random -q)
reader='RR:io_size=4096,count=5000,queue_depth=1,pause_us=100,name=reader'
writer='RW:io_size=4096,count=40000,queue_depth=8,name=writer'
"$bin" sim "${device[@]}" -w "$reader" -w "$writer" -o "$work/recorded" > /dev/null
recording=$work/recorded/io.csv
for order in fifo 'read>write>cleaning' fewest-queued; do
  for mode in open dependent; do
    "$bin" sim "${device[@]}" --mode $mode --set "controller.dispatch_order=\"$order\"" \
      -w "trace:$recording,experiment=reader" -w "trace:$recording,experiment=writer" \
      -o "$work/${order//>/-}-$mode" > /dev/null
  done
done
/usr/bin/python3 - "$work" > "$work/table.md" <<'PY'
import csv, json, sys
work = sys.argv[1]

def rows(name):
    with open(f"{work}/{name}/io.csv") as f:
        return sorted(tuple(r.values()) for r in csv.DictReader(f))

def figures(name):
    s = json.load(open(f"{work}/{name}/summary.json"))
    t = {e["name"]: e["runs"][0] for e in s["experiments"]}
    with open(f"{work}/{name}/io.csv") as f:
        ends = [float(r["submit_us"]) + float(r["rt_us"]) for r in csv.DictReader(f)]
    return t, max(ends) / 1e6

same = rows("recorded") == rows("fifo-dependent")
print("Measured by `bench/scripts/resimulate.sh build/sim/ssdlab WORKDIR --docs "
      "docs/reference/trace-formats.md` (`configs/agrawal-baseline.toml` after a random fill; "
      "the recording: a reader of 5,000 4 KiB reads at queue depth 1 with 100 us between a "
      "completion and the next read, beside 40,000 4 KiB random writes at queue depth 8, under "
      "FIFO dispatch). The dependent replay under FIFO gives the recording's rows back: "
      f"**{'yes' if same else 'no'}**.\n")
print("| dispatch order | replay | reader mean / p99 us | reader I/Os per s | "
      "writer mean / p99 us | last completion s |")
print("|---|---|---|---|---|---|")
t, end = figures("recorded")
r, w = t["reader"], t["writer"]
print(f"| fifo | (the recording) | {r['mean_us']:.0f} / {r['p99_us']:.0f} | {r['iops']:.0f} | "
      f"{w['mean_us']:.0f} / {w['p99_us']:.0f} | {end:.2f} |")
for order in ("fifo", "read-write-cleaning", "fewest-queued"):
    for mode in ("open", "dependent"):
        t, end = figures(f"{order}-{mode}")
        r, w = t["reader"], t["writer"]
        print(f"| {order} | {mode} | {r['mean_us']:.0f} / {r['p99_us']:.0f} | {r['iops']:.0f} | "
              f"{w['mean_us']:.0f} / {w['p99_us']:.0f} | {end:.2f} |")
print()
PY
cat "$work/table.md"
if [[ -n $docs ]]; then
  /usr/bin/python3 bench/scripts/docs-block.py "$docs" resimulate < <(echo; cat "$work/table.md")
fi
