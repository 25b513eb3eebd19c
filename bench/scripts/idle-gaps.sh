#!/usr/bin/env bash
# The figure of docs/model.md ("One host loop"): a bursty trace on
# agrawal-background-cleaning, where the gaps between bursts are idle periods
# in which the device cleans in the background. Prints response times and
# the foreground/background cleaning split for each binary given (e.g. a
# build before and after a change).
#   bench/scripts/idle-gaps.sh BINARY [BINARY...]
set -euo pipefail
cd "$(dirname "$0")/../.."
work=$(mktemp -d)
# 200,000 random 4 KiB writes over 95% of the logical space, in bursts of
# 500 requests 100 us apart, with 200 ms between bursts (MSR format).
/usr/bin/python3 - "$work/gaps.csv" <<'PY'
import random, sys
random.seed(5)
start, t = 128166372003061629, 0
pages = int(27.2 * 2**30 / 4096 * 0.95)
with open(sys.argv[1], "w") as f:
    for k in range(200000):
        t += 1000 if k % 500 else 2_000_000  # ticks of 100 ns
        f.write(f"{start + t},hm,0,Write,{random.randrange(pages) * 4096},4096,0\n")
PY
for binary in "$@"; do
  "$binary" sim -c configs/agrawal-background-cleaning.toml --precondition random \
    -w "trace:$work/gaps.csv" -o "$work/out" --no-io-log > /dev/null
  /usr/bin/python3 - "$binary" "$work/out/summary.json" <<'PY'
import json, sys
run = json.load(open(sys.argv[2]))["experiments"][0]["runs"][0]
d = run["device"]
print(f"{sys.argv[1]}: mean {run['mean_us']:.0f} us, p99 {run['p99_us']:.1f} us, "
      f"max {run['max_us']:.1f} us; foreground cleaning {d['foreground_blocks_cleaned']} blocks "
      f"({d['foreground_cleaning_time_us'] / 1e6:.1f} s), background {d['background_blocks_cleaned']} "
      f"blocks; write amplification {d['write_amplification']:.2f}")
PY
done
rm -rf "$work"
