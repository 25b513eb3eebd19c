#!/usr/bin/env bash
# The figures of docs/dftl-and-cleaning-policies.md ("Scope and granularity",
# issue 26): cleaning scope (pool, plane) x granularity (until-mark,
# one-victim, incremental with 1 and 4 page moves per page written) on
# configs/agrawal-baseline.toml.
#  1. Open loop: bench/scripts/open-loop-writes.py's trace (4-12 KiB writes
#     over the first 3.35 GiB, 0-1 ms apart), replayed after a sequential
#     fill (every logical page mapped). The first WARM writes bring the device
#     to steady cleaning; response times are of the rest, erase gaps of the
#     timeline's last 50 simulated seconds, write amplification of the
#     measured writes alone (cleaning-figures.py).
#  2. Closed loop, queue depth 1: 200,000 random 4 KiB writes after a random
#     precondition: mean response time and the run's wall and CPU time.
#   bench/scripts/cleaning-granularity.sh [BINARY [OUTDIR]]
set -euo pipefail
cd "$(dirname "$0")/../.."
binary=${1:-build/sim/ssdlab}
out=${2:-out/cleaning-granularity}
warm=${WARM:-600000}
measure=${MEASURE:-600000}
closed=${CLOSED:-200000}
mkdir -p "$out"
/usr/bin/python3 bench/scripts/open-loop-writes.py --count $((warm + measure)) > "$out/trace.csv"
# Simulated time of the last write (MSR ticks of 100 ns from the first record).
end_us=$(/usr/bin/python3 -c 'import sys; l=open(sys.argv[1]).read().split("\n"); print((int(l[-2].split(",")[0]) - int(l[0].split(",")[0])) // 10)' "$out/trace.csv")
window="$((end_us - 50000000)):$end_us"
settings=("pool until-mark" "pool one-victim" "pool incremental 1" "pool incremental 4"
          "plane until-mark" "plane one-victim" "plane incremental 1" "plane incremental 4")
for setting in "${settings[@]}"; do
  read -r scope granularity pages <<< "$setting"
  name="$scope-$granularity${pages:+-$pages}"
  sets=(--set "ftl.clean_scope=\"$scope\"" --set "ftl.clean_granularity=\"$granularity\"")
  [[ -n "${pages:-}" ]] && sets+=(--set "ftl.clean_incremental_pages=$pages")
  "$binary" sim -c configs/agrawal-baseline.toml --precondition seq -w "trace:$out/trace.csv" \
    -o "$out/$name" -q "${sets[@]}" --timeline "$out/$name/timeline.json" \
    --timeline-window "$window" > /dev/null
  "$binary" sim -c configs/agrawal-baseline.toml --precondition seq \
    -w "trace:$out/trace.csv,limit=$warm" -o "$out/$name-warm" -q --no-io-log "${sets[@]}" > /dev/null
  printf 'open loop   %-22s ' "$name"
  /usr/bin/python3 bench/scripts/cleaning-figures.py "$out/$name" --skip "$warm" --warm "$out/$name-warm"
  rm -f "$out/$name/timeline.json"
  "$binary" sim -c configs/agrawal-baseline.toml --precondition random \
    -w "RW:io_size=4096,count=$closed" -o "$out/$name-qd1" -q --no-io-log "${sets[@]}" \
    > "$out/$name-qd1.txt"
  /usr/bin/python3 - "$name" "$out/$name-qd1/summary.json" "$out/$name-qd1.txt" <<'PY'
import json, re, sys
run = json.load(open(sys.argv[2]))["experiments"][0]["runs"][0]
speed = re.search(r"in ([0-9.]+) s of wall time .*, ([0-9.]+) s of CPU time", open(sys.argv[3]).read())
print(f"closed qd1  {sys.argv[1]:<22} mean {run['mean_us']:.1f} us  p99 {run['p99_us']:.1f} us"
      f"  WA {run['device']['write_amplification']:.4f}  wall {speed.group(1)} s  CPU {speed.group(2)} s")
PY
done
