#!/usr/bin/env bash
# The table of docs/fdp.md: what host-guided placement buys on one device,
# a two-lifetime workload written together by two tenants: a hot key-value
# cache (random 4 KiB rewrites of the first HOT of the logical space) and
# cold bulk data (sequential 128 KiB rewrites of the rest), after a
# sequential precondition. Cases, all on the same device (ftl.placement =
# "fdp", 2 handles): no placement identifiers (both tenants on handle 0),
# identifiers (hot on handle 1, cold on handle 0) with initially and with
# persistently isolated handles, a misused handle (both tenants on handle 1:
# lifetimes mixed inside one handle), streams; and ftl.placement = "none".
# Prints per case: device write amplification (flash over host pages, the
# whole measured run), pages moved by cleaning, each tenant's mean and p99
# response time (summary.json "tenants"), and the reclaim units each handle
# used ("fdp").
#   bench/scripts/fdp-wa.sh [BINARY [PRESET [HOT_PERCENT [COLD_PASSES [RATIO [SET...]]]]]]
# Each SET (KEY=VALUE, as --set takes it) applies to every case (an SLC
# cache, a larger device), but an ftl.fdp_* one, which applies to the cases
# with ftl.placement = "fdp" only (ftl.fdp_reclaim="unit": whole units).
set -euo pipefail
cd "$(dirname "$0")/../.."
binary=${1:-build/sim/ssdlab} preset=${2:-configs/tiny.toml} hot=${3:-5} passes=${4:-3}
ratio=${5:-32}  # hot 4 KiB writes per cold 128 KiB write (32: as many bytes hot as cold)
extra=() fdp_extra=()
if [ $# -gt 5 ]; then
  for set in "${@:6}"; do
    case $set in
      ftl.fdp_*) fdp_extra+=(--set "$set") ;;
      *) extra+=(--set "$set") ;;
    esac
  done
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# The logical space of the case that exports least (persistently isolated
# handles keep the most blocks open), in whole 128 KiB.
bytes=$("$binary" config "$preset" ${extra[@]+"${extra[@]}"} --set 'ftl.placement="fdp"' \
  --set ftl.fdp_handles=2 --set 'ftl.fdp_isolation="persistently"' | sed -n 's/^  logical .*(\([0-9]*\) bytes).*/\1/p')
bytes=$((bytes / 131072 * 131072))
hot_bytes=$((bytes * hot / 100 / 131072 * 131072))
cold_bytes=$((bytes - hot_bytes))
cold_count=$((cold_bytes / 131072 * passes))
hot_count=$((cold_count * ratio))
echo "$preset: $bytes logical bytes; hot ${hot}% ($hot_bytes B, $hot_count random 4 KiB writes)," \
     "cold the rest ($cold_count sequential 128 KiB writes, $passes passes)"
run() {  # NAME HOT_ID COLD_ID SETS...
  local name=$1 hot_id=$2 cold_id=$3
  shift 3
  "$binary" sim -c "$preset" --precondition seq ${extra[@]+"${extra[@]}"} "$@" -o "$work/$name" -q \
    -w "RW:io_size=4096,count=$hot_count,target_size=$hot_bytes,queue_depth=4,name=hot,placement_id=$hot_id" \
    -w "SW:io_size=131072,count=$cold_count,target_offset=$hot_bytes,target_size=$cold_bytes,queue_depth=1,name=cold,placement_id=$cold_id" \
    > /dev/null
  /usr/bin/python3 - "$name" "$work/$name" <<'PY'
import json, sys
s = json.load(open(sys.argv[2] + "/summary.json"))
runs = [e["runs"][0]["device"] for e in s["experiments"]]
dev = s["device"]
t = {x["name"]: x for x in s["tenants"]}
fdp = s.get("fdp")
units = " ".join(f"h{h['handle']}:{h['reclaim_units']}" for h in fdp["handles"]) if fdp else "-"
moved = sum(x["pages_moved_by_writes"] for x in s["tenants"])
host = sum(r["host_pages_written"] for r in runs)
flash = sum(r["flash_pages_written"] for r in runs)
print(f"  {sys.argv[1]:24} WA {flash / host:5.2f}  moved {moved:8}  "
      f"hot {t['hot']['mean_us']:7.1f}/{t['hot']['p99_us']:8.1f} us  "
      f"cold {t['cold']['mean_us']:7.1f}/{t['cold']['p99_us']:8.1f} us  RUs {units}")
PY
}
fdp=(--set 'ftl.placement="fdp"' --set ftl.fdp_handles=2 ${fdp_extra[@]+"${fdp_extra[@]}"})
run "placement none" 0 0 --set 'ftl.placement="none"'
run "fdp, no ids" 0 0 "${fdp[@]}"
run "fdp initially, ids" 1 0 "${fdp[@]}" --set 'ftl.fdp_isolation="initially"'
run "fdp persistently, ids" 1 0 "${fdp[@]}" --set 'ftl.fdp_isolation="persistently"'
run "fdp misused handle" 1 1 "${fdp[@]}" --set 'ftl.fdp_isolation="persistently"'
run "streams, ids" 1 0 --set 'ftl.placement="streams"' --set ftl.fdp_handles=2
