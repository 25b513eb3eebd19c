# Sourced by the scripts that take `SSDLAB OUTDIR [--docs FILE] [--set
# table.key=value]...` (idle-fold.sh, slc-fill.sh): sets B, OUT, DOCS, the
# array `sets` (--set options for ssdlab) and HERE (the repository), makes
# OUT; a wrong command line prints the usage and exits 2.
usage() { echo "usage: $0 SSDLAB OUTDIR [--docs FILE] [--set table.key=value]..." >&2; exit 2; }
[[ $# -ge 2 ]] || usage
B=$1 OUT=$2 DOCS=
shift 2
sets=()
while [[ $# -gt 0 ]]; do
  case $1 in
    --docs) [[ $# -ge 2 ]] || usage; DOCS=$2; shift 2 ;;
    --set) [[ $# -ge 2 ]] || usage; sets+=(--set "$2"); shift 2 ;;
    *) usage ;;
  esac
done
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
mkdir -p "$OUT"
