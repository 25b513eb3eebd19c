#!/usr/bin/env bash
# The figures of docs/cleaning-scope-and-granularity.md (issue 26): cleaning
# scope (pool, plane) x granularity (until-mark, one-victim, incremental with
# 1 and 4 page moves per page written) on configs/agrawal-baseline.toml.
#  open:   open loop: bench/scripts/open-loop-writes.py's trace (4-12 KiB
#          writes over the first 3.35 GiB, 0-1 ms apart), replayed after a
#          sequential fill (every logical page mapped). The first WARM writes
#          bring the device to steady cleaning; response times are of the
#          rest, erase gaps of the timeline's last 50 simulated seconds, write
#          amplification of the measured writes alone (cleaning-figures.py).
#  closed: closed loop, queue depth 1: CLOSED random 4 KiB writes after a
#          random precondition: response times, the work (erases, moves) and
#          the waits (closed-loop-figures.py), and ssdlab's CPU time.
#  table3: Table 3's write rows as `ssdlab reproduce agrawal` runs them
#          (repro/experiments_agrawal.cpp), with each setting: rows 3 and 4
#          (sequential and random 4 KiB writes on a fresh device), row 5
#          (sequential writes after two sequential passes) and row 6 (the
#          paper's DiskSim random writes over 3.35 GiB, open loop; IO/s closed
#          loop with 8 outstanding); mean response time at queue depth 1 (row
#          6: open loop) and IO/s with 8 outstanding.
#  speed:  the CPU time ssdlab prints for SPEED (1,000,000) random 4 KiB
#          writes at queue depth 1 after a random precondition, io.csv
#          written: the median of 3 runs, and that of until-mark cleaning in
#          the same scope (the batch mode) for comparison.
#   [PARTS="open closed table3 speed"] bench/scripts/cleaning-granularity.sh [BINARY [OUTDIR]]
set -euo pipefail
cd "$(dirname "$0")/../.."
binary=${1:-build/sim/ssdlab}
out=${2:-out/cleaning-granularity}
parts=" ${PARTS:-open closed table3 speed} "
warm=${WARM:-600000}
measure=${MEASURE:-600000}
closed=${CLOSED:-200000}
speed=${SPEED:-1000000}
mkdir -p "$out"
settings=("pool until-mark" "pool one-victim" "pool incremental 1" "pool incremental 4"
          "plane until-mark" "plane one-victim" "plane incremental 1" "plane incremental 4")
sim() { "$binary" sim -c configs/agrawal-baseline.toml -q "$@"; }

open_loop() {  # NAME SETS...
  local name=$1; shift
  sim --precondition seq -w "trace:$out/trace.csv" -o "$out/$name" "$@" \
    --timeline "$out/$name/timeline.json" --timeline-window "$window" > /dev/null
  sim --precondition seq -w "trace:$out/trace.csv,limit=$warm" -o "$out/$name-warm" --no-io-log \
    "$@" > /dev/null
  printf 'open loop   %-22s ' "$name"
  /usr/bin/python3 bench/scripts/cleaning-figures.py "$out/$name" --skip "$warm" --warm "$out/$name-warm"
  rm -f "$out/$name/timeline.json"
}

closed_loop() {  # NAME SETS...
  local name=$1; shift
  sim --precondition random -w "RW:io_size=4096,count=$closed" -o "$out/$name-qd1" "$@" \
    > "$out/$name-qd1.txt"
  printf 'closed qd1  '
  /usr/bin/python3 bench/scripts/closed-loop-figures.py "$name" "$out/$name-qd1" \
    --unloaded "$unloaded" --cpu-from "$out/$name-qd1.txt"
  rm -f "$out/$name-qd1/io.csv"
}

table3() {  # NAME SETS...
  local name=$1; shift
  local disksim="RW:io_size=4096,size_distribution=exponential:4KiB,target_size=3593678848"
  disksim+=",count=2000000,io_ignore=1000000"
  local qd
  for qd in 1 8; do
    sim -w "SW:io_size=4096,count=100000,queue_depth=$qd" -o "$out/$name-t3-row3-qd$qd" --no-io-log "$@" > /dev/null
    sim -w "RW:io_size=4096,count=100000,queue_depth=$qd" -o "$out/$name-t3-row4-qd$qd" --no-io-log "$@" > /dev/null
    sim --precondition seq:1 -w "SW:io_size=4096,count=500000,queue_depth=$qd" \
      -o "$out/$name-t3-row5-qd$qd" --no-io-log "$@" > /dev/null
  done
  sim --precondition seq -w "$disksim,interarrival_us=uniform:0:1000" -o "$out/$name-t3-row6-qd1" \
    --no-io-log "$@" > /dev/null
  sim --precondition seq -w "$disksim,queue_depth=8" -o "$out/$name-t3-row6-qd8" --no-io-log "$@" > /dev/null
  /usr/bin/python3 - "$name" "$out/$name-t3" <<'PY'
import json, sys
def run(row, qd):
    return json.load(open(f"{sys.argv[2]}-row{row}-qd{qd}/summary.json"))["experiments"][0]["runs"][0]
cells = []
for row in (3, 4, 5, 6):
    latency, iops = run(row, 1), run(row, 8)
    cells.append(f"row {row} {latency['mean_us']:7.1f} us {iops['iops']:8.0f} IO/s"
                 f" WA {latency['device']['write_amplification']:.3f}")
print(f"table 3     {sys.argv[1]:<22} " + " | ".join(cells))
PY
}

speed_of() {  # NAME SETS...
  local name=$1; shift
  local _
  for _ in 1 2 3; do
    sim --precondition random -w "RW:io_size=4096,count=$speed" -o "$out/$name-speed" "$@" \
      | sed -n 's/.*, \([0-9.]*\) s of CPU time.*/\1/p'
    rm -f "$out/$name-speed/io.csv"
  done | sort -n | sed -n 2p > "$out/$name-speed.cpu"
  local scope=${name%%-*}
  printf 'speed       %-22s median CPU %s s (until-mark in the same scope: %s s)\n' "$name" \
    "$(cat "$out/$name-speed.cpu")" "$(cat "$out/$scope-until-mark-speed.cpu")"
}

if [[ $parts == *" open "* ]]; then
  /usr/bin/python3 bench/scripts/open-loop-writes.py --count $((warm + measure)) > "$out/trace.csv"
  # Simulated time of the last write (MSR ticks of 100 ns from the first record).
  end_us=$(/usr/bin/python3 -c 'import sys; l=open(sys.argv[1]).read().split("\n"); print((int(l[-2].split(",")[0]) - int(l[0].split(",")[0])) // 10)' "$out/trace.csv")
  window="$((end_us - 50000000)):$end_us"
fi
if [[ $parts == *" closed "* ]]; then
  # The unloaded write: one 4 KiB write on an idle device.
  sim -w RW:io_size=4096,count=1 -o "$out/unloaded" --no-io-log > /dev/null
  unloaded=$(/usr/bin/python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["experiments"][0]["runs"][0]["mean_us"])' "$out/unloaded/summary.json")
fi
for part in open closed table3 speed; do
  [[ $parts == *" $part "* ]] || continue
  for setting in "${settings[@]}"; do
    read -r scope granularity pages <<< "$setting"
    name="$scope-$granularity${pages:+-$pages}"
    sets=(--set "ftl.clean_scope=\"$scope\"" --set "ftl.clean_granularity=\"$granularity\"")
    [[ -n "${pages:-}" ]] && sets+=(--set "ftl.clean_incremental_pages=$pages")
    case $part in
      open) open_loop "$name" "${sets[@]}" ;;
      closed) closed_loop "$name" "${sets[@]}" ;;
      table3) table3 "$name" "${sets[@]}" ;;
      speed) speed_of "$name" "${sets[@]}" ;;
    esac
  done
done
