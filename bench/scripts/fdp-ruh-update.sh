#!/usr/bin/env bash
# docs/fdp.md, "Reclaim Unit Handle Update": what TP4146's I/O Management
# Send (RUH Update) does on one device. The same random 4 KiB writes on
# handle 1 after a sequential precondition, with an update before every N-th
# write of the process (plan key ruh_update_every) or none. Prints per case:
# the updates, the Reclaim Unit Not Fully Written events (23h, type 0x00),
# the media the closed reclaim units left unwritten, the device's write
# amplification over the measured run (flash over host pages) and the
# blocks it erased; then the events and the reclaim unit handle status
# (what an I/O Management Receive returns) of the last case.
#   bench/scripts/fdp-ruh-update.sh [--docs FILE] [BINARY [PRESET [COUNT]]]
# With --docs, the output also goes into FILE between the markers
# <!-- ruh update results --> and <!-- end ruh update results -->.
set -euo pipefail
cd "$(dirname "$0")/../.."
docs=""
if [ "${1:-}" = --docs ]; then docs=$2; shift 2; fi
binary=${1:-build/sim/ssdlab} preset=${2:-configs/tiny.toml} count=${3:-40000}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if [ -n "$docs" ]; then
  "$0" "$binary" "$preset" "$count" > "$work/table"
  cat "$work/table"
  printf '\nMeasured by `bench/scripts/fdp-ruh-update.sh --docs %s`.\n\n```\n%s\n```\n\n' \
    "$docs" "$(cat "$work/table")" | /usr/bin/python3 bench/scripts/docs-block.py "$docs" "ruh update"
  exit 0
fi
echo "$preset: ftl.placement = \"fdp\", 2 handles; RW:io_size=4096,count=$count,queue_depth=4,placement_id=1"
printf '  %-22s %8s %8s %12s %6s %8s\n' "ruh_update_every" updates "0x00" "unwritten" WA erased
last=""
for every in none 4096 512 64; do
  key=""
  [ "$every" = none ] || key=",ruh_update_every=$every"
  out="$work/$every"
  "$binary" sim -c "$preset" --precondition seq --set 'ftl.placement="fdp"' --set ftl.fdp_handles=2 \
    -w "RW:io_size=4096,count=$count,queue_depth=4,placement_id=1$key" -o "$out" -q > /dev/null
  /usr/bin/python3 - "$every" "$out/summary.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[2]))
run = s["experiments"][0]["runs"][0]["device"]
fdp = s["fdp"]
events = {e["type"]: e["count"] for e in fdp["events"]}
print(f"  {sys.argv[1]:22} {fdp['ruh_updates']:8} {events[0]:8} "
      f"{fdp['ru_unwritten_bytes'] / 2**20:8.1f} MiB "
      f"{run['flash_pages_written'] / run['host_pages_written']:6.2f} {run['erases']:8}")
PY
  last=$out
done
echo "the last case's summary.json, fdp.events and fdp.handle_status:"
/usr/bin/python3 - "$last/summary.json" <<'PY'
import json, sys
fdp = json.load(open(sys.argv[1]))["fdp"]
for e in fdp["events"]:
    print(f"  event 0x{e['type']:02x} {e['name']:34} {e['count']}")
for st in fdp["handle_status"]:
    print(f"  placement_id {st['placement_id']} reclaim_group {st['reclaim_group']}: "
          f"available_media_writes {st['available_media_writes']} of {fdp['reclaim_unit_nominal_size']}")
PY
