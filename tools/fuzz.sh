#!/usr/bin/env bash
# Builds the libFuzzer targets with clang and runs each for SECONDS (default
# 60), starting from seed corpora made of the repository's own configs, plans,
# example traces, a saved checkpoint and sweep files. Any crash, hang
# (-timeout) or sanitizer report fails. The parsers (config, plan, trace) and
# the simulator (replay of traces, checkpoint loading, sweeps, power cuts
# among trims at queue depth above 1) each get
# SECONDS; TARGETS="replay checkpoint" runs only those.
#   tools/fuzz.sh [SECONDS]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
build=build-fuzz
CC=clang CXX=clang++ cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DSSDLAB_FUZZ=ON -DSSDLAB_BUILD_TESTS=OFF -DSSDLAB_BUILD_BENCH=OFF > /dev/null
cmake --build "$build" -j2

corpus="$build/corpus"
rm -rf "$corpus" && mkdir -p "$corpus/config" "$corpus/plan" "$corpus/trace" "$corpus/replay" \
  "$corpus/checkpoint" "$corpus/sweep" "$corpus/power_cut"
cp configs/*.toml "$corpus/config/"
cp workloads/plans/*.toml "$corpus/plan/"
printf 'RW:io_size=4096,count=100' > "$corpus/plan/inline"
printf 'count=64,runs=1' > "$corpus/plan/overrides"
# A trace seed is one selector byte (the format's index, or past the last:
# detection) followed by the file.
i=0
for f in traces/examples/*; do
  for selector in 0 1 2 3 4 5 6 135; do
    { printf "\\x$(printf %02x $selector)"; head -c 4096 "$f"; } > "$corpus/trace/$i-$selector"
  done
  i=$((i + 1))
done

# Replay: the same traces, the selector byte's low nibble 13 (detection:
# 13 % (6 formats + 1)), its high bits the loop (open, open sped up, closed
# at queue depth 1 and 8), skipping bad lines and verification.
for f in traces/examples/*; do
  for selector in 13 29 45 77 141 157 205; do
    { printf "\\x$(printf %02x $selector)"; head -c 4096 "$f"; } > "$corpus/replay/$(basename "$f")-$selector"
  done
done
# Checkpoints of the tiny device (a fresh one and one after a run).
state_out=$(mktemp -d)
"$build/sim/ssdlab" sim -c configs/tiny.toml --precondition seq \
  --save-state "$corpus/checkpoint/seq.ssd" -o "$state_out/a" > /dev/null
"$build/sim/ssdlab" sim -c configs/tiny.toml -w RW:count=2000 --no-io-log \
  --save-state "$corpus/checkpoint/run.ssd" -o "$state_out/b" > /dev/null
rm -rf "$state_out"
cp configs/sweeps/*.toml "$corpus/sweep/"
printf 'configs = ["%s/configs/tiny.toml"]\nworkloads = ["RW:count=10", "uflip:granularity"]\nseeds = [1, 2]\nsets = [["ftl.overprovisioning=0.2"], []]\nprecondition = "seq"\n' \
  "$PWD" > "$corpus/sweep/tiny.toml"

# Power cuts among trims (fuzz/power_cut_fuzz.cpp): every FTL (and the
# page-mapped FTL and DFTL with an SLC cache, DFTL with a tiny map cache, the
# zoned FTL with wear), with and without a write
# buffer, queue depth 4 and 8, 200 I/Os with a cut in every sixteenth
# (seeded, so the corpus is the same on every run).
python3 - "$corpus/power_cut" <<'EOF'
import random, sys
rng = random.Random(35)
for ftl in range(8):
    for flags in (0x00, 0x08, 0x18, 0x40):
        ios = bytearray()
        for k in range(200):
            ios += bytes([rng.randrange(16) | (0x80 if k % 16 == 5 else 0), rng.randrange(64)])
        depth = 3 if flags & 0x08 else 7
        with open(f"{sys.argv[1]}/ftl{ftl}-{flags:02x}", "wb") as f:
            f.write(bytes([ftl | flags, depth]) + ios)
# Issue 51: dftl with an 8-entry map cache (byte 1's 0x08) and the zoned FTL
# with wear (byte 1's 0x10), at queue depth 1, 4 and 8.
for name, first, extra in (("dftl-small-cache", 1, 0x08), ("zoned-wear", 0, 0x10)):
    for depth in (0, 3, 7):
        ios = bytearray()
        for k in range(200):
            ios += bytes([rng.randrange(16) | (0x80 if k % 16 == 5 else 0), rng.randrange(64)])
        with open(f"{sys.argv[1]}/{name}-qd{depth + 1}", "wb") as f:
            f.write(bytes([first, depth | extra]) + ios)
EOF

for target in ${TARGETS:-config plan trace replay checkpoint sweep power_cut}; do
  echo "== ${target}_fuzz for ${seconds} s"
  "$build/fuzz/${target}_fuzz" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
    -print_final_stats=1 "$corpus/$target" 2>&1 | grep -aE "stat::number_of_executed_units|Done|ERROR|SUMMARY" || true
  # libFuzzer writes a crash-*, leak-*, timeout-* or oom-* file on a finding.
  # (Each pattern on its own: `ls` of all four fails whenever one matches nothing.)
  findings=""
  for pattern in 'crash-*' 'leak-*' 'timeout-*' 'oom-*'; do
    findings+=" $(compgen -G "$pattern" | tr '\n' ' ' || true)"
  done
  if [ -n "${findings// /}" ]; then
    echo "fuzz: findings in $target:" $findings
    exit 1
  fi
done
