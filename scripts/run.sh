#!/usr/bin/env bash
# README command 1: install what is missing, build everything, run the main job
# on a bundled model. Until `lsdae simulate` lands (issue 5) the main job is
# import: validate the TransmissionLine N=1280 DAE FMU and summarise it.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup-deps.sh
scripts/build.sh
fmu=build/fmus/TransmissionLine_dae_shapeA_1280.fmu
echo "+ build/bin/lsdae validate $fmu"
build/bin/lsdae validate "$fmu"
echo "+ build/bin/lsdae info $fmu"
build/bin/lsdae info "$fmu"
echo "All model FMUs are in $(pwd)/build/fmus/ (list: docs/models.md)."
