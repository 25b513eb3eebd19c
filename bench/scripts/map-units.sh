#!/usr/bin/env bash
# 4 KiB random writes on the TLC preset (configs/tlc-client.toml, 16 KiB
# flash pages) mapped in whole pages (ftl.logical_page_size = 16 KiB, the
# preset) against 4 KiB map units (docs/model.md "Map units"), each
# preconditioned with random writes: write amplification by pages (units)
# and by bytes, the model's IOPS, and the simulator's speed (simulated I/Os
# per CPU second of the measured run from the stored state, io.csv on).
#
#   bench/scripts/map-units.sh SSDLAB OUTDIR [SCALE] [COUNT]
#
# SCALE: "tenth" (the default: blocks_per_plane = 137 and the SLC cache
# a tenth, as issue 58's command) or "full"; COUNT: writes measured
# (default 200000), at queue depth 32 after the precondition. BUFFERS (in
# the environment): the write buffers to try, default "0 32MiB".
set -euo pipefail
[[ $# -ge 2 ]] || { echo "usage: $0 SSDLAB OUTDIR [tenth|full] [COUNT]" >&2; exit 2; }
B=$1 OUT=$2 SCALE=${3:-tenth} COUNT=${4:-200000}
HERE=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$OUT"
size=()
[[ $SCALE == tenth ]] && size=(--set geometry.blocks_per_plane=137 --set slc_cache.size_gib=3.921 --set slc_cache.static_gib=0.559)

echo "| mapping | write buffer | WA (pages) | WA (bytes) | padding pages | model IOPS | simulated I/Os per CPU s |"
echo "|---|---|---|---|---|---|---|"
for unit in 16KiB 4KiB; do
  for buffer in ${BUFFERS:-0 32MiB}; do
    dir=$OUT/$unit-buffer-$buffer
    sets=("${size[@]}" --set ftl.logical_page_size=$unit)
    [[ $buffer != 0 ]] && sets+=(--set controller.write_buffer=$buffer)
    # The first run preconditions and stores the state; the timed one
    # starts from it (state cache), so its CPU time is the run's (and the
    # state's load).
    "$B" sim -c "$HERE/configs/tlc-client.toml" "${sets[@]}" --precondition random \
      -w "RW:io_size=4KiB,count=1000" -o "$dir-warm" -q --no-io-log >"$dir-warm.log"
    /usr/bin/time -f '%U %S' -o "$dir.time" \
      "$B" sim -c "$HERE/configs/tlc-client.toml" "${sets[@]}" --precondition random \
      -w "RW:io_size=4KiB,count=$COUNT,queue_depth=32" -o "$dir" -q >"$dir.log"
    python3 - "$dir" "$unit" "$buffer" <<'EOF'
import json, sys
d, unit, buffer = sys.argv[1:]
s = json.load(open(d + "/summary.json"))
run = s["experiments"][0]["runs"][0]
dev = run["device"]
user, system = map(float, open(d + ".time").read().split()[-2:])
assert s["precondition"]["state_cache"] == "hit", "the timed run did not start from the stored state"
cpu = user + system
wa = dev.get("write_amplification")
wab = dev.get("write_amplification_bytes")
fmt = lambda x: "-" if x is None else f"{x:.2f}"
print(f"| {'4 KiB units' if unit == '4KiB' else '16 KiB pages'} | {buffer} | {fmt(wa)} | {fmt(wab)} | "
      f"{dev['padding_pages']} | {run['iops']:.0f} | {run['count'] / cpu:,.0f} |")
EOF
  done
done
