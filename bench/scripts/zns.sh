#!/usr/bin/env bash
# The figures of docs/zns.md, from runs of the zoned device (ftl.type =
# "zoned"):
#   1. what each zone command costs (tiny preset, zones 4 dies wide): a
#      reset of an empty and of a full zone, a finish that marks and one
#      that pads, against a 16 KiB write;
#   2. sequential write throughput against zone width and the number of
#      zones written at once (configs/zns.toml: 32 dies), without and with
#      a power-protected write buffer that programs whole stripes per zone;
#   2b. a finish on configs/zns.toml (zone_finish = "pad") by how much of
#      the zone is written, against the time to write the rest;
#   3. zone appends at queue depth 1 and 32 (configs/zns.toml), and writes
#      through zone random write areas (a ZN540's: 1 MiB, flushed in 16 KiB);
#   4. end to end, the same random 4 KiB writes on the same flash: a
#      conventional page-mapped device (15% spare) against a zoned device
#      (3% spare) under the host's log (12% more): total flash pages
#      programmed per page the host wrote, and tail latency;
#   5. the speed of a zoned run (simulated I/Os per second of wall time).
#   bench/scripts/zns.sh [BINARY]
set -euo pipefail
cd "$(dirname "$0")/../.."
binary=${1:-build/sim/ssdlab}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
zoned=(--set 'ftl.type="zoned"' --set ftl.overprovisioning=0.03)

field() {  # DIR PYTHON-EXPRESSION over s (summary.json) and r (first run)
  /usr/bin/python3 -c "
import json, sys
s = json.load(open(sys.argv[1] + '/summary.json'))
r = s['experiments'][0]['runs'][0]
print($2)" "$1"
}
rt_of() {  # DIR MODE N: the rt_us of the N-th row of MODE in io.csv
  awk -F, -v m="$2" -v n="$3" 'NR > 1 && $7 == m && ++k == n { print $6; exit }' "$1/io.csv"
}

echo "1. Zone commands on configs/tiny.toml, zones 4 dies x 2 planes wide (512 KiB):"
"$binary" sim -c configs/tiny.toml "${zoned[@]}" -o "$work/c1" -q \
  -w 'SW:zones_open=1,io_size=16384,count=34,target_size=524288' > /dev/null
"$binary" sim -c configs/tiny.toml "${zoned[@]}" -o "$work/c2" -q \
  -w 'SW:zones_open=1,io_size=16384,count=18,zone_finish_at=0.5' > /dev/null
"$binary" sim -c configs/tiny.toml "${zoned[@]}" --set 'ftl.zone_finish="pad"' -o "$work/c3" -q \
  -w 'SW:zones_open=1,io_size=16384,count=18,zone_finish_at=0.5' > /dev/null
printf '   %-34s %10s us\n' "16 KiB write" "$(rt_of "$work/c1" W 1)" \
  "reset of an empty zone" "$(rt_of "$work/c1" Z 1)" \
  "reset of a full zone (8 erases)" "$(rt_of "$work/c1" Z 2)" \
  "finish at half, mark" "$(rt_of "$work/c2" F 1)" \
  "finish at half, pad (64 pages)" "$(rt_of "$work/c3" F 1)"

echo "2. Sequential 256 KiB writes at queue depth 8 on configs/zns.toml (MB/s):"
printf '   %-12s' "zone width"
for open in 1 2 4 8; do printf ' %9s' "open $open"; done
echo
for width in 1 4 16 32; do
  printf '   %-12s' "$width dies"
  for open in 1 2 4 8; do
    size=$((width * 2 * 12))  # MiB: a block row of its dies
    "$binary" sim -c configs/zns.toml --set ftl.zone_width=$width --set "ftl.zone_size=\"${size}MiB\"" \
      -o "$work/w$width-$open" -q \
      -w "SW:zones_open=$open,io_size=262144,queue_depth=8,count=4000" > /dev/null
    printf ' %9.0f' "$(field "$work/w$width-$open" "r['mb_per_s']")"
  done
  echo
done

# A ZN540-class write buffer: power-protected DRAM (64 MiB assumed: no
# size is published) that takes a write at the PCIe 3.0 x4 link's rate.
buffer=(--set 'controller.write_buffer="64MiB"' --set controller.write_buffer_power_protected=true
  --set controller.write_buffer_ns_per_byte=0.254)
echo "   with a 64 MiB power-protected write buffer (whole stripes per zone):"
for width in 1 4 16 32; do
  printf '   %-12s' "$width dies"
  for open in 1 2 4 8; do
    size=$((width * 2 * 12))
    "$binary" sim -c configs/zns.toml --set ftl.zone_width=$width --set "ftl.zone_size=\"${size}MiB\"" \
      "${buffer[@]}" -o "$work/b$width-$open" -q \
      -w "SW:zones_open=$open,io_size=262144,queue_depth=8,count=4000" > /dev/null
    printf ' %9.0f' "$(field "$work/b$width-$open" "r['mb_per_s']")"
  done
  echo
done

echo "2b. A finish on configs/zns.toml (768 MiB zones, zone_finish = \"pad\") after 256 KiB writes:"
printf '   %-22s %10s %22s\n' "written before it" "finish ms" "/ rest at 1 zone's MB/s"
seq_mb_s=$(field "$work/w32-1" "r['mb_per_s']")
for writes in 1 768 1536 3071; do
  at=$(awk -v w="$writes" 'BEGIN { printf "%.9f", (w + 0.5) / 3072 }')  # (the plan floors it)
  "$binary" sim -c configs/zns.toml -o "$work/f$writes" -q \
    -w "SW:zones_open=1,io_size=262144,zone_finish_at=$at,count=$((writes + 2))" > /dev/null
  ms=$(awk -v us="$(rt_of "$work/f$writes" F 1)" 'BEGIN { printf "%.1f", us / 1000 }')
  rest=$(awk -v w="$writes" -v mb="$seq_mb_s" 'BEGIN { printf "%.1f", (3072 - w) * 262144 / mb / 1000 }')
  printf '   %-22s %10s %22s\n' "$writes of 3072" "$ms" \
    "$(awk -v a="$ms" -v b="$rest" 'BEGIN { printf "%.2f", a / b }')"
done

echo "3. Zone appends of 16 KiB on configs/zns.toml, one zone:"
for qd in 1 32; do
  "$binary" sim -c configs/zns.toml -o "$work/a$qd" -q \
    -w "SW:zones_open=1,zone_append=true,io_size=16384,queue_depth=$qd,count=20000" > /dev/null
  printf '   QD %-3s %s\n' "$qd" "$(field "$work/a$qd" \
    "'mean %.1f us, p99 %.1f us, %.0f MB/s' % (r['mean_us'], r['p99_us'], r['mb_per_s'])")"
  "$binary" sim -c configs/zns.toml "${buffer[@]}" -o "$work/ab$qd" -q \
    -w "SW:zones_open=1,zone_append=true,io_size=16384,queue_depth=$qd,count=20000" > /dev/null
  printf '   QD %-3s %s\n' "$qd" "$(field "$work/ab$qd" \
    "'mean %.1f us, p99 %.1f us, %.0f MB/s, with the buffer' % (r['mean_us'], r['p99_us'], r['mb_per_s'])")"
done

echo "   16 KiB writes through a 1 MiB ZRWA flushed in 16 KiB, shuffled in each window, QD 1:"
# (The ZRWA's writes enter the controller's memory at the link's rate, as the buffer's.)
zrwa=(--set 'ftl.zrwa_size="1MiB"' --set 'ftl.zrwa_flush_granularity="16KiB"'
  --set controller.write_buffer_ns_per_byte=0.254)
for flush in implicit explicit; do
  for with in "" buffer; do
    extra=()
    [ -n "$with" ] && extra=("${buffer[@]}")
    "$binary" sim -c configs/zns.toml "${zrwa[@]}" "${extra[@]}" -o "$work/z$flush$with" -q \
      -w "SW:zones_open=1,zrwa=true,zrwa_flush=$flush,io_size=16384,count=20000" > /dev/null
    printf '   %-8s %-12s %s\n' "$flush" "${with:-no buffer}" "$(field "$work/z$flush$with" \
      "'writes mean %.1f us, p99 %.1f us; %.0f MB/s; %d implicit, %d explicit flushes' % (r['mean_us'], r['p99_us'], r['mb_per_s'], s['zones']['zrwa_implicit_flushes'], s['zones']['zrwa_explicit_flushes'])")"
  done
done

echo "4. Random 4 KiB writes after a sequential fill, 128 MiB of tiny-geometry flash:"
big=(--set geometry.blocks_per_plane=256)
count=90000
"$binary" sim -c configs/tiny.toml "${big[@]}" --precondition seq -o "$work/conv" -q \
  -w "RW:count=$count,queue_depth=8" > /dev/null
"$binary" sim -c configs/tiny.toml "${big[@]}" "${zoned[@]}" --set ftl.zone_width=2 \
  --set host.log.overprovisioning=0.124 --precondition seq -o "$work/zns" -q \
  -w "RW:count=$count,queue_depth=8" > /dev/null
"$binary" sim -c configs/tiny.toml "${big[@]}" "${zoned[@]}" --set ftl.zone_width=2 \
  --set host.log.overprovisioning=0.124 --set 'host.log.victim="cost-benefit"' \
  --precondition seq -o "$work/zns-cb" -q -w "RW:count=$count,queue_depth=8" > /dev/null
printf '   %-36s %10s %8s %8s %10s %9s %9s\n' case exported host-WA dev-WA flash/host "mean us" "p99 us"
for case in conv zns zns-cb; do
  label=$(case $case in conv) echo "page-mapped, 15% spare";;
    zns) echo "zoned 3% + host log 12.4%, greedy";; zns-cb) echo "zoned 3% + host log, cost-benefit";; esac)
  # The measured run only: its device counters, and the host log's cleaning
  # (a sequential fill cleans nothing, so all of it is the run's).
  printf '   %-36s %s\n' "$label" "$(field "$work/$case" "
(lambda d, n, moved: '%10d %8.2f %8.2f %10.2f %9.1f %9.1f' % (
    s['logical_bytes'], (n + moved) / n, d['flash_pages_written'] / (n + moved),
    d['flash_pages_written'] / n, r['mean_us'], r['p99_us']))(
  r['device'], $count, s['host_log']['cleaning_pages_written'] if 'host_log' in s else 0)")"
done

echo "5. Speed: 2,000,000 zone writes of 16 KiB on configs/zns.toml:"
"$binary" sim -c configs/zns.toml -o "$work/speed" \
  -w 'SW:zones_open=4,io_size=16384,queue_depth=4,count=2000000' | grep -o '[0-9]* I/Os simulated in .* wall time ([0-9]* I/Os per second)'
