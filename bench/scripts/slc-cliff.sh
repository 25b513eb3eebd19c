#!/usr/bin/env bash
# The SLC-cache write cliff of a preset of a current device
# (docs/current-devices.md): a long sequential write of 128 KiB at queue depth
# 32 on the fresh device, twice the published cache size, then from io.csv the
# throughput per slice of the bytes written, where it drops (the cliff) and
# the throughput after it, printed against the published figures the preset
# names on its line `# slc-cliff: cache_gb=C in_cache_mbps=I post_cache_mbps=P`.
#   bench/scripts/slc-cliff.sh PRESET OUTDIR [--set table.key=value]...
#     [--check TOLERANCE] [--docs FILE]
# --set goes to `ssdlab sim`; a smaller slc_cache.size_gib scales the write and
# the published cache size compared against by the same factor (a scaled
# variant, docs/current-devices.md "Scale"). --check 0.15: exit 1 when the
# cliff or the post-cache throughput is more than 15% off. --docs FILE: write
# the measured row into FILE between its `slc-cliff results` markers.
# Outputs in OUTDIR: run/ (io.csv, summary.json), cliff.csv (GB written,
# MB/s), result.json, cliff.png when python3 has matplotlib.
# SSDLAB names the binary (default build/sim/ssdlab).
set -euo pipefail
if [[ $# -lt 2 ]]; then
  sed -n '2,17p' "$0" >&2
  exit 2
fi
root=$(cd "$(dirname "$0")/../.." && pwd)
preset=$1 outdir=$2
shift 2
sets=() analysis=()
while [[ $# -gt 0 ]]; do
  case $1 in
    --set) sets+=(--set "$2"); analysis+=(--set "$2"); shift 2 ;;
    --check|--docs) analysis+=("$1" "$2"); shift 2 ;;
    *) echo "slc-cliff.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
ssdlab=${SSDLAB:-$root/build/sim/ssdlab}
python=/usr/bin/python3
script=$root/bench/scripts/slc-cliff.py
mkdir -p "$outdir"
if ! "$ssdlab" config "$preset" "${sets[@]}" > "$outdir/config.txt" 2>&1; then
  cat "$outdir/config.txt" >&2
  exit 1
fi
# The plan: how many 128 KiB writes make twice the (scaled) published cache.
count=$("$python" "$script" plan "$preset" "${analysis[@]}")
workload="SW:io_size=131072,count=$count,queue_depth=32,name=slc-cliff"
echo "slc-cliff: $preset: $count sequential writes of 128 KiB at queue depth 32"
/usr/bin/time -f "slc-cliff: simulated in %e s wall, %U s user, %M KB peak" \
  "$ssdlab" sim -c "$preset" -w "$workload" -o "$outdir/run" "${sets[@]}" > "$outdir/sim.log"
"$python" "$script" analyse "$preset" "$outdir" "${analysis[@]}"
