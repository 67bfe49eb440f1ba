#!/usr/bin/env bash
# bench/sweep/device_bundle.sh -- packs what the 16-core sweep measurement of issue 30 needs
# into .device/ (ignored by git), for the `device` tool's `run` to carry to a lent 16-core
# machine, where nothing is installed and nothing can be fetched:
#
#   .device/lsdae.tar.xz   bin/lsdae, lib/liblsdae.so*, and every shared library lsdae,
#                          liblsdae and PowerGrid.so load (ldd), except glibc's own (the
#                          machine's glibc is newer than Debian 12's: Python 3.12 there);
#                          xz-compressed, since the carried tree has a 64 MiB limit
#   .device/PowerGrid_ACTIVSg10k_all.fmu
#                          case_ACTIVSg10k with every bus a fault candidate and every branch a
#                          trip candidate, FMU state serializable: the FMU a full N-1 sweep needs
#   .device/grids.tar.xz   case_ACTIVSg10k.m and contab_ACTIVSg10k.m (../shared does not travel)
#   .device/manifest.txt   the commit, the build, the sizes
#
# Then, from this checkout (docs/performance/sweeps.md, "The prepared 16-core measurement"):
#   run(command="python3 bench/sweep/device_sweep16.py --bundle .device --out $OUT",
#       carry=[".device"], timeout_s=590)
#
#   bench/sweep/device_bundle.sh [BUILD_DIR=build] [GRIDS_DIR=../shared/data/grids]
#   bench/sweep/device_bundle.sh --checks PEGASE_FMU [COMPARE_BUILD_DIR] [BUILD_DIR=build]
#
# --checks packs, instead of the sweep's FMU and tables, what bench/sweep/device_checks.py needs:
# lsdae (as above), the static contention probe (bench/sweep/contention_probe.c, built here), the
# case13659pegase FMU given, the build's TransmissionLine N = 1280 FMU if built, and with COMPARE_BUILD_DIR that build's lsdae and liblsdae as
# lsdae-compare.tar.xz (its other libraries are the first's). Then
#   run(command="python3 bench/sweep/device_checks.py --bundle .device --out $OUT",
#       carry=[".device"], timeout_s=...)
#
# Needs a release build with the PowerGrid tools: scripts/build.sh lsdae fmu_PowerGrid
# describe_PowerGrid lsdae_grid_data. Not a test.
set -euo pipefail
cd "$(dirname "$0")/../.."
checks=
if [ "${1:-}" = --checks ]; then
  checks=${2:?"device_bundle: --checks needs the case13659pegase FMU"}
  compare=${3:-}
  build=${4:-build}
  [ -e "$checks" ] || { echo "device_bundle: $checks is missing → pack it (docs/performance/systems-and-threads.md)" >&2; exit 2; }
  [ -z "$compare" ] || [ -e "$compare/bin/lsdae" ] || { echo "device_bundle: $compare/bin/lsdae is missing → build it" >&2; exit 2; }
  needed=("$build/bin/lsdae" "$build/lib/liblsdae.so" "$build/models/binaries/PowerGrid.so")
else
  build=${1:-build}
  grids=${2:-../shared/data/grids}
  needed=("$build/bin/lsdae" "$build/lib/liblsdae.so" "$build/models/binaries/PowerGrid.so"
          "$build/models/powergrid/lsdae_grid_data" "$build/models/powergrid/describe_PowerGrid"
          "$grids/case_ACTIVSg10k.m" "$grids/contab_ACTIVSg10k.m")
fi
out=.device
for f in "${needed[@]}"; do
  [ -e "$f" ] || { echo "device_bundle: $f is missing → build it (scripts/build.sh lsdae fmu_PowerGrid describe_PowerGrid lsdae_grid_data) or give the folder" >&2; exit 2; }
done
exclude=$(git rev-parse --git-path info/exclude)
mkdir -p "$(dirname "$exclude")"
grep -qx '/.device/' "$exclude" 2>/dev/null || echo '/.device/' >> "$exclude"
rm -rf "$out"
mkdir -p "$out"
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT

# The FMU: as models/powergrid/CMakeLists.txt packs case39's all-disturbances FMU.
[ -n "$checks" ] || "$build/models/powergrid/lsdae_grid_data" --case "$grids/case_ACTIVSg10k.m" --out "$stage/case_ACTIVSg10k.grid" \
  --frequency 60 >/dev/null
[ -n "$checks" ] || cmake -DDESCRIBER="$build/models/powergrid/describe_PowerGrid" -DBINARY="$build/models/binaries/PowerGrid.so" \
  -DIDENTIFIER=PowerGrid -DSTAGE="$stage/fmu" -DFMU="$out/PowerGrid_ACTIVSg10k_all.fmu" \
  "-DCONFIG=grid=case_ACTIVSg10k.grid;form=semi_explicit;manifest=A;fault_bus=30399;fault_on=1;fault_off=1.1;trip_branch=7956;trip_time=1.1;fault_buses=all;trip_branches=all;fmu_state=serialize" \
  "-DRESOURCES=$stage/case_ACTIVSg10k.grid" -DSTRIP= -P models/kit/pack_fmu.cmake >/dev/null

# lsdae and the libraries it loads, glibc's own left out.
mkdir -p "$stage/lsdae/bin" "$stage/lsdae/lib"
cp "$build/bin/lsdae" "$stage/lsdae/bin/"
cp -P "$build"/lib/liblsdae.so* "$stage/lsdae/lib/"
{ ldd "$build/bin/lsdae"; ldd "$build/lib/liblsdae.so"; ldd "$build/models/binaries/PowerGrid.so"; } |
  awk '$3 ~ /^\// {print $3}' | sort -u |
  grep -Ev '/(libc|libm|libpthread|libdl|librt|libresolv|libutil|ld-linux-x86-64)\.so' |
  grep -v "/$build/" | while read -r lib; do cp -L "$lib" "$stage/lsdae/lib/"; done
tar -C "$stage" -cJf "$out/lsdae.tar.xz" lsdae
if [ -n "$checks" ]; then
  cc -O2 -static -o "$out/contention_probe" bench/sweep/contention_probe.c
  cp "$checks" "$out/"
  [ ! -e "$build/fmus/TransmissionLine_dae_shapeA_1280.fmu" ] || cp "$build/fmus/TransmissionLine_dae_shapeA_1280.fmu" "$out/"
  if [ -n "$compare" ]; then
    mkdir -p "$stage/lsdae-compare/bin" "$stage/lsdae-compare/lib"
    cp "$compare/bin/lsdae" "$stage/lsdae-compare/bin/"
    cp -P "$compare"/lib/liblsdae.so* "$stage/lsdae-compare/lib/"
    tar -C "$stage" -cJf "$out/lsdae-compare.tar.xz" lsdae-compare
  fi
else
  tar -C "$grids" -cJf "$out/grids.tar.xz" case_ACTIVSg10k.m contab_ACTIVSg10k.m
fi
{
  echo "commit $(git rev-parse HEAD)$(git diff --quiet HEAD -- . ':!.device' || echo ' (with uncommitted changes)')"
  echo "made $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(uname -n) from $build"
  echo "libraries $(ls "$stage/lsdae/lib" | wc -l)"
  du -b "$out"/* | awk '{printf "%s %d\n", $2, $1}'
} > "$out/manifest.txt"
cat "$out/manifest.txt"
total=$(du -cb "$out" | tail -1 | cut -f1)
echo "device_bundle: .device/ is $((total / 1048576)) MiB; with the tracked tree the carried total must stay under 64 MiB"
