#!/usr/bin/env bash
# The figures of docs/performance.md "Preconditioning, the state cache and
# the block FTLs' memory": preconditioning speed by thread count, byte
# identity of the state across thread counts, the end-to-end run cold and
# from the state cache, and the block-based FTLs' bytes per physical page
# before (OLD_BINARY) and after (NEW_BINARY). Prints Markdown. Wall times
# are the minimum of RUNS runs (default 3): the machine may be shared.
#   bench/scripts/precondition-figures.sh OLD_BINARY NEW_BINARY [RUNS]
set -euo pipefail
old=$(realpath "$1") new=$(realpath "$2") runs=${3:-3}
cd "$(dirname "$0")/../.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export XDG_CACHE_HOME="$work/cache"  # never the user's cache
base=configs/agrawal-baseline.toml

# min_wall CMD...: the least wall seconds of $runs runs of CMD.
min_wall() {
  local best=
  for _ in $(seq "$runs"); do
    local s
    /usr/bin/time -o "$work/time" -f "%e" "$@" >/dev/null 2>&1
    s=$(tail -1 "$work/time")
    best=$(python3 -c "print(min(float('$s'), float('${best:-1e9}')))")
  done
  echo "$best"
}
# json FILE EXPR: a value of summary.json.
json() { python3 -c "import json,sys; s=json.load(open('$1')); print($2)"; }

echo "Machine: $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) cores, $(free -g | awk '/Mem:/{print $2}') GiB;" \
     "$(date -u +%Y-%m-%d); load average $(cut -d' ' -f1-3 /proc/loadavg) at the start."
echo
echo "Preconditioning (\`--precondition random\`, agrawal-baseline, best of $runs):"
echo
echo "| binary | threads | flash pages | wall s | flash pages per wall s | process CPU s |"
echo "|---|---|---|---|---|---|"
# precondition_row LABEL THREADS BINARY ARGS...: the run of $runs with the
# highest rate; CPU: user + system seconds of that whole process.
precondition_row() {
  local label=$1 t=$2 bin=$3 best=0 row=
  shift 3
  for _ in $(seq "$runs"); do
    /usr/bin/time -o "$work/time" -f "%U %S" "$bin" sim -c $base --precondition random "$@" \
      -w RW:count=1 --no-io-log -q -o "$work/p" >/dev/null 2>&1
    cpu=$(tail -1 "$work/time")
    rate=$(json "$work/p/summary.json" "s['precondition']['flash_pages_per_second']")
    if python3 -c "import sys; sys.exit(not $rate > $best)"; then
      best=$rate
      row="| $label | $t | $(json "$work/p/summary.json" "s['precondition']['flash_pages_written']") |"
      row="$row $(json "$work/p/summary.json" "s['precondition']['wall_seconds']") |"
      row="$row $(python3 -c "print(f'{$rate/1e6:.1f} M')") |"
      row="$row $(python3 -c "print(f'{sum(map(float, \"$cpu\".split())):.2f}')") |"
    fi
  done
  echo "$row"
}
# An old binary with a state cache must not use it (nor the new one's).
old_cold=()
old_help=$("$old" sim --help 2>&1 || true)
[[ "$old_help" == *--no-state-cache* ]] && old_cold=(--no-state-cache)
precondition_row old default "$old" "${old_cold[@]}"
for t in 1 2; do precondition_row new $t "$new" --no-state-cache --precondition-threads $t; done
echo
echo "State after preconditioning, saved with \`--save-state\` (checkpoint bytes compared with cmp):"
echo
for t in 1 2 4; do
  "$new" sim -c $base --precondition random --no-state-cache --precondition-threads $t \
    --save-state "$work/state-$t" -q -o "$work/s" >/dev/null
done
"$old" sim -c $base --precondition random --save-state "$work/state-old" -q -o "$work/s" >/dev/null
for t in 2 4; do
  cmp -s "$work/state-1" "$work/state-$t" && same=identical || same=DIFFERENT
  echo "- 1 thread vs $t threads: $same ($(stat -c %s "$work/state-$t") bytes)"
done
# The old binary's file differs in its info block (provenance): compare the state.
python3 - "$work/state-1" "$work/state-old" <<'PY'
import struct, sys
def state(path):
    data = open(path, "rb").read()
    state_bytes, = struct.unpack("<Q", data[12:20])
    info_bytes, = struct.unpack("<I", data[20:24])
    return data[24 + info_bytes:24 + info_bytes + state_bytes]
same = "identical" if state(sys.argv[1]) == state(sys.argv[2]) else "DIFFERENT"
print(f"- new (1 thread) vs old binary (serial), state sections: {same}")
PY
echo
echo "End to end, \`--precondition random -w 'RW:io_size=4096,count=1000000'\` with io.csv (best of $runs):"
echo
e2e=(sim -c $base --precondition random -w RW:io_size=4096,count=1000000 -q -o "$work/e")
echo "| run | wall s |"
echo "|---|---|"
echo "| old binary | $(min_wall "$old" "${e2e[@]}" "${old_cold[@]}") |"
echo "| new, cold (\`--no-state-cache\`) | $(min_wall "$new" "${e2e[@]}" --no-state-cache) |"
"$new" "${e2e[@]}" >/dev/null  # fills the cache
cp "$work/e/io.csv" "$work/cold.csv"
echo "| new, from the state cache | $(min_wall "$new" "${e2e[@]}") |"
cmp -s "$work/e/io.csv" "$work/cold.csv" && same=identical || same=DIFFERENT
echo
echo "io.csv of the cached run vs the run that preconditioned: $same."
echo
echo "Bytes per physical page (agrawal-1tib, 2^28 pages, fresh, 100 000 random writes, --no-io-log;"
echo "peak RSS less the same binary's peak RSS on tiny):"
echo
bench/scripts/ftl-memory.sh "$old" "$new" block-mapped bast fast
