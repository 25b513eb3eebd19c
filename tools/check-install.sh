#!/usr/bin/env bash
# Checks what a user gets from an installed ssdlab: installs the build to a
# clean prefix, builds the out-of-tree FTL example (docs/examples/
# out-of-tree-ftl) against it with find_package(ssdlab), runs its FTL, then
# builds the Debian package with CPack and lists it (and installs it with
# dpkg -i where we are root and SSDLAB_DPKG_INSTALL=1, as in CI).
# Usage: tools/check-install.sh [BUILD_DIR]   (default: build)
set -euo pipefail
source_dir="$(cd "$(dirname "$0")/.." && pwd)"
build="$(cd "${1:-$source_dir/build}" && pwd)"
work="$(mktemp -d /tmp/ssdlab-install-XXXXXX)"
trap 'rm -rf "$work"' EXIT

echo "== cmake --install $build --prefix $work/prefix"
cmake --install "$build" --prefix "$work/prefix" > "$work/install.log"
for f in bin/ssdlab share/ssdlab/configs/agrawal-baseline.toml share/ssdlab/configs/tiny.toml \
         share/ssdlab/ssdlab_plot.py share/man/man1/ssdlab.1 lib/cmake/ssdlab/ssdlabConfig.cmake \
         include/ssdlab/ftl/register.h share/doc/ssdlab/LICENSE \
         share/bash-completion/completions/ssdlab; do
  [ -e "$work/prefix/$f" ] || { echo "missing after install: $f"; exit 1; }
done
"$work/prefix/bin/ssdlab" config "$work/prefix/share/ssdlab/configs/tiny.toml" > /dev/null

echo "== the out-of-tree FTL example against the installed prefix"
cmake -S "$source_dir/docs/examples/out-of-tree-ftl" -B "$work/example" -G Ninja \
  -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$work/prefix" > "$work/example.log"
cmake --build "$work/example" >> "$work/example.log"
"$work/example/my-ssdlab" sim -c "$work/prefix/share/ssdlab/configs/tiny.toml" \
  --set ftl.type=plain-page-mapped --precondition seq -w 'RW:count=3000' -o "$work/run" --verify \
  | tee "$work/run.log"
grep -q '"type": *"plain-page-mapped"' "$work/run/summary.json"
grep -q 'all correct' "$work/run.log"
# It reports what the parts of the FTL it delegates to count: an SLC cache's
# block (issue 57 item 9: the delegate had dropped it).
"$work/example/my-ssdlab" sim -c "$work/prefix/share/ssdlab/configs/tiny-tlc.toml" \
  --set ftl.type=plain-page-mapped --set 'slc_cache.mode="dynamic"' --set slc_cache.size_gib=0.004 \
  -w 'SW:io_size=65536,count=200' -o "$work/run-slc" --verify > "$work/run-slc.log"
grep -q '"host_pages_absorbed"' "$work/run-slc/summary.json" ||
  { echo "the out-of-tree FTL's run has no slc_cache block"; exit 1; }
# Its victim policy, run by the built-in page-mapped FTL beside an SLC cache
# and FDP placement: the echo names it, both parts report, and every read
# returns the latest write.
"$work/example/my-ssdlab" sim -c "$work/prefix/share/ssdlab/configs/tiny-tlc.toml" \
  --set ftl.victim_policy=windowed-greedy --set 'slc_cache.mode="dynamic"' \
  --set slc_cache.size_gib=0.004 --set 'ftl.placement="fdp"' --set ftl.fdp_handles=2 \
  --precondition random -w 'RW:count=20000' -o "$work/run-policy" --verify > "$work/run-policy.log"
grep -q 'all correct' "$work/run-policy.log"
for key in '"victim_policy": *"windowed-greedy"' '"host_pages_absorbed"' '"handles"' \
           '"blocks_cleaned": *[1-9]'; do
  grep -q "$key" "$work/run-policy/summary.json" ||
    { echo "the out-of-tree victim policy's run: no $key in summary.json"; exit 1; }
done
# The built-ins are all still there.
{ "$work/example/my-ssdlab" sim -c "$work/prefix/share/ssdlab/configs/tiny.toml" \
  --set ftl.type=nonesuch -w 'RW:count=10' -o "$work/bad" 2>&1 || true; } |
  grep -q 'known: page-mapped, block-mapped, bast, fast, dftl, example.*plain-page-mapped' 

echo "== cpack -G DEB"
(cd "$build" && cpack -G DEB > "$work/cpack.log")
deb="$(ls -t "$build"/ssdlab_*.deb | head -1)"
dpkg-deb -I "$deb" | grep -E 'Package|Version|Depends|Architecture'
dpkg-deb -c "$deb" > "$work/contents"
for f in ./usr/bin/ssdlab ./usr/share/ssdlab/configs/agrawal-baseline.toml \
         ./usr/share/man/man1/ssdlab.1 ./usr/lib/cmake/ssdlab/ssdlabConfig.cmake \
         ./usr/share/doc/ssdlab/LICENSE ./usr/share/bash-completion/completions/ssdlab; do
  grep -q " $f\$" "$work/contents" || { echo "missing in $deb: $f"; exit 1; }
done
if [ "${SSDLAB_DPKG_INSTALL:-0}" = 1 ] && [ "$(id -u)" = 0 ]; then
  dpkg -i "$deb"
  /usr/bin/ssdlab config /usr/share/ssdlab/configs/tiny.toml > /dev/null
  echo "installed $deb with dpkg -i"
fi
echo "install, out-of-tree FTL and Debian package: ok ($deb)"
