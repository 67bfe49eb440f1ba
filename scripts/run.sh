#!/usr/bin/env bash
# README command 1: install what is missing (the library's and the CLI's
# packages only), build the library, the CLI and one model FMU, and run the
# main job on it: simulate the TransmissionLine N=1280 DAE FMU (6403 unknowns;
# ScalableTestSuite's benchmark) and print the run statistics.
# scripts/test.sh installs and builds the rest (tests, benchmarks, Python).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup-deps.sh
fmu_name=TransmissionLine_dae_shapeA_1280
scripts/build.sh lsdae lsdae_shared "fmu_pack_$fmu_name"
fmu=build/fmus/$fmu_name.fmu
mkdir -p build/run
echo "+ build/bin/lsdae simulate $fmu --output-vars 'v_load,filter.y,C[1].v,C[640].v,C[1280].v' -o build/run/TransmissionLine_1280.csv --stats build/run/TransmissionLine_1280.json"
build/bin/lsdae simulate "$fmu" --output-vars 'v_load,filter.y,C[1].v,C[640].v,C[1280].v' \
  -o build/run/TransmissionLine_1280.csv --stats build/run/TransmissionLine_1280.json
echo "+ cat build/run/TransmissionLine_1280.json"
cat build/run/TransmissionLine_1280.json
echo "Results: $(pwd)/build/run/TransmissionLine_1280.csv; \`cmake --build build --target lsdae_fmus\` builds every model FMU into $(pwd)/build/fmus/ (docs/models.md), scripts/test.sh builds them with the tests."
