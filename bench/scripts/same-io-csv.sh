#!/usr/bin/env bash
# Runs the same matrix of workloads with two ssdlab binaries and compares the
# io.csv files byte for byte, and the summary.json files but for wall times
# and paths (same-summary.py): the check that a refactoring of the engine left
# every result unchanged. Prints one line per case (same / DIFFERENT) and
# exits 1 if any differs.
#   bench/scripts/same-io-csv.sh OLD_BINARY NEW_BINARY [WORKDIR]
# With SSDLAB_NEW_SUMMARY_KEYS=energy_,... the summary keys a change adds (by
# prefix) are compared only where both summaries have them (same-summary.py);
# with SSDLAB_GONE_SUMMARY_KEYS=log_blocks,... those a change removes.
set -uo pipefail
old=$(realpath "$1") new=$(realpath "$2") work=${3:-$(mktemp -d)}
mkdir -p "$work"
# Preconditioned states: not into the user's cache, and one cache per binary
# (two builds may write different checkpoint formats), fresh on every run: a
# WORKDIR used before holds the states of the binaries that ran then, and a
# hit on one side and a store on the other differ in summary.json.
rm -rf "$work/state-cache-old" "$work/state-cache-new"
cd "$(dirname "$0")/../.."
cases=(
  "baseline-rw|-c configs/agrawal-baseline.toml --precondition random -w RW:io_size=4096,count=20000"
  "baseline-sw|-c configs/agrawal-baseline.toml -w SW:io_size=32768,count=5000"
  "tiny-uflip-all|-c configs/tiny.toml -w uflip:all:count=64,runs=1"
  "baseline-quick|-c configs/agrawal-baseline.toml -w workloads/plans/uflip-quick.toml"
  "bast|-c configs/bast-ssd.toml -w RW:io_size=4096,count=5000"
  "fast|-c configs/fast-ssd.toml -w RW:io_size=4096,count=5000"
  "usb|-c configs/usb-stick.toml -w RW:io_size=4096,count=2000"
  "reads-first|-c configs/agrawal-reads-first.toml -w workloads/plans/controller-mix.toml"
  "write-buffer|-c configs/agrawal-write-buffer.toml -w workloads/plans/controller-bursts.toml"
  "background|-c configs/agrawal-background-cleaning.toml -w workloads/plans/controller-idle.toml"
  "gang8-bus|-c configs/agrawal-gang8-shared-bus.toml -w workloads/plans/gang.toml"
  "gang16-bus|-c configs/agrawal-gang16-shared-bus.toml -w workloads/plans/gang.toml"
  "gang8-async|-c configs/agrawal-gang8-shared-control-async.toml -w workloads/plans/gang.toml"
  "gang8-sync|-c configs/agrawal-gang8-shared-control-sync.toml -w workloads/plans/gang.toml"
  "incremental4|-c configs/agrawal-baseline.toml --precondition random -w RW:io_size=4096,count=20000 --set ftl.clean_granularity=\"incremental\" --set ftl.clean_incremental_pages=4"
  "incremental1-pool|-c configs/agrawal-baseline.toml --precondition random -w RW:io_size=4096,count=20000 --set ftl.clean_scope=\"pool\" --set ftl.clean_granularity=\"incremental\" --set ftl.clean_incremental_pages=1"
  "until-mark-web|-c configs/agrawal-baseline.toml --precondition random -w trace:traces/examples/web-server.csv.gz --set ftl.clean_granularity=\"until-mark\""
  "incremental4-web|-c configs/agrawal-baseline.toml --precondition random -w trace:traces/examples/web-server.csv.gz --set ftl.clean_granularity=\"incremental\" --set ftl.clean_incremental_pages=4"
  "lifetime|-c configs/tiny.toml --set geometry.pe_cycles=30 --until-expired 4 -w RW:count=200000"
  "power-cuts|-c configs/tiny.toml -w RW:count=20000 --power-cut-at random:20"
  "trace-msr|-c configs/tiny.toml -w trace:traces/examples/synthetic.csv"
  "trace-web|-c configs/agrawal-baseline.toml -w trace:traces/examples/web-server.csv.gz"
  "trace-closed|-c configs/tiny.toml -w trace:traces/examples/synthetic.spc --mode closed --qd 4"
  "trace-two|-c configs/tiny.toml -w trace:traces/examples/synthetic.csv -w trace:traces/examples/synthetic.disksim"
  "trace-blkparse|-c configs/tiny.toml -w trace:traces/examples/synthetic.blkparse"
  # Today's drives at a tenth (docs/current-devices.md), full after a sequential
  # fill, at queue depth 32: long die queues, two-plane partners, the SLC cache,
  # cleaning; with the fewest-queued order and suspend, two tenants (issue 58).
  "tlc-tenth-qd32|-c configs/tlc-client.toml --set geometry.blocks_per_plane=137 --set slc_cache.size_gib=3.921 --set slc_cache.static_gib=0.559 --precondition seq -w RW:io_size=4KiB,count=5000,queue_depth=32"
  "qlc-tenth-qd32|-c configs/qlc.toml --set geometry.blocks_per_plane=205 --set slc_cache.size_gib=13.05 --set slc_cache.static_gib=1.12 --precondition seq -w RW:io_size=4KiB,count=3000,queue_depth=32"
  "tlc-tenth-fair-suspend|-c configs/tlc-client.toml --set geometry.blocks_per_plane=137 --set slc_cache.size_gib=3.921 --set slc_cache.static_gib=0.559 --set controller.dispatch_order=\"fewest-queued\" --set timing.suspend=true --precondition seq -w RW:io_size=16KiB,count=3000,queue_depth=16 -w RR:io_size=16KiB,count=3000,queue_depth=16"
)
status=0
for entry in "${cases[@]}"; do
  name=${entry%%|*} args=${entry#*|}
  for which in old new; do
    bin=${!which}
    # shellcheck disable=SC2086
    XDG_CACHE_HOME="$work/state-cache-$which" "$bin" sim $args -o "$work/$which-$name" > "$work/$which-$name.log" 2>&1 || echo "$name: $which exited $?"
  done
  if ! cmp -s "$work/old-$name/io.csv" "$work/new-$name/io.csv"; then
    echo "DIFFERENT  $name (io.csv)"
    status=1
  elif ! summary=$(/usr/bin/python3 bench/scripts/same-summary.py "$work/old-$name/summary.json" "$work/new-$name/summary.json"); then
    echo "DIFFERENT  $name (summary.json $summary)"
    status=1
  else
    echo "same       $name ($(($(wc -l < "$work/new-$name/io.csv") - 1)) rows, summary.json)"
  fi
done
exit $status
