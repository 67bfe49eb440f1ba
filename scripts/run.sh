#!/usr/bin/env bash
# README command 1: install what is missing, build everything, run the main job
# on a bundled model: simulate the TransmissionLine N=1280 DAE FMU (6403
# unknowns; ScalableTestSuite's benchmark) and print the run statistics.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup-deps.sh
scripts/build.sh
fmu=build/fmus/TransmissionLine_dae_shapeA_1280.fmu
mkdir -p build/run
echo "+ build/bin/lsdae simulate $fmu --output-vars 'v_load,filter.y,C[1].v,C[640].v,C[1280].v' -o build/run/TransmissionLine_1280.csv --stats build/run/TransmissionLine_1280.json"
build/bin/lsdae simulate "$fmu" --output-vars 'v_load,filter.y,C[1].v,C[640].v,C[1280].v' \
  -o build/run/TransmissionLine_1280.csv --stats build/run/TransmissionLine_1280.json
echo "+ cat build/run/TransmissionLine_1280.json"
cat build/run/TransmissionLine_1280.json
echo "Results: $(pwd)/build/run/TransmissionLine_1280.csv; every model FMU is in $(pwd)/build/fmus/ (docs/models.md)."
