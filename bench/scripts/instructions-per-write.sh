#!/usr/bin/env bash
# Instructions per steady-state 4 KiB random write on the paper's device
# (configs/agrawal-baseline.toml, queue depth 1, io.csv on), counted by
# callgrind (deterministic: one run is enough): the state after
# `--precondition random` is saved once, then 50,000 and 250,000 writes run
# from it, and the difference over the 200,000 writes between them is the
# cost per write without loading, preconditioning or the run's fixed costs.
# The guard of the rule that a feature which is off costs at most 2% (issue
# 58; docs/performance.md). Run it for two binaries, each its own WORKDIR.
#   bench/scripts/instructions-per-write.sh BINARY WORKDIR
set -euo pipefail
bin=$(realpath "$1") work=$2
mkdir -p "$work"
cd "$(dirname "$0")/../.."
config=configs/agrawal-baseline.toml
"$bin" sim -c $config --precondition random --no-state-cache --save-state "$work/S" \
  -o "$work/p" > "$work/p.log" 2>&1
declare -A total
for n in 50000 250000; do
  valgrind --tool=callgrind --callgrind-out-file="$work/cg.$n" "$bin" sim -c $config \
    --load-state "$work/S" -w "RW:io_size=4096,count=$n" -o "$work/o$n" > /dev/null 2>&1
  total[$n]=$(sed -n 's/^totals: //p' "$work/cg.$n")
done
echo "instructions per write: $(( (total[250000] - total[50000]) / 200000 ))" \
  "(50k: ${total[50000]}, 250k: ${total[250000]})"
