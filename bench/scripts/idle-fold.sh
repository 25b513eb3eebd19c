#!/usr/bin/env bash
# Idle folding of the SLC cache (docs/model.md, "SLC cache"): how much of the
# cache the TLC preset (configs/tlc-client.toml, the 970 EVO Plus class)
# recovers in idle time. A sequential write of 128 KiB at queue depth 32
# fills the cache (1.15 times its size), the host is idle for N seconds, and
# one more write ends the run; the cache blocks folded in the background, less
# those of the run with no idle time, are what the idle recovered (the
# fidelity review's `tlcidle` measurement, G2).
#
#   bench/scripts/idle-fold.sh SSDLAB OUTDIR [--docs FILE] [--set table.key=value]...
#
# Prints a Markdown table; with --docs, also puts it in FILE between
# <!-- idle-fold results --> and <!-- end idle-fold results -->. --set goes to
# every run (e.g. a tenth of the drive: --set geometry.blocks_per_plane=137
# --set slc_cache.size_gib=3.921 --set slc_cache.static_gib=0.559).
set -euo pipefail
source "$(dirname "$0")/docs-set-args.sh"
PRESET=$HERE/configs/tlc-client.toml

# The cache's size in bytes, from the config the runs use (one write's summary).
"$B" sim -c "$PRESET" "${sets[@]}" -w 'SW:count=1' -o "$OUT/probe" -q --no-io-log > /dev/null
cache_bytes=$(/usr/bin/python3 -c '
import json, sys
print(int(json.load(open(sys.argv[1]))["config"]["slc_cache"]["size_gib"] * 2**30))' \
  "$OUT/probe/summary.json")
count=$(( cache_bytes * 115 / 100 / 131072 ))

run() {  # IDLE_S: fill, idle, one write; prints the background folds
  local idle=$1 dir=$OUT/idle-$1
  mkdir -p "$dir"
  cat > "$dir/plan.toml" <<PLAN
[[experiment]]
name = "fill"
pattern = "SW"
io_size = "128KiB"
count = $count
queue_depth = 32

[[experiment]]
name = "after-idle"
pattern = "SW"
io_size = "128KiB"
count = 1
run_pause_us = $((idle * 1000000))
PLAN
  "$B" sim -c "$PRESET" "${sets[@]}" -w "$dir/plan.toml" -o "$dir/run" -q --no-io-log > /dev/null
  /usr/bin/python3 - "$dir/run/summary.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
c = s["slc_cache"]
page = s["config"]["ftl"]["logical_page_size"]  # the cache's pages are the FTL's (map units, if on)
print(c["blocks_folded"] - c["foreground_folds"], c["pages_per_block"] * page, c["capacity_blocks"])
PY
}

read -r base block_bytes capacity < <(run 0)
{
  echo
  echo "Measured by \`bench/scripts/idle-fold.sh build/sim/ssdlab OUTDIR --docs docs/model.md${sets[*]:+ ${sets[*]}}\`: $count sequential writes of 128 KiB at queue depth 32 on configs/tlc-client.toml (1.15 times its cache of $capacity blocks of $((block_bytes / 1048576)) MiB of SLC data), then the idle time and one more write; the blocks folded in the background, less those of the same run without idle time."
  echo
  echo "| idle | cache blocks folded | cache recovered | of the cache | rate |"
  echo "|---|---|---|---|---|"
  for idle in 1 10 60; do
    read -r folds _ _ < <(run "$idle")
    /usr/bin/python3 - "$idle" "$((folds - base))" "$block_bytes" "$capacity" <<'PY'
import sys
idle, blocks, block_bytes, capacity = (int(a) for a in sys.argv[1:])
gb = blocks * block_bytes / 1e9
rate = (f"{gb * 1000 / idle:.0f} MB/s" if blocks < capacity
        else f"all folded (at least {gb * 1000 / idle:.0f} MB/s)")
print(f"| {idle} s | {blocks} | {gb:.2f} GB | {100 * blocks / capacity:.0f}% | {rate} |")
PY
  done
  echo
} | tee "$OUT/table.md"
if [[ -n $DOCS ]]; then
  /usr/bin/python3 "$HERE/bench/scripts/docs-block.py" "$DOCS" idle-fold < "$OUT/table.md"
fi
