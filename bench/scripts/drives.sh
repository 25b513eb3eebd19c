#!/usr/bin/env bash
# The presets of today's drives against what was published for the drives
# they name (issue 53 item 7; the drives review,
# shared/reviews/drives-2026-11-29.md): the review's workloads on the fresh
# presets, each row's model figure beside the published one, its source
# (docs/current-devices.md, "Sources") and the ratio model / published.
#
#   bench/scripts/drives.sh SSDLAB OUTDIR [--docs FILE | --check]
#
# A row is within 15% when its ratio lies in [0.85, 1.15]; a row with two
# published figures (a spec and a measurement) when the model lies between
# 0.85 x the lower and 1.15 x the higher. "input" marks a row whose figure
# a preset parameter was derived from, "fitted" one a parameter was fitted
# to: either checks the derivation, not the model, and is no check of it.
# The last two columns run the same row with the parts of issue 53 off (map
# units, the packing buffer, codeword reads and the cores' time; the link
# stays): the presets before they
# were rebuilt on those parts (PARTS_OFF_<preset> in the environment
# replaces the --set options of a preset).
# The SLC cache's size and the speed after it are slc-cliff.sh's rows.
#
# Prints a Markdown table; with --docs, also puts it in FILE between
# <!-- drives results --> and <!-- end drives results -->; with --check,
# exits 1 if a row marked as held (a check, within 15% on the preset today)
# is not.
set -euo pipefail
usage() { echo "usage: $0 SSDLAB OUTDIR [--docs FILE | --check]" >&2; exit 2; }
B=${1:-} OUT=${2:-} DOCS= CHECK=
case "$#:${3:-}" in
  2:) ;;
  3:--check) CHECK=1 ;;
  4:--docs) DOCS=$4 ;;
  *) usage ;;
esac
HERE=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$OUT"
off() {  # the issue-53 parts off, for a preset of PAGE-byte flash pages
  echo "--set ftl.logical_page_size=$1 --set controller.write_buffer=0 --set timing.read_transfer=page --set controller.firmware.write_us=0"
}
PARTS_OFF_tlc_client_nvme=${PARTS_OFF_tlc_client_nvme:-$(off 16KiB)}
PARTS_OFF_qlc=${PARTS_OFF_qlc:-$(off 32KiB)}

# name | preset | workload | metric (iops or mbps) | published low | high | sources | held
# (held: a check row within 15% today; --check fails if it leaves). A
# reviewer's "QDn" runs its threads' queues at once: KitGuru's 4K tests run
# four threads at each queue depth [S13], so its rows run 4 x n writes at once.
ROWS=(
  "4 KiB random read QD1|tlc-client-nvme|RR:io_size=4KiB,count=20000,queue_depth=1,target_size=16GiB|iops|19000|19000|S1 (spec)|held"
  "4 KiB random read QD32|tlc-client-nvme|RR:io_size=4KiB,count=200000,queue_depth=32,target_size=16GiB|iops|600000|600000|S1 (spec)|-"
  "4 KiB random write QD1, in cache|tlc-client-nvme|RW:io_size=4KiB,count=20000,queue_depth=1,target_size=16GiB|iops|60000|60000|S1 (spec; fitted)|-"
  "4 KiB random write QD1 x 4 threads, in cache|tlc-client-nvme|RW:io_size=4KiB,count=20000,queue_depth=4,target_size=16GiB|iops|163140|163140|S11 (measured; 4 threads [S13])|-"
  "4 KiB random write QD32, in cache|tlc-client-nvme|RW:io_size=4KiB,count=200000,queue_depth=32,target_size=16GiB|iops|550000|550000|S1 (spec)|-"
  "4 KiB random write QD32 x 4 threads, in cache|tlc-client-nvme|RW:io_size=4KiB,count=200000,queue_depth=128,target_size=16GiB|iops|354973|354973|S11 (measured; 4 threads [S13])|held"
  "128 KiB sequential read QD32|tlc-client-nvme|SR:io_size=128KiB,count=40000,queue_depth=32,target_size=16GiB|mbps|3500|3500|S1 (spec)|held"
  "128 KiB sequential write QD32, in cache|tlc-client-nvme|SW:io_size=128KiB,count=40000,queue_depth=32|mbps|3300|3300|S1 (spec; input)|held"
  "4 KiB random read QD32|qlc|RR:io_size=4KiB,count=200000,queue_depth=32,target_size=16GiB|iops|160000|220000|Q10 (measured), Q1 (spec)|held"
  "4 KiB random write QD32, in cache|qlc|RW:io_size=4KiB,count=200000,queue_depth=32,target_size=16GiB|iops|220000|220000|Q1 (spec; fitted)|-"
  "4 KiB random write QD32, in cache|qlc|RW:io_size=4KiB,count=200000,queue_depth=32,target_size=16GiB|iops|240000|240000|Q10 (measured)|held"
  "128 KiB sequential read QD32|qlc|SR:io_size=128KiB,count=40000,queue_depth=32,target_size=16GiB|mbps|1800|1900|Q1 (spec), Q10 (measured)|-"
  "128 KiB sequential write QD32, in cache|qlc|SW:io_size=128KiB,count=40000,queue_depth=32|mbps|1800|1800|Q1 (spec; input)|held"
)
failed=0
figure() {  # summary.json's IOPS or MB/s (decimal) of the run's one experiment
  python3 - "$1/summary.json" "$2" <<'EOF'
import json, sys
run = json.load(open(sys.argv[1]))["experiments"][0]["runs"][0]
print(run["iops"] if sys.argv[2] == "iops" else run["mb_per_s"])
EOF
}

table="| preset | workload | published | source | model | ratio | parts off | ratio |
|---|---|---|---|---|---|---|---|"
i=0
for row in "${ROWS[@]}"; do
  IFS='|' read -r name preset workload metric low high source held <<<"$row"
  i=$((i + 1))
  got=()
  for variant in preset off; do
    dir=$OUT/$i-$preset-$variant
    sets=()
    if [[ $variant == off ]]; then
      var=PARTS_OFF_${preset//-/_}
      read -r -a sets <<<"${!var}"
    fi
    "$B" sim -c "$HERE/configs/$preset.toml" "${sets[@]}" -w "$workload" -o "$dir" -q \
      --no-io-log --no-state-cache >"$dir.log"
    got+=("$(figure "$dir" "$metric")")
  done
  table+=$'\n'$(python3 - "$preset" "$name" "$metric" "$low" "$high" "$source" "${got[@]}" <<'EOF'
import sys
preset, name, metric, low, high, source, *got = sys.argv[1:]
low, high = float(low), float(high)
unit = "IOPS" if metric == "iops" else "MB/s"
published = f"{low:,.0f}" if low == high else f"{low:,.0f} – {high:,.0f}"
def ratio(g):
    inside = 0.85 * low <= g <= 1.15 * high
    r = f"{g / low:.2f}" if low == high else f"{g / low:.2f} – {g / high:.2f}"
    return f"**{r}**" if inside else r
cells = [f"{float(g):,.0f}" for g in got]
print(f"| `{preset}` | {name} | {published} {unit} | {source} | {cells[0]} | "
      f"{ratio(float(got[0]))} | {cells[1]} | {ratio(float(got[1]))} |")
EOF
)
  if [[ $held == held ]] && ! python3 -c 'import sys; g, l, h = map(float, sys.argv[1:]); sys.exit(not 0.85 * l <= g <= 1.15 * h)' "${got[0]}" "$low" "$high"; then
    echo "FAIL: $preset $name: ${got[0]}, more than 15% from $low - $high" >&2
    failed=1
  fi
done
echo "$table"

if [[ -n $DOCS ]]; then
  printf '\nMeasured by `bench/scripts/drives.sh build/sim/ssdlab OUTDIR --docs %s` (the fresh presets; figures from summary.json; MB/s decimal). Parts off: `%s` (TLC; QLC the same with `32KiB`). Ratio in bold: within 15%% (of the range, for two published figures).\n\n%s\n' \
    "$DOCS" "$(off 16KiB)" "$table" | python3 "$HERE/bench/scripts/docs-block.py" "$DOCS" drives
fi
[[ -z $CHECK ]] || exit $failed
