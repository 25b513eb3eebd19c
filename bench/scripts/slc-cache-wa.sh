#!/usr/bin/env bash
# The table of docs/model.md ("SLC cache"): what an SLC cache costs and buys
# on the tiny TLC device (configs/tiny-tlc.toml, 48 MiB of TLC), with no
# cache, a static one and a dynamic one of 4 MiB, under two workloads on the
# fresh device: a sequential fill of the whole logical space in 128 KiB
# writes, and random 4 KiB writes over it after a sequential precondition.
# Prints, per case: write amplification (flash pages over host pages, folding
# included), host pages absorbed in SLC mode, pages folded, the write p50/p99
# (io.csv) and the mean write throughput.
#   bench/scripts/slc-cache-wa.sh [BINARY [COUNT]]
set -euo pipefail
cd "$(dirname "$0")/../.."
binary=${1:-build/sim/ssdlab} count=${2:-40000}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
config=configs/tiny-tlc.toml
# The logical space in 128 KiB writes.
fill=$("$binary" config "$config" | sed -n 's/^  logical .*(\([0-9]*\) bytes).*/\1/p')
fill=$((fill / 131072))
for workload in "SW:io_size=131072,count=$fill,queue_depth=8" \
                "RW:io_size=4096,count=$count,queue_depth=8"; do
  precondition=none
  [[ $workload == RW* ]] && precondition=seq
  echo "$config, $workload, precondition $precondition"
  for cache in none static dynamic; do
    sets=(--set "slc_cache.mode=\"$cache\"")
    [[ $cache != none ]] && sets+=(--set slc_cache.size_gib=0.00390625)
    "$binary" sim -c "$config" --precondition "$precondition" -w "$workload" "${sets[@]}" \
      -o "$work/$cache" -q > /dev/null
    /usr/bin/python3 - "$cache" "$work/$cache" <<'PY'
import csv, json, sys
rows = [r for r in csv.DictReader(open(sys.argv[2] + "/io.csv")) if r["mode"] == "W"]
rt = sorted(float(r["rt_us"]) for r in rows)
pick = lambda q: rt[min(len(rt) - 1, int(q * len(rt)))]
summary = json.load(open(sys.argv[2] + "/summary.json"))
run = summary["experiments"][0]["runs"][0]
device = run["device"]
span_s = (run["end_us"] - run["start_us"]) / 1e6
mib = sum(int(r["size"]) for r in rows) / 2**20
slc = summary.get("slc_cache", {})
print(f"  {sys.argv[1]:8} WA {device['write_amplification']:5.2f}  "
      f"absorbed {slc.get('host_pages_absorbed', 0):6}  folded {slc.get('pages_folded', 0):6}  "
      f"write p50 {pick(0.5):8.1f} us  p99 {pick(0.99):8.1f} us  {mib / span_s:6.1f} MiB/s")
PY
  done
done
