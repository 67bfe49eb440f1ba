#!/usr/bin/env bash
# Configures and builds lsdae in build/ (or build-asan/ with --sanitize).
# Used by run.sh and test.sh; prints only warnings and errors.
#
#   scripts/build.sh [--sanitize] [TARGET...]
#
# With targets, builds only those (run.sh: the library, the CLI and one model
# FMU); without, everything. Compiles through ccache when it is installed.
set -euo pipefail
cd "$(dirname "$0")/.."
# Optimised as RelWithDebInfo is (-O2, the flags the counters baseline was
# recorded with) but without debug information: -g makes each compile about a
# quarter slower (14 sources: 69 s of CPU with it, 55 s without) and the
# programs three times larger, and neither a first run nor CI reads it. For a
# debugger, configure a tree of your own with -DCMAKE_BUILD_TYPE=RelWithDebInfo.
# The sanitizer build keeps line tables only (-g1): its reports need no more.
build_dir=build
flags=(-DCMAKE_BUILD_TYPE=Release "-DCMAKE_CXX_FLAGS_RELEASE=-O2 -DNDEBUG" "-DCMAKE_C_FLAGS_RELEASE=-O2 -DNDEBUG")
if [ "${1:-}" = "--sanitize" ]; then
  build_dir=build-asan
  flags=(-DCMAKE_BUILD_TYPE=Debug -DLSDAE_SANITIZE=ON -DCMAKE_CXX_FLAGS_DEBUG=-g1 -DCMAKE_C_FLAGS_DEBUG=-g1)
  shift
fi
if command -v ccache >/dev/null; then
  flags+=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi
targets=()
for t in "$@"; do targets+=(--target "$t"); done
cmake -S . -B "$build_dir" "${flags[@]}" >/dev/null
# Compiler and linker diagnostics only ("file:line:col: warning:", "ld: ... error"),
# and make's own failures; not compile lines of files whose names contain "error".
cmake --build "$build_dir" -j"$(nproc)" "${targets[@]}" 2>&1 |
  { grep -E '^[^ ]+:[0-9]+(:[0-9]+)?: (fatal error|error|warning|note):|^(/usr/bin/)?ld: |undefined reference|^collect2: error|^gmake(\[[0-9]+\])?: \*\*\*|^CMake (Error|Warning)' || true; }
exit "${PIPESTATUS[0]}"
