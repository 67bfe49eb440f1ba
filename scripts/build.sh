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
# Compiler and linker diagnostics only ("file:line:col: warning:", "ld: ... error"),
# and make's own failures; not compile lines of files whose names contain "error".
cmake --build "$build_dir" -j"$(nproc)" 2>&1 |
  { grep -E '^[^ ]+:[0-9]+(:[0-9]+)?: (fatal error|error|warning|note):|^(/usr/bin/)?ld: |undefined reference|^collect2: error|^gmake(\[[0-9]+\])?: \*\*\*|^CMake (Error|Warning)' || true; }
exit "${PIPESTATUS[0]}"
