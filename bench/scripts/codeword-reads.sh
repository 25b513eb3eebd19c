#!/usr/bin/env bash
# 4 KiB random reads on the presets of today's drives, whole-page reads
# against codeword reads (timing.read_transfer, docs/model.md "Codeword
# reads"), and codeword reads with independent plane reads
# (timing.independent_plane_reads, docs/model.md "Independent plane reads"),
# beside what was published for the drives the presets name
# (docs/current-devices.md, "Sources": S1 Samsung's 970 EVO Plus 1 TB spec,
# Q10 Tom's Hardware's 660p 1 TB measurement, Q1 Intel's 660p figures). The workloads are the drives
# review's: 4 KiB random reads over the first 16 GiB, at queue depth 1
# (20,000) and 32 (200,000), on the fresh preset.
#
#   bench/scripts/codeword-reads.sh SSDLAB OUTDIR [--docs FILE | --check]
#
# Prints a Markdown table; with --docs, also puts it in FILE between
# <!-- codeword-reads results --> and <!-- end codeword-reads results -->;
# with --check, exits 1 if a row marked as held (the TLC QD1 and QLC QD32
# reads) is further than 15% from its published figure with codeword reads.
# (The TLC QD32 row is not held: its dies limit it, docs/current-devices.md.)
set -euo pipefail
usage() { echo "usage: $0 SSDLAB OUTDIR [--docs FILE | --check]" >&2; exit 2; }
[[ $# -ge 2 ]] || usage
B=$1 OUT=$2 DOCS= CHECK=
shift 2
case "$*" in
  "") ;;
  --check) CHECK=1 ;;
  --docs\ *) [[ $# -eq 2 ]] || usage; DOCS=$2 ;;
  *) usage ;;
esac
HERE=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$OUT"

# preset, queue depth, count, held (within 15%), published IOPS, its source
ROWS=(
  "tlc-client-nvme 1 20000 held 19000 S1 (spec)"
  "tlc-client-nvme 32 200000 - 600000 S1 (spec)"
  "qlc 32 200000 held 160000 Q10 (measured)"
  "qlc 32 200000 - 220000 Q1 (spec)"
)
failed=0
iops() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["experiments"][0]["runs"][0]["iops"])' "$1/summary.json"; }

table="| preset | 4 KiB random read | published | page reads | codeword reads | codeword + independent plane reads | ratio |
|---|---|---|---|---|---|---|"
for row in "${ROWS[@]}"; do
  read -r preset qd count held published source <<<"$row"
  source=${row#* * * * * }
  declare -A got=()
  for variant in page codeword independent; do
    dir=$OUT/$preset-qd$qd-$variant
    sets=(--set timing.read_transfer=codeword)
    [[ $variant == page ]] && sets=(--set timing.read_transfer=page)
    [[ $variant == independent ]] && sets+=(--set timing.independent_plane_reads=true)
    "$B" sim -c "$HERE/configs/$preset.toml" "${sets[@]}" \
      -w "RR:io_size=4KiB,count=$count,queue_depth=$qd,target_size=16GiB" \
      -o "$dir" -q --no-io-log --no-state-cache >"$dir.log"
    got[$variant]=$(iops "$dir")
  done
  table+=$'\n'$(python3 - "$preset" "$qd" "$published" "$source" "${got[page]}" "${got[codeword]}" "${got[independent]}" <<'EOF'
import sys
preset, qd, published, source = sys.argv[1:5]
published, *got = (float(x) for x in [sys.argv[3]] + sys.argv[5:])
ratios = " / ".join(f"{g / published:.2f}" for g in got)
print(f"| {preset} | QD{qd} | {published:,.0f} IOPS, {source} | "
      + " | ".join(f"{g:,.0f}" for g in got) + f" | {ratios} |")
EOF
)
  if [[ $held == held ]] && ! python3 -c 'import sys; sys.exit(not 0.85 <= float(sys.argv[1]) / float(sys.argv[2]) <= 1.15)' "${got[codeword]}" "$published"; then
    echo "FAIL: $preset 4 KiB random read QD$qd: ${got[codeword]} IOPS with codeword reads, more than 15% from $published" >&2
    failed=1
  fi
  unset got
done
echo "$table"

if [[ -n $DOCS ]]; then
  printf '\nMeasured by `bench/scripts/codeword-reads.sh build/sim/ssdlab OUTDIR --docs %s` (the fresh presets; IOPS from summary.json).\n\n%s\n' \
    "$DOCS" "$table" | python3 "$HERE/bench/scripts/docs-block.py" "$DOCS" codeword-reads
fi
[[ -z $CHECK ]] || exit $failed
