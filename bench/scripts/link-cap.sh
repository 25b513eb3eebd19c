#!/usr/bin/env bash
# The host link's cap on sequential throughput (docs/model.md, "The host link
# and firmware time"): 128 KiB sequential reads, then writes, at queue depth
# 32 on a preset, without a link and behind PCIe gen3 x4 and gen3 x1; prints
# per link the data rate `ssdlab config` gives it and the throughput of each
# run (bytes over the time from the first submission to the last
# completion, from io.csv).
#   bench/scripts/link-cap.sh [PRESET] [OUTDIR] [--count N]
# PRESET defaults to configs/tlc-client.toml, OUTDIR to a temporary folder,
# N (I/Os per run) to 4000. SSDLAB names the binary (default build/sim/ssdlab).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
preset=configs/tlc-client.toml outdir="" count=4000
positional=()
while [[ $# -gt 0 ]]; do
  case $1 in
    --count) count=$2; shift 2 ;;
    -h|--help) sed -n '2,11p' "$0"; exit 0 ;;
    *) positional+=("$1"); shift ;;
  esac
done
[[ ${#positional[@]} -ge 1 ]] && preset=${positional[0]}
[[ ${#positional[@]} -ge 2 ]] && outdir=${positional[1]}
[[ -z $outdir ]] && outdir=$(mktemp -d)
ssdlab=${SSDLAB:-$root/build/sim/ssdlab}
cd "$root"
mkdir -p "$outdir"
throughput() {  # io.csv: MB/s (10^6 bytes per second)
  /usr/bin/python3 - "$1" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
first = min(float(r["submit_us"]) for r in rows)
last = max(float(r["submit_us"]) + float(r["rt_us"]) for r in rows)
print(f"{sum(int(r['size']) for r in rows) / (last - first):.0f}")
PY
}
echo "link-cap: $preset, $count sequential reads and writes of 128 KiB at queue depth 32"
printf '%-10s %18s %12s %12s\n' link "link data MB/s" "read MB/s" "write MB/s"
for link in none gen3x4 gen3x1; do
  sets=()
  rate="-"
  config=$preset
  if [[ $link == none ]]; then  # the preset without its [host.link] table, if it has one
    config=$outdir/no-link.toml
    /usr/bin/python3 - "$preset" > "$config" <<'PY'
import re, sys
skip = False
for line in open(sys.argv[1]):
    if re.match(r"\s*\[", line):
        skip = line.strip() == "[host.link]"
    if not skip:
        sys.stdout.write(line)
PY
  else
    generation=${link:3:1} lanes=${link#*x}
    sets=(--set "host.link.generation=$generation" --set "host.link.lanes=$lanes")
    rate=$("$ssdlab" config "$preset" "${sets[@]}" | sed -n 's/.* MB\/s on the wire, \([0-9]*\) MB\/s of data.*/\1/p')
  fi
  results=()
  for pattern in SR SW; do
    run=$outdir/$link-$pattern
    "$ssdlab" sim -c "$config" "${sets[@]}" --no-state-cache \
      -w "$pattern:io_size=131072,count=$count,queue_depth=32" -o "$run" > "$run.log"
    results+=("$(throughput "$run/io.csv")")
  done
  printf '%-10s %18s %12s %12s\n' "$link" "$rate" "${results[0]}" "${results[1]}"
done
