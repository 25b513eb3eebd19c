#!/usr/bin/env bash
# The table of docs/model.md ("Program/erase suspend"): read tail latency with
# and without timing.suspend, on a preset with long erases (1.5 ms), its dies
# taking reads first (controller.dispatch_order "read>write>cleaning": with
# fifo, a read's tail is the cleaning queued ahead of it, which suspend does
# not shorten), under random 4 KiB reads and
# writes mixed half and half at queue depth 8 on a preconditioned (full)
# device, so that cleaning erases and programs keep dies busy.
# Prints read p50/p99/p99.9 (from io.csv) and the suspensions (summary.json):
# suspend off, on with the defaults, and on with the former serial NOR figures.
#   bench/scripts/suspend-tail.sh [BINARY [CONFIG [COUNT]]]
set -euo pipefail
cd "$(dirname "$0")/../.."
binary=${1:-build/sim/ssdlab} config=${2:-configs/agrawal-baseline.toml} count=${3:-40000}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
workload="RW:io_size=4096,count=$count,read_share=0.5,queue_depth=8"
order='controller.dispatch_order="read>write>cleaning"'
echo "$config, $order, $workload, precondition random"
# Off; on with the defaults (NAND-class: flash/suspend.h); on with the serial
# NOR figures the model had before (22 us to suspend, 22 to resume, no
# interval between suspensions).
declare -A sets=([false]="timing.suspend=false" [true]="timing.suspend=true"
  [nor-22us]="timing.suspend=true timing.suspend_us=22 timing.resume_us=22 timing.suspend_min_interval_us=0")
for suspend in false true nor-22us; do
  args=()
  for set in ${sets[$suspend]}; do args+=(--set "$set"); done
  "$binary" sim -c "$config" --precondition random -w "$workload" \
    --set "$order" "${args[@]}" -o "$work/$suspend" -q > /dev/null
  /usr/bin/python3 - "$suspend" "$work/$suspend" <<'PY'
import csv, json, sys
reads = sorted(float(row["rt_us"]) for row in csv.DictReader(open(sys.argv[2] + "/io.csv"))
               if row["mode"] == "R")
pick = lambda q: reads[min(len(reads) - 1, int(q * len(reads)))]
device = json.load(open(sys.argv[2] + "/summary.json"))["experiments"][0]["runs"][0]["device"]
suspensions = (f"{device['program_suspensions']} program, {device['erase_suspensions']} erase"
               if "program_suspensions" in device else "-")
print(f"suspend {sys.argv[1]:8}: {len(reads)} reads, p50 {pick(0.5):8.1f} us, "
      f"p99 {pick(0.99):8.1f} us, p99.9 {pick(0.999):8.1f} us; "
      f"erases {device['erases']}; suspensions {suspensions}")
PY
done
