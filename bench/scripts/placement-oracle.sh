#!/usr/bin/env bash
# The placement oracle beside conventional, FDP and ZNS placement on one
# trace (docs/fdp.md "A placement oracle"; issue 57 item 8): a synthetic
# hot/cold trace (bench/scripts/make-msr-trace.py: 4 KiB writes, 90% of them
# to the first 10% of 50 MiB) replayed closed-loop on the tiny device widened
# to 128 blocks a plane (54 MiB exported) as
#  - a conventional page-mapped drive (one host block a plane);
#  - an FDP drive whose host tags the hot range with handle 1 (the hint a
#    host that knows its hot files gives: [[placement]] by LBA range);
#  - the same FDP drive with the oracle's tags, 2, 4 and 8 handles;
#  - a zoned drive of the same flash under the host log (one open zone for
#    host writes), and the log with the oracle's tags on 2, 4 and 8 heads.
# Prints the end-to-end write amplification of each (the host log's times
# the device's), as a table and, with --plot FILE, as one bar chart.
#   bench/scripts/placement-oracle.sh BINARY [WORKDIR] [--plot FILE.png] [--docs FILE]
set -euo pipefail
bin=$(realpath "$1") work=${2:-$(mktemp -d)} plot="" docs=""
shift $(( $# < 2 ? $# : 2 ))
while [[ $# -gt 0 ]]; do
  case $1 in
    --plot) plot=$(realpath -m "$2"); shift 2 ;;
    --docs) docs=$(realpath "$2"); shift 2 ;;
    *) echo "placement-oracle.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
cd "$(dirname "$0")/../.."
mkdir -p "$work"
trace=$work/hot-cold.csv
/usr/bin/python3 bench/scripts/make-msr-trace.py 200000 "$trace" --hot 0.1:0.9 --writes 1 \
  --sizes 4k --span 52428800 --gap-us 100
device=(-c configs/tiny.toml --set geometry.blocks_per_plane=128)
fdp=(--set 'ftl.placement="fdp"')
zoned=(--set 'ftl.type="zoned"' --set ftl.zone_width=4 --set 'ftl.zone_size="512KiB"'
       --set ftl.overprovisioning=0.02 --set host.log.overprovisioning=0.15)
run() {  # NAME ARGS...
  local name=$1
  shift
  "$bin" sim "${device[@]}" "$@" -w "trace:$trace" --mode closed -o "$work/$name" -q \
    --no-io-log > /dev/null
}
run conventional
run fdp-range "${fdp[@]}" --set ftl.fdp_handles=2 \
  --set 'ftl.placement_map=[{offset=0,size=5242880,handle=1}]'
for h in 2 4 8; do
  run "fdp-oracle-$h" "${fdp[@]}" --set ftl.fdp_handles=$h --placement-oracle
done
run zns-log "${zoned[@]}"
for h in 2 4 8; do
  run "zns-oracle-$h" "${zoned[@]}" --set host.log.placement_heads=$h --placement-oracle
done
/usr/bin/python3 - "$work" "$plot" > "$work/table.md" <<'PY'
import json, sys
work, plot = sys.argv[1], sys.argv[2]
rows = [("conventional (one host block a plane)", "conventional"),
        ("FDP, hot range on handle 1 (2 handles)", "fdp-range"),
        ("FDP, oracle, 2 handles", "fdp-oracle-2"),
        ("FDP, oracle, 4 handles", "fdp-oracle-4"),
        ("FDP, oracle, 8 handles", "fdp-oracle-8"),
        ("ZNS + host log (1 host head)", "zns-log"),
        ("ZNS + host log, oracle, 2 heads", "zns-oracle-2"),
        ("ZNS + host log, oracle, 4 heads", "zns-oracle-4"),
        ("ZNS + host log, oracle, 8 heads", "zns-oracle-8")]
print("Measured by `bench/scripts/placement-oracle.sh build/sim/ssdlab WORKDIR --docs "
      "docs/fdp.md` (200,000 4 KiB writes, 90% to the first 10% of 50 MiB, on `configs/tiny.toml` "
      "with 128 blocks a plane; end-to-end write amplification: the host log's times the "
      "device's).\n")
print("| placement | write amplification |\n|---|---|")
figures = []
for label, name in rows:
    s = json.load(open(f"{work}/{name}/summary.json"))
    d = s["experiments"][0]["runs"][0]["device"]
    wa = d.get("end_to_end_write_amplification") or d["write_amplification"]
    figures.append((label, wa))
    print(f"| {label} | {wa:.3f} |")
print()
if plot:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(8, 4))
    labels = [label for label, _ in figures][::-1]
    values = [wa for _, wa in figures][::-1]
    colours = ["tab:grey" if "oracle" not in l else "tab:green" for l in labels]
    bars = ax.barh(labels, [v - 1 for v in values], left=1.0, color=colours)
    ax.bar_label(bars, labels=[f"{v:.3f}" for v in values], padding=3)
    ax.set_xlabel("write amplification (end to end)")
    ax.set_xlim(1.0, max(values) * 1.08)
    ax.set_title("Placement on one hot/cold trace, against the oracle (green)")
    fig.tight_layout()
    fig.savefig(plot, dpi=100)
PY
cat "$work/table.md"
if [[ -n $docs ]]; then
  /usr/bin/python3 bench/scripts/docs-block.py "$docs" oracle < <(echo; cat "$work/table.md")
fi
