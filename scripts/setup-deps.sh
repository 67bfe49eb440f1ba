#!/usr/bin/env bash
# Installs the Debian 12 packages lsdae builds with, if any is missing.
# Idempotent; silent and fast (one dpkg-query) when everything is present.
#
#   scripts/setup-deps.sh          what the library, the CLI and the model
#                                  FMUs need (scripts/run.sh)
#   scripts/setup-deps.sh --full   also what the tests, the benchmarks, the
#                                  Python package and the packaging need
#                                  (scripts/test.sh, CI)
#
# cmake/LsdaeDependencies.cmake finds the first set REQUIRED; every part the
# second set brings is left out, with a message, when its packages are absent.
set -euo pipefail
packages=(
  build-essential cmake pkg-config
  libsundials-dev libsuitesparse-dev libeigen3-dev libmetis-dev
  libpugixml-dev libzip-dev libcli11-dev
  libhdf5-dev libmatio-dev nlohmann-json3-dev zlib1g-dev  # result files (HDF5, MAT) and the report's JSON
)
full=(
  libgtest-dev libbenchmark-dev libbenchmark-tools  # tests/ and bench/
  python3 python3-dev pybind11-dev python3-numpy python3-scipy python3-pytest python3-h5py  # python/ and its tests
  python3-venv python3-pip python3-setuptools python3-wheel  # `pip install .` and its test
  libopenmpi-dev openmpi-bin  # the sweep's MPI scheduler
  help2man dpkg-dev file      # man pages and `cpack -G DEB` (docs/install.md)
  chromium  # the tests open lsdae report's page in headless Chromium
)
case "${1:-}" in
  "") ;;
  --full) packages+=("${full[@]}") ;;
  *) echo "setup-deps: unknown option \"$1\" → no option (the library and the CLI) or --full (also the tests)" >&2
     exit 2 ;;
esac
missing=()
while read -r name status; do
  [ "$status" = "installed" ] || missing+=("$name")
done < <(for p in "${packages[@]}"; do
  printf '%s %s\n' "$p" "$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null || echo missing)"
done)
[ ${#missing[@]} -eq 0 ] && exit 0

echo "setup-deps: installing ${missing[*]}" >&2
sudo=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "setup-deps: need root or sudo to install: ${missing[*]}" >&2; exit 1; }
  sudo=sudo
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
