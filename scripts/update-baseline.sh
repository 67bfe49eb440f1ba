#!/usr/bin/env bash
# Rewrite the counters regression baseline (bench/baseline/counters.json) from
# the current build, deliberately: after a change that is MEANT to alter the
# solver's work (steps, residual calls, Jacobians, colours, nonzeros, ...).
# ctest -R bench.counters_baseline fails on any difference until then.
#
#   scripts/update-baseline.sh [build-dir]     (default: build)
#
# It builds lsdae and the model FMUs, runs every run listed in the baseline,
# rewrites the expected statistics, and shows what changed. Commit the new
# baseline with the reason in the message, and the pages that quote its counts
# (ctest -R docs.counted_numbers names them). Runs are added or removed by
# editing the "runs" list (name, fmu, options; "expected": {}) and rerunning.
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir=${1:-build}
cmake --build "$build_dir" --target lsdae lsdae_fmus -j"$(nproc)"
cmake -DLSDAE="$build_dir/bin/lsdae" -DFMU_DIR="$build_dir/fmus" -DBASELINE=bench/baseline/counters.json \
      -DWORK="$build_dir/tests/bench/counters-update" -DUPDATE=ON -P bench/baseline/counters.cmake
git --no-pager diff --stat -- bench/baseline/counters.json
git --no-pager diff --word-diff=plain -U0 -- bench/baseline/counters.json | grep -E '\[-|\{\+' || echo "(no change)"
