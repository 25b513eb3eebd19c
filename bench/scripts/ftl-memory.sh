#!/usr/bin/env bash
# The FTLs' bytes per physical page of docs/performance.md (issue 24): peak
# RSS of a fresh agrawal-1tib run (2^28 pages, 100 000 random 4 KiB writes,
# --no-io-log) less the same binary's peak RSS on tiny, over 2^28 pages, for
# OLD_BINARY and NEW_BINARY. Prints a Markdown table; FTLs default to the
# block-based ones and page-mapped.
#   bench/scripts/ftl-memory.sh OLD_BINARY NEW_BINARY [FTL...]
set -euo pipefail
old=$(realpath "$1") new=$(realpath "$2")
shift 2
ftls=("$@")
[ ${#ftls[@]} -gt 0 ] || ftls=(block-mapped bast fast page-mapped)
cd "$(dirname "$0")/../.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export XDG_CACHE_HOME="$work/cache"  # never the user's cache

echo "| FTL | old | new |"
echo "|---|---|---|"
# The block-based FTLs refuse the preset's page-level cleaning keys (they
# merge one logical block at a time): the same device without them.
grep -v '^clean_scope\|^clean_granularity' configs/agrawal-1tib.toml >"$work/agrawal-1tib-block.toml"
# rss CMD...: peak RSS in KiB of CMD, which must succeed.
rss() { /usr/bin/time -o "$work/time" -f "%M" "$@" >/dev/null; tail -1 "$work/time"; }
for ftl in "${ftls[@]}"; do
  row="| $ftl |" big_config=configs/agrawal-1tib.toml
  case $ftl in page-mapped | dftl) ;; *) big_config=$work/agrawal-1tib-block.toml ;; esac
  for bin in "$old" "$new"; do
    small=$(rss "$bin" sim -c configs/tiny.toml --set ftl.type=$ftl -w RW:count=1000 --no-io-log -q -o "$work/m")
    big=$(rss "$bin" sim -c "$big_config" --set ftl.type=$ftl \
      -w RW:io_size=4096,count=100000 --no-io-log -q -o "$work/m")
    row="$row $(python3 -c "print(f'{($big - $small) * 1024 / 2**28:.2f}')") |"
  done
  echo "$row"
done
