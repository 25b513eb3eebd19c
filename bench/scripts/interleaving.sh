#!/usr/bin/env bash
# The flash scheduler's figures (docs/model.md, "The flash scheduler"):
# Agrawal et al. §2.2 single-die rates for each interleaving setting, a
# Figure 6-style table, Table 3 at queue depth 1, the Table 4 trend under
# load, and reads-first at the dies. Every figure comes from a run of
# ssdlab printed here; nothing is typed in.
#
#   bench/scripts/interleaving.sh [SSDLAB]      (default build/sim/ssdlab)
set -euo pipefail
cd "$(dirname "$0")/../.."
SSDLAB=${1:-build/sim/ssdlab}
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT

# run NAME CONFIG WORKLOAD [--set ...]: one simulation into $OUT/NAME.
run() {
  local name=$1 config=$2 workload=$3
  shift 3
  "$SSDLAB" sim -c "$config" -w "$workload" -o "$OUT/$name" --quiet "$@" > /dev/null
}

# field NAME KEY: a run's statistic (iops, mean_us) from summary.json.
field() {
  /usr/bin/python3 - "$OUT/$1/summary.json" "$2" << 'EOF'
import json, sys
summary = json.load(open(sys.argv[1]))
run = summary["experiments"][0]["runs"][0]
print(f'{run[sys.argv[2]]:.1f}')
EOF
}

# percentile NAME MODE P: the P-th percentile response time (us) of MODE I/Os in io.csv.
percentile() {
  /usr/bin/python3 - "$OUT/$1/io.csv" "$2" "$3" << 'EOF'
import csv, math, sys
rows = [float(r[5]) for r in csv.reader(open(sys.argv[1])) if len(r) > 6 and r[6] == sys.argv[2]]
rows.sort()
print(f'{rows[min(len(rows) - 1, math.ceil(float(sys.argv[3]) / 100 * len(rows)) - 1)]:.1f}')
EOF
}

ONE_DIE=(--set geometry.channels=1 --set geometry.dies_per_package=1)
TWO_DIES=(--set geometry.channels=1 --set geometry.dies_per_package=2)
echo "## §2.2: 4 KB I/Os with 8 outstanding on tiny (IO/s)"
echo
echo "| dies | interleaving | cache register | reads/s | writes/s |"
echo "|---|---|---|---|---|"
for dies in 1 2; do
  for il in none dies planes; do
    for cache in false true; do
      geometry=("${ONE_DIE[@]}")
      [ "$dies" = 2 ] && geometry=("${TWO_DIES[@]}")
      sets=("${geometry[@]}" --set "geometry.interleaving=\"$il\"" --set "timing.cache_register=$cache")
      run r configs/tiny.toml 'RR:io_size=4096,count=20000,queue_depth=8' "${sets[@]}"
      run w configs/tiny.toml 'SW:io_size=4096,count=600,queue_depth=8' "${sets[@]}"
      echo "| $dies | $il | $cache | $(field r iops) | $(field w iops) |"
    done
  done
done
echo

echo "## Figure 6-style: throughput normalised to 'none' on agrawal-baseline"
echo
echo "| workload | none (IO/s) | dies | planes |"
echo "|---|---|---|---|"
for workload in 'SW:io_size=262144,count=2000,queue_depth=8' \
                'SW:io_size=262144,count=2000,queue_depth=32' \
                'SR:io_size=262144,count=2000,queue_depth=8' \
                'RR:io_size=4096,count=40000,queue_depth=32,mix_pattern=RW,mix_ratio=1' \
                'RW:io_size=4096,count=20000,queue_depth=1'; do
  for il in none dies planes; do
    run "$il" configs/agrawal-baseline.toml "$workload" --set "geometry.interleaving=\"$il\""
  done
  none=$(field none iops)
  row="| \`$workload\` | $none"
  for il in dies planes; do
    row+=" | $(/usr/bin/python3 -c "print(f'{$(field $il iops) / $none:.2f}')")"
  done
  echo "$row |"
done
echo

echo "## Table 3 at queue depth 1 (agrawal-baseline, no cleaning): mean response (us)"
echo
echo "| workload | mean (us) |"
echo "|---|---|"
for workload in 'RR:io_size=4096,count=20000' 'SR:io_size=4096,count=20000' \
                'SW:io_size=4096,count=20000' 'RW:io_size=4096,count=20000'; do
  run t3 configs/agrawal-baseline.toml "$workload"
  echo "| \`$workload\` | $(field t3 mean_us) |"
done
echo

# packages_and_buses NAME: "packages | buses" of a run's geometry (shared-bus
# gangs and no gang: one bus per channel).
packages_and_buses() {
  /usr/bin/python3 - "$OUT/$1/summary.json" << 'EOF'
import json, sys
g = json.load(open(sys.argv[1]))["config"]["geometry"]
print(f'{g["channels"] * g["packages_per_channel"]} | {g["channels"]}')
EOF
}

echo "## Table 4 trend under load: random 4 KB writes, 32 outstanding (mean response, us)"
echo
# Each preset at its own size, then 16 packages on 16, 2 and 1 buses: ganging
# scales capacity without scaling pins (§3.3), so at equal package count a
# wider gang means fewer buses.
echo "| config | packages | buses | mean (us) | IO/s |"
echo "|---|---|---|---|---|"
for setting in agrawal-baseline agrawal-gang8-shared-bus 'agrawal-baseline geometry.channels=16' \
               'agrawal-gang8-shared-bus geometry.channels=2' agrawal-gang16-shared-bus; do
  read -r config override <<< "$setting"
  sets=()
  [ -n "$override" ] && sets=(--set "$override")
  run g "configs/$config.toml" 'RW:io_size=4096,count=40000,queue_depth=32' "${sets[@]}"
  echo "| $config${override:+ \`--set $override\`} | $(packages_and_buses g) | $(field g mean_us) | $(field g iops) |"
done
echo

echo "## Reads-first at the dies: 1:1 random 4 KB reads and writes, 32 outstanding (read response, us)"
echo
echo "| dispatch_order | read p50 | read p99 | write p50 | write p99 |"
echo "|---|---|---|---|---|"
for order in fifo 'read>write>cleaning'; do
  run m configs/agrawal-baseline.toml 'RR:io_size=4096,count=40000,queue_depth=32,mix_pattern=RW,mix_ratio=1' \
    --set "controller.dispatch_order=\"$order\""
  echo "| $order | $(percentile m R 50) | $(percentile m R 99) | $(percentile m W 50) | $(percentile m W 99) |"
done
echo

# device NAME KEY: a device counter (or figure) from summary.json.
device() {
  /usr/bin/python3 -c "import json, sys; print(json.load(open(sys.argv[1]))['device'][sys.argv[2]])" \
    "$OUT/$1/summary.json" "$2"
}

echo "## Cleaning on the scheduler: 16 KB random writes and reads 1:1, 8 outstanding, agrawal-baseline after --precondition random"
echo
echo "| interleaving | cleaning_wait | mean (us) | p99 (us) | IO/s | two-plane commands | pages moved* | blocks cleaned* |"
echo "|---|---|---|---|---|---|---|---|"
for setting in 'dies package' 'planes package' 'planes request'; do
  read -r il wait <<< "$setting"
  run c configs/agrawal-baseline.toml 'RW:io_size=16384,count=40000,queue_depth=8,mix_pattern=RR,mix_ratio=1' \
    --precondition random --set "geometry.interleaving=\"$il\"" --set "controller.cleaning_wait=\"$wait\""
  echo "| $il | $wait | $(field c mean_us) | $(field c p99_us) | $(field c iops) | $(device c two_plane_commands) | $(device c pages_moved) | $(device c blocks_cleaned) |"
done
echo
echo "*: the device's totals, preconditioning included."
