#!/usr/bin/env bash
# Energy and thermal throttling on the TLC preset (configs/tlc-client.toml;
# docs/model.md "Energy and thermal throttling", docs/current-devices.md
# "Energy and throttling"):
#  1. the flash's energy per byte of 128 KiB sequential reads (a tenth of the
#     drive, preconditioned) and of in-cache sequential writes (the fresh
#     drive), at the [power] defaults;
#  2. the controller's energy per host byte, derived: Samsung's read power
#     (5.5 W at 3,500 MB/s [S1]) less the flash's read energy per byte;
#  3. a whole-drive sequential write (128 KiB, QD32) with the throttle on:
#     the reviews' thresholds and throttled rate [S14], the controller's
#     energy of step 2, an assumed thermal resistance and time constant;
#  4. the table: energy per GB written beside Samsung's write power [S1],
#     the write's speed over time, and the throttle's onset and rate beside
#     the reviews' [S14][S15].
# --check (the long test thermal_write) fails unless the energy per GB
# written in the cache is within 20% of Samsung's, and the throttle engaged
# and made the whole-drive write slower than without it.
#   bench/scripts/thermal-write.sh BINARY [WORKDIR] [--docs FILE | --check]
set -euo pipefail
bin=$(realpath "$1") work=${2:-$(mktemp -d)} docs="" check=0
[[ ${3:-} == --docs ]] && docs=$(realpath "$4")
[[ ${3:-} == --check ]] && check=1
cd "$(dirname "$0")/../.."
mkdir -p "$work"
preset=configs/tlc-client.toml
tenth=(--set geometry.blocks_per_plane=137 --set slc_cache.size_gib=3.921
       --set slc_cache.static_gib=0.559)
run() {  # NAME WORKLOAD ARGS...
  local name=$1 workload=$2
  shift 2
  "$bin" sim -c "$preset" "$@" -w "$workload" -o "$work/$name" -q --no-state-cache > /dev/null
}
run read "SR:io_size=128KiB,count=20000,queue_depth=32" "${tenth[@]}" --precondition seq
run write "SW:io_size=128KiB,count=20000,queue_depth=32"
# (The flash's read energy per byte: the run's flash energy over its bytes.)
controller_nj=$(/usr/bin/python3 - "$work" <<'PY'
import json, sys
summary = json.load(open(f"{sys.argv[1]}/read/summary.json"))
run = summary["experiments"][0]["runs"][0]
read_bytes = run["count"] * 128 * 1024
flash_nj_per_byte = run["device"]["energy_flash_uj"] * 1000 / read_bytes
print(f"{5.5 / 3500e6 * 1e9 - flash_nj_per_byte:.3f}")
PY
)
thermal=(--set controller.thermal.idle_c=33 --set controller.thermal.throttle_c=79
         --set controller.thermal.throttle_mb_s=900
         --set controller.thermal.controller_nj_per_byte="$controller_nj"
         --set controller.thermal.resistance_c_per_w=10
         --set controller.thermal.time_constant_s=60)
# Nearly the whole exported space once (7.6 M writes of 128 KiB: 996 of its 1,001 GB).
run thermal "SW:io_size=128KiB,count=7600000,queue_depth=32" "${thermal[@]}"
run cool "SW:io_size=128KiB,count=7600000,queue_depth=32"
status=0
/usr/bin/python3 - "$work" "$controller_nj" "${thermal[*]}" "$check" > "$work/table.md" <<'PY' || status=$?
import json, sys
import pandas as pd
work, controller_nj, sets, check = sys.argv[1], float(sys.argv[2]), sys.argv[3], sys.argv[4] == "1"
failed = []
def run(name):
    return json.load(open(f"{work}/{name}/summary.json"))["experiments"][0]["runs"][0]
read, write, hot = run("read"), run("write"), run("thermal")
def flash_nj(r):
    return r["device"]["energy_flash_uj"] * 1000 / (r["count"] * 128 * 1024)
def completions(name):
    io = pd.read_csv(f"{work}/{name}/io.csv", usecols=["submit_us", "rt_us", "size"])
    io["done_s"] = (io.submit_us + io.rt_us) / 1e6
    io = io.sort_values("done_s")
    io["gb"] = io["size"].cumsum() / 1e9
    return io
io, cool = completions("thermal"), completions("cool")
per_s = io.groupby(io.done_s.astype(int))["size"].sum() / 1e6  # MB/s in each second
# After the cache (its 42 GB take some 13 s) and before the throttle: the
# native TLC rate; the onset is the first second below 90% of it.
native = per_s.loc[20:60].median()
late = per_s.loc[20:]
onset = int(late[late < 0.9 * native].index[0]) if (late < 0.9 * native).any() else None
d = hot["device"]
print(f"Measured by `bench/scripts/thermal-write.sh build/sim/ssdlab WORKDIR --docs "
      f"docs/current-devices.md` on `configs/tlc-client.toml` with `{sets}` "
      f"(the controller's energy per byte derived as below).\n")
print("| figure | model | published | source |\n|---|---|---|---|")
print(f"| flash energy, 128 KiB sequential read | {flash_nj(read):.3f} nJ/B | – | [power] defaults |")
print(f"| controller energy per host byte (derived) | {controller_nj:.3f} nJ/B | 5.5 W at 3,500 MB/s = "
      f"1.571 nJ/B, less the flash's | S1 |")
w = flash_nj(write)
print(f"| energy per GB written in the cache, flash | {w:.2f} J/GB | – | – |")
ratio = (w + controller_nj) / (6.0 / 3300e6 * 1e9)
print(f"| energy per GB written in the cache, flash + controller | {w + controller_nj:.2f} J/GB | "
      f"6.0 W at 3,300 MB/s = 1.82 J/GB (ratio {ratio:.2f}) | S1 |")
if not 0.8 <= ratio <= 1.2:
    failed.append(f"energy per GB written in the cache: ratio {ratio:.2f} to Samsung's, not within 20%")
whole = d["energy_flash_uj"] * 1000 / (hot["count"] * 128 * 1024)
print(f"| energy per GB, whole-drive write, flash + controller | {whole + controller_nj:.2f} J/GB | – | – |")
print(f"| native TLC write rate before throttling | {native:,.0f} MB/s | 1,700 MB/s | S1 |")
if onset is None:
    print("| throttle onset | none | – | – |")
else:
    gb = io[io.done_s < onset].gb.max()
    after = per_s.loc[onset:]
    print(f"| throttle onset | {onset} s, {gb:,.0f} GB written | 970 Pro: ~80 °C after ~150 s, "
          f"~300 GB; 970 EVO 2 TB: 79 °C after > 800 GB | S15, S14 |")
    print(f"| write rate after the onset (mean; slowest second) | {after.mean():,.0f} MB/s; "
          f"{after.min():,.0f} MB/s | 970 Pro: 2 GB/s to 1.5 GB/s; 970 EVO: > 900 MB/s | S15, S14 |")
print(f"| throttled time; throttle episodes | {d['thermal_throttled_us'] / 1e6:,.1f} s of "
      f"{d['thermal_available_us'] / 1e6:,.0f} s; {d['thermal_throttles']} | – | – |")
print(f"\nThe whole-drive write's rate (MB/s, mean of each 40 s) with the throttle and without "
      f"(the same run with no `[controller.thermal]`; it ends in {cool.done_s.max():,.0f} s):\n")
print("| seconds | GB written (throttle) | with throttle | without |\n|---|---|---|---|")
def per40(frame):
    return frame.groupby((frame.done_s // 40).astype(int))["size"].sum() / 40e6
hot40, cool40 = per40(io), per40(cool)
for k, v in hot40.items():
    gb = io[io.done_s < (k + 1) * 40].gb.max()
    other = f"{cool40[k]:,.0f}" if k in cool40.index else "(done)"
    print(f"| {k * 40}–{k * 40 + 40} | {gb:,.0f} | {v:,.0f} | {other} |")
print()
if d["thermal_throttles"] < 1:
    failed.append("the whole-drive write never throttled")
if not io.done_s.max() > cool.done_s.max():
    failed.append("the throttled write was not slower than the one without the throttle")
for failure in failed:
    print(f"thermal-write: FAILED: {failure}", file=sys.stderr)
sys.exit(1 if check and failed else 0)
PY
cat "$work/table.md"
if [[ -n $docs ]]; then
  /usr/bin/python3 bench/scripts/docs-block.py "$docs" thermal < <(echo; cat "$work/table.md")
fi
exit $status
