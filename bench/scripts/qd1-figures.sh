#!/usr/bin/env bash
# The queue-depth-1 speed figures of docs/performance.md, for two builds side
# by side: random 4 KiB writes on agrawal-baseline after --precondition random
# (2 M with io.csv, 1 M with --no-io-log), each cleaning granularity with
# --no-io-log, and the replay of a 2 M-line synthetic MSR trace
# (make-msr-trace.py) with --no-io-log. Runs alternate between the builds
# (this VM's speed drifts over minutes); each row prints the I/Os per CPU
# second ssdlab reports, min-max and median of RUNS runs.
#   bench/scripts/qd1-figures.sh OLD_SSDLAB NEW_SSDLAB [RUNS]
# RUNS defaults to 5. The preconditioned state comes from the state cache
# (the first run fills it); the trace goes to a temporary folder.
set -euo pipefail
old=$(realpath "$1") new=$(realpath "$2") runs=${3:-5}
cd "$(dirname "$0")/../.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
bench/scripts/make-msr-trace.py 2000000 "$work/trace.csv"

rate() {  # BINARY ARGS...: one run's I/Os per CPU second
  local bin=$1
  shift
  "$bin" sim -c configs/agrawal-baseline.toml --log-level info -o "$work/out" "$@" 2>&1 |
    grep -o '([0-9]* per CPU second)' | tr -dc '0-9'
}

summary() {  # RATES...: "min-max M (median M)"
  printf '%s\n' "$@" | sort -n | awk '{ r[NR] = $1 } END {
    printf "%.2f-%.2f M (median %.2f M)", r[1] / 1e6, r[NR] / 1e6, r[int((NR + 1) / 2)] / 1e6 }'
}

row() {  # NAME ARGS...
  local name=$1 olds=() news=()
  shift
  for _ in $(seq "$runs"); do
    olds+=("$(rate "$old" "$@")")
    news+=("$(rate "$new" "$@")")
  done
  printf '| %s | %s | %s |\n' "$name" "$(summary "${olds[@]}")" "$(summary "${news[@]}")"
}

echo "# $(date -u +%Y-%m-%dT%H:%MZ) $(uname -n) $(nproc) cores, $(lscpu | sed -n 's/^Model name: *//p'), $runs runs each"
echo "# old: $old  new: $new"
echo "| I/Os per CPU second | old | new |"
echo "|---|---|---|"
random=(--precondition random -w 'RW:io_size=4096,count=2000000')
row "2 M writes, io.csv" "${random[@]}"
row "1 M writes, --no-io-log" --precondition random -w 'RW:io_size=4096,count=1000000' --no-io-log
for granularity in until-mark one-victim incremental; do
  row "1 M writes, --no-io-log, $granularity" --precondition random \
    -w 'RW:io_size=4096,count=1000000' --no-io-log --set "ftl.clean_granularity=$granularity"
done
row "replay, 2 M-line MSR trace, --no-io-log" -w "trace:$work/trace.csv" --no-io-log
