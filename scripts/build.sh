#!/usr/bin/env bash
# Configures and builds lsdae in build/ (or build-asan/ with --sanitize).
# Used by run.sh and test.sh; prints only warnings and errors.
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir=build
flags=(-DCMAKE_BUILD_TYPE=RelWithDebInfo)
if [ "${1:-}" = "--sanitize" ]; then
  build_dir=build-asan
  flags=(-DCMAKE_BUILD_TYPE=Debug -DLSDAE_SANITIZE=ON)
fi
cmake -S . -B "$build_dir" "${flags[@]}" >/dev/null
cmake --build "$build_dir" -j"$(nproc)" 2>&1 | { grep -E "warning|error|Error" || true; }
exit "${PIPESTATUS[0]}"
