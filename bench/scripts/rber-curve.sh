#!/usr/bin/env bash
# The raw bit error rate the simulator draws (docs/errors.md), against P/E
# cycles and retention: on the tiny TLC device (a 4 KiB page is one 4 KiB
# codeword), the mean bit errors of 4,000 reads per point over the bits of a
# codeword, beside Equation 1 of Kim, Choi and Min (FAST 2019) with the TLC
# set, computed here apart from the simulator's code.
#
#   bench/scripts/rber-curve.sh SSDLAB OUTDIR [--docs FILE]
set -euo pipefail
usage() { echo "usage: $0 SSDLAB OUTDIR [--docs FILE]" >&2; exit 2; }
[[ $# -eq 2 || ( $# -eq 4 && $3 == --docs ) ]] || usage
B=$1 OUT=$2 DOCS=${4:-}
HERE=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$OUT"
table="| P/E cycles | retention (days) | equation | simulated | ratio |
|---|---|---|---|---|"
for pe in 0 1000 3000; do
  for days in 0 30 365; do
    dir=$OUT/rber-$pe-$days
    # A limit no read reaches: every read decodes at its first read.
    "$B" sim -c "$HERE/configs/tiny-tlc.toml" --set errors.correctable_bits=100000 \
      --age "pe=$pe,retention=${days}d" --precondition seq \
      -w 'RR:io_size=4KiB,count=4000' -o "$dir" -q --no-io-log --no-state-cache >"$dir.log"
    table+=$'\n'$(python3 - "$pe" "$days" "$dir/summary.json" <<'PYEOF'
import json, sys
pe, days, path = float(sys.argv[1]), float(sys.argv[2]), sys.argv[3]
d = json.load(open(path))["device"]
simulated = d["read_error_mean_bit_errors"] / 32768
# Equation 1 with the TLC set; the reads term is below 1e-9 here.
equation = (1.48e-3 + 3.90e-10 * pe ** 2.05 + 6.28e-5 * pe ** 0.14 * days ** 0.54)
print(f"| {pe:.0f} | {days:.0f} | {equation:.3e} | {simulated:.3e} | {simulated / equation:.3f} |")
PYEOF
)
  done
done
echo "$table"
if [[ -n $DOCS ]]; then
  python3 "$HERE/bench/scripts/docs-block.py" "$DOCS" rber-curve <<<"$table"
fi
