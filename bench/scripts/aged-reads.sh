#!/usr/bin/env bash
# Flash read errors (docs/errors.md): 4 KiB random reads at queue depth 1 on
# the QLC preset at a tenth of its size, fresh against aged, with the error
# model on. The ECC below is assumed (docs/errors.md, "The ECC of the
# examples"): no source in reach gives the 660p's.
#
#   bench/scripts/aged-reads.sh SSDLAB OUTDIR [--docs FILE]
#
# Prints a Markdown table (p50, p99, p99.9, retries per read, uncorrectable
# reads); with --docs, also puts it in FILE between <!-- aged-reads results
# --> and <!-- end aged-reads results -->.
set -euo pipefail
usage() { echo "usage: $0 SSDLAB OUTDIR [--docs FILE]" >&2; exit 2; }
[[ $# -eq 2 || ( $# -eq 4 && $3 == --docs ) ]] || usage
B=$1 OUT=$2 DOCS=${4:-}
HERE=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$OUT"

# The preset at a tenth (docs/performance.md's), its data written once.
TENTH=(--set geometry.blocks_per_plane=205 --set slc_cache.size_gib=14 --set slc_cache.static_gib=1.2)
# The error model: the TLC set (the default for QLC cells), an LDPC of 2 KiB
# codewords (the preset's timing.codeword_bytes) whose hard decision
# corrects 60 bits, eight retries that each leave 70% of the errors, then
# soft decoding of six reads that corrects 150.
ERRORS=(--set errors.correctable_bits=60 --set errors.decode_us=3
        --set errors.decode_us_per_error=0.02 --set errors.retries=8
        --set errors.retry_error_factor=0.7 --set errors.soft_reads=6
        --set errors.soft_correctable_bits=150 --set errors.soft_decode_us=25)
# label, --age
ROWS=(
  "fresh|"
  "1 month, 300 P/E|pe=300,retention=30d"
  "1 year, 800 P/E|pe=800,retention=1y"
  "3 years, 1000 P/E|pe=1000,retention=3y"
)
table="| drive | p50 us | p99 us | p99.9 us | retries per read | soft-decoded reads | uncorrectable reads |
|---|---|---|---|---|---|---|"
i=0
for row in "${ROWS[@]}"; do
  label=${row%%|*} age=${row#*|}
  dir=$OUT/aged-$i
  i=$((i + 1))
  args=()
  [[ -n $age ]] && args=(--age "$age")
  "$B" sim -c "$HERE/configs/qlc.toml" "${TENTH[@]}" "${ERRORS[@]}" "${args[@]}" \
    --precondition seq -w 'RR:io_size=4KiB,count=20000,target_size=16GiB' \
    --percentiles 50,99,99.9 -o "$dir" -q --no-io-log --no-state-cache >"$dir.log"
  table+=$'\n'$(python3 - "$label" "$dir/summary.json" <<'PYEOF'
import json, sys
label, path = sys.argv[1:]
s = json.load(open(path))
run = s["experiments"][0]["runs"][0]
d = s["device"]
print(f"| {label} | {run['p50_us']:.1f} | {run['p99_us']:.1f} | {run['p99_9_us']:.1f} | "
      f"{d['read_error_retries_per_read']:.3f} | {d['read_error_corrected_by_soft_decoding']} | "
      f"{d['read_error_uncorrectable']} |")
PYEOF
)
done
echo "$table"
if [[ -n $DOCS ]]; then
  python3 "$HERE/bench/scripts/docs-block.py" "$DOCS" aged-reads <<<"$table"
fi
