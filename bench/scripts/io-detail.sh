#!/usr/bin/env bash
# Where a tenant's response time goes (docs/tenants.md, "Where the time
# goes"; issue 57 item 6). On the paper's baseline device after a random
# fill, a random reader (4 KiB, queue depth 2) beside a heavy random writer
# (4 KiB, queue depth 32, cleaning all the time), as in tenants.sh, with
# --io-detail, under FIFO and reads-first dispatch: each tenant's mean
# response time and the mean of each part of it (io_detail.csv), and the
# reader alone. With --plot FILE, ssdlab plot's io-detail figure of the
# FIFO run is copied there.
#   bench/scripts/io-detail.sh BINARY [WORKDIR] [--docs FILE] [--plot FILE.png]
set -euo pipefail
bin=$(realpath "$1") work=${2:-$(mktemp -d)} docs="" plot=""
shift $(( $# < 2 ? $# : 2 ))
while [[ $# -gt 0 ]]; do
  case $1 in
    --docs) docs=$(realpath "$2"); shift 2 ;;
    --plot) plot=$(realpath -m "$2"); shift 2 ;;
    *) echo "io-detail.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
cd "$(dirname "$0")/../.."
mkdir -p "$work"
device=(-c configs/agrawal-baseline.toml --precondition random -q --io-detail)
reader='RR:io_size=4096,count=15000,queue_depth=2,name=reader'
writer='RW:io_size=4096,count=100000,queue_depth=32,name=writer'
for order in fifo 'read>write>cleaning'; do
  "$bin" sim "${device[@]}" -w "$reader" -w "$writer" \
    --set "controller.dispatch_order=\"$order\"" -o "$work/${order//>/-}" > /dev/null
done
"$bin" sim "${device[@]}" -w "$reader" -o "$work/alone" > /dev/null
if [[ -n $plot ]]; then
  "$bin" plot "$work/fifo" -o "$work/fifo-plots" > /dev/null
  cp "$work/fifo-plots/io-detail.png" "$plot"
fi
PYTHONPATH=python /usr/bin/python3 - "$work" > "$work/table.md" <<'PY'
import sys
from ssdlab.plot import io_detail_means
work = sys.argv[1]
parts = [("host_queue_us", "host queue"), ("array_us", "array"), ("bus_us", "bus"),
         ("behind_tenant_us", "behind the other tenant"), ("behind_io_us", "behind its own I/Os"),
         ("behind_cleaning_us", "behind cleaning"), ("behind_fold_us", "behind folding"),
         ("other_us", "other")]
print("Measured by `bench/scripts/io-detail.sh build/sim/ssdlab WORKDIR --docs docs/tenants.md` "
      "(`configs/agrawal-baseline.toml` after a random fill; a reader of 15,000 4 KiB random "
      "reads at queue depth 2 beside a writer of 100,000 4 KiB random writes at queue depth 32; "
      "the mean of each io_detail.csv column, in us).\n")
runs = [(label, tenant, means)
        for run, label in (("fifo", "fifo"), ("read-write-cleaning", "reads first"),
                           ("alone", "alone"))
        for tenant, means in io_detail_means(f"{work}/{run}/io_detail.csv").items()]
# The parts no run has (the host queue and folding here) are left out.
parts = [(c, label) for c, label in parts if any(round(m[c]) for _, _, m in runs)]
print("| dispatch | tenant | response | " + " | ".join(label for _, label in parts) + " |")
print("|---|---|---:|" + "---:|" * len(parts))
for label, tenant, means in runs:
    cells = " | ".join(f"{means[column]:.0f}" for column, _ in parts)
    response = sum(means.values())  # every part, the link's too
    print(f"| {label} | {tenant} | {response:.0f} | {cells} |")
print()
PY
cat "$work/table.md"
if [[ -n $docs ]]; then
  /usr/bin/python3 bench/scripts/docs-block.py "$docs" io-detail < <(echo; cat "$work/table.md")
fi
