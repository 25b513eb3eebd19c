#!/usr/bin/env bash
# The trace-replay table of docs/performance.md: replays synthetic MSR traces
# (make-msr-trace.py) of each length with --no-io-log, once with the default
# limit of exact samples and once with a small one, and prints one Markdown
# row per run: lines, --exact-samples, percentile_method, requests per CPU
# second (as ssdlab prints it), peak RSS (/usr/bin/time).
#   bench/scripts/replay-figures.sh SSDLAB [SMALL_LIMIT] [LINES...]
# defaults: SMALL_LIMIT 100000, LINES 1000000 10000000. Traces go to a
# temporary folder (0.5 GB per 10 M lines), removed at the end.
set -euo pipefail
bin=$(realpath "$1") small=${2:-100000}
shift $(($# < 2 ? $# : 2))
lines=("$@")
[ ${#lines[@]} -gt 0 ] || lines=(1000000 10000000)
cd "$(dirname "$0")/../.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "# $(date -u +%Y-%m-%dT%H:%MZ) $(uname -n) $(nproc) cores, load $(cut -d' ' -f1 /proc/loadavg)"
echo "| lines | --exact-samples | percentile_method | requests per CPU second | peak RSS |"
echo "|---|---|---|---|---|"
for n in "${lines[@]}"; do
  bench/scripts/make-msr-trace.py "$n" "$work/trace.csv"
  for limit in default "$small"; do
    extra=()
    [ "$limit" = default ] || extra=(--exact-samples "$limit")
    /usr/bin/time -o "$work/time" -f "%M" "$bin" sim -c configs/agrawal-baseline.toml \
      -w "trace:$work/trace.csv" --no-io-log -q "${extra[@]}" -o "$work/out" > "$work/log" 2>&1
    rate=$(grep -o '([0-9]* per CPU second)' "$work/log" | tr -dc '0-9')
    method=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['experiments'][0]['runs'][0]['percentile_method'])" "$work/out/summary.json")
    printf '| %s | %s | %s | %.2f M | %.0f MB |\n' "$n" "$limit" "$method" \
      "$(echo "$rate / 1000000" | bc -l)" "$(echo "$(cat "$work/time") / 1000" | bc -l)"
  done
done
