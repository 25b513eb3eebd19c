#!/usr/bin/env bash
# The controller's limits on their example device
# (configs/examples/controller-limits.toml; docs/model.md "Controller cores
# and data path"): 4 KiB random reads at queue depth 1 and 32, and 128 KiB
# sequential reads at 32, on the same flash without the limits and with
# them; beside each, the ceiling the config sets (cores / read time; the
# data path's rate) and the busy fractions summary.json reports.
#   bench/scripts/controller-limits.sh BINARY [WORKDIR]
set -euo pipefail
bin=$(realpath "$1") work=${2:-$(mktemp -d)}
cd "$(dirname "$0")/../.."
example=configs/examples/controller-limits.toml
# The example's flash without its limits: the tiny preset, widened as it is.
plain=(-c configs/tiny.toml --set geometry.channels=8 --set timing.bus_ns_per_byte=2.5)
run() {  # NAME WORKLOAD CONFIG...
  local name=$1 workload=$2
  shift 2
  "$bin" sim "$@" --precondition seq -w "$workload" -o "$work/$name" -q --no-io-log \
    --no-state-cache > /dev/null
}
for qd in 1 32; do
  run "rr$qd-off" "RR:count=20000,queue_depth=$qd" "${plain[@]}"
  run "rr$qd-on" "RR:count=20000,queue_depth=$qd" -c "$example"
done
run sr-off "SR:io_size=128KiB,count=4000,queue_depth=32" "${plain[@]}"
run sr-on "SR:io_size=128KiB,count=4000,queue_depth=32" -c "$example"
/usr/bin/python3 - "$work" "$example" <<'PY'
import json, sys, tomllib
work, example = sys.argv[1], sys.argv[2]
with open(example, "rb") as f:
    limits = tomllib.load(f)["controller"]
cores = limits["firmware"]["cores"]
read_us = limits["firmware"]["read_us"]
path = limits["data_path"]["bytes_per_s"]
def run(name):
    r = json.load(open(f"{work}/{name}/summary.json"))["experiments"][0]["runs"][0]
    return r, r["device"]
print(f"controller-limits: {example}: {cores} cores at {read_us} us per read "
      f"(ceiling {cores / read_us * 1e6:,.0f} reads/s), data path {path / 1e6:,.0f} MB/s")
print(f"{'workload':<22}{'off IOPS':>11}{'on IOPS':>11}{'off MB/s':>10}{'on MB/s':>10}"
      f"{'off mean us':>13}{'on mean us':>12}{'core busy':>11}{'path busy':>11}")
for label, name in (("4K random read QD1", "rr1"), ("4K random read QD32", "rr32"),
                    ("128K seq. read QD32", "sr")):
    off, _ = run(f"{name}-off")
    on, device = run(f"{name}-on")
    print(f"{label:<22}{off['iops']:>11,.0f}{on['iops']:>11,.0f}{off['mb_per_s']:>10,.0f}"
          f"{on['mb_per_s']:>10,.0f}{off['mean_us']:>13.1f}{on['mean_us']:>12.1f}"
          f"{device['controller_core_busy_fraction']:>11.3f}"
          f"{device['controller_data_path_busy_fraction']:>11.3f}")
PY
