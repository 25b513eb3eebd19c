#!/usr/bin/env bash
# The SLC cache's size by fill on the presets of today's drives
# (docs/current-devices.md, "The cache by fill"; fidelity review G3): the
# drive is filled sequentially to a share of its logical space, settles
# (3000 s idle with idle folding on, so that what the fill left in the cache is
# folded), then written sequentially again over the data it holds (the fill
# does not change) for more than the cache; what the cache absorbs of that
# write is its size at that fill. Printed beside the published points.
#
#   bench/scripts/slc-fill.sh SSDLAB OUTDIR [--docs FILE] [--set table.key=value]...
#
# Prints a Markdown table; with --docs, also puts it in FILE between
# <!-- slc-fill results --> and <!-- end slc-fill results -->. --set goes to
# every run.
set -euo pipefail
source "$(dirname "$0")/docs-set-args.sh"

# preset, fills (%), published points "fill:GB:source" (GB decimal)
ROWS=(
  "qlc 0 50 75 85 0:140:Q2 75:12:Q2 80:12:Q1"
  "tlc-client 0 50 75 90 0:42:S1 90:>=6:S1"
)

absorbed() {  # SUMMARY: host pages absorbed, their bytes (a logical page, or a map unit), logical bytes, cache GiB
  /usr/bin/python3 - "$1" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
c = s["config"]
print(s["slc_cache"]["host_pages_absorbed"], c["ftl"]["logical_page_size"], s["logical_bytes"],
      c["slc_cache"]["size_gib"])
PY
}

plan() {  # FILE FILL_COUNT AFTER_COUNT: the fill alone, or with its settling and the write after
  {
    if (($2 > 0)); then
      printf '[[experiment]]\nname = "fill"\npattern = "SW"\nio_size = "128KiB"\ncount = %d\nqueue_depth = 32\n\n' "$2"
    fi
    if (($3 > 0)); then
      printf '[[experiment]]\nname = "after-fill"\npattern = "SW"\nio_size = "128KiB"\ncount = %d\nqueue_depth = 32\nrun_pause_us = 3000000000\n' "$3"
    fi
  } > "$1"
}

{
  echo
  echo "Measured by \`bench/scripts/slc-fill.sh build/sim/ssdlab OUTDIR --docs docs/current-devices.md${sets[*]:+ ${sets[*]}}\`: a sequential fill (128 KiB at queue depth 32) to the share of the logical space given, 3000 s of idle with \`slc_cache.idle_fold = true\` (the drive settles), then a sequential write of 1.1 times the cache's largest size over the data held; the cache's size at that fill is what it absorbs of that write (GB decimal)."
  echo
  echo "| preset | fill | cache measured | published | source | ratio |"
  echo "|---|---|---|---|---|---|"
  for row in "${ROWS[@]}"; do
    read -r -a f <<< "$row"
    preset=${f[0]}
    config=$HERE/configs/$preset.toml
    fills=() points=()
    for item in "${f[@]:1}"; do
      if [[ $item == *:* ]]; then points+=("$item"); else fills+=("$item"); fi
    done
    dir=$OUT/$preset
    mkdir -p "$dir"
    "$B" sim -c "$config" "${sets[@]}" -w 'SW:count=1' -o "$dir/probe" -q --no-io-log > /dev/null
    read -r _ page logical gib < <(absorbed "$dir/probe/summary.json")
    after=$(/usr/bin/python3 -c "print(int($gib * 2**30 * 1.1 / 131072))")
    for fill in "${fills[@]}"; do
      count=$(( logical / 100 * fill / 131072 ))
      base=0
      if ((count > 0)); then
        plan "$dir/fill-$fill.toml" "$count" 0
        "$B" sim -c "$config" "${sets[@]}" --set slc_cache.idle_fold=true -w "$dir/fill-$fill.toml" \
          -o "$dir/fill-$fill" -q --no-io-log > /dev/null
        read -r base _ _ _ < <(absorbed "$dir/fill-$fill/summary.json")
      fi
      plan "$dir/after-$fill.toml" "$count" "$after"
      "$B" sim -c "$config" "${sets[@]}" --set slc_cache.idle_fold=true -w "$dir/after-$fill.toml" \
        -o "$dir/after-$fill" -q --no-io-log > /dev/null
      read -r total _ _ _ < <(absorbed "$dir/after-$fill/summary.json")
      /usr/bin/python3 - "$preset" "$fill" "$((total - base))" "$page" "${points[@]}" <<'PY'
import sys
preset, fill, pages, page = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
gb = pages * page / 1e9
published = [p.split(":") for p in sys.argv[5:]]
near = [(g, s) for f, g, s in published if abs(int(f) - fill) <= 5]
if near and near[0][0].startswith(">="):  # a floor: the static part
    g, s = near[0][0][2:], near[0][1]
    held = "held" if gb >= float(g) else "**not held**"
    print(f"| `{preset}` | {fill}% | {gb:.1f} GB | at least {g} GB | {s} | {held} |")
elif near:
    g, s = near[0]
    print(f"| `{preset}` | {fill}% | {gb:.1f} GB | {g} GB | {s} | {gb / float(g):.2f} |")
else:
    print(f"| `{preset}` | {fill}% | {gb:.1f} GB | | | |")
PY
    done
  done
  echo
} | tee "$OUT/table.md"
if [[ -n $DOCS ]]; then
  /usr/bin/python3 "$HERE/bench/scripts/docs-block.py" "$DOCS" slc-fill < "$OUT/table.md"
fi
