#!/usr/bin/env bash
# Installs the Debian 12 packages lsdae builds with, if any is missing.
# Idempotent; silent and fast (one dpkg-query) when everything is present.
set -euo pipefail
packages=(
  build-essential cmake pkg-config
  libsundials-dev libsuitesparse-dev libeigen3-dev libmetis-dev
  libgtest-dev libbenchmark-dev libbenchmark-tools
  libpugixml-dev libzip-dev libcli11-dev
  python3 python3-dev pybind11-dev python3-numpy python3-scipy python3-pytest
  libhdf5-dev libmatio-dev python3-h5py nlohmann-json3-dev
  libopenmpi-dev openmpi-bin
  chromium  # the tests open lsdae report's page in headless Chromium
)
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
