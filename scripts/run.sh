#!/usr/bin/env bash
# README command 1: install what is missing, build everything, run the main job.
# For now the main job builds the bundled model FMUs and lists them; it
# becomes `lsdae info` and then `lsdae simulate` on TransmissionLine N=1280
# as the import and simulation issues land.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup-deps.sh
scripts/build.sh
printf '%-44s %9s %7s %10s %10s  %s\n' "FMU" "bytes" "states" "algebraic" "residuals" "manifest"
while IFS=$'\t' read -r name stage fmu _identifier _reference; do
  [ -n "$name" ] || continue
  manifest="$stage/extra/org.fmi-standard.fmi-ls-dae/fmi-ls-manifest.xml"
  states=$(grep -c ' derivative="' "$stage/modelDescription.xml" || true)
  algebraic=0 residuals=0 shape=none
  if [ -f "$manifest" ]; then
    algebraic=$(grep -c '<AlgebraicVariable ' "$manifest" || true)
    residuals=$(grep -c -E '<Formulation |<Residual valueReference' "$manifest" || true)
    if grep -q '<fmiDAEManifest' "$manifest"; then shape=B; else shape=A; fi
  fi
  printf '%-44s %9s %7s %10s %10s  %s\n' "$name" "$(stat -c %s "$fmu")" "$states" "$algebraic" "$residuals" "$shape"
done < build/fmus/catalog.tsv
echo "FMUs are in $(pwd)/build/fmus/"
