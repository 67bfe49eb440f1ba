#!/usr/bin/env bash
# Times the README's two commands on a fresh Debian 12 system: a bookworm
# chroot made by debootstrap (minbase: no compiler, no CMake, no ccache),
# a clean clone of this repository in it, then
#   1. scripts/run.sh   clone → the main job's statistics (its packages timed
#                       first, apart: scripts/setup-deps.sh)
#   2. scripts/test.sh  the rest of the packages, the rest of the build, the suite
# and prints each wall time with the user and system CPU time it took.
#
#   sudo scripts/measure-fresh.sh <empty or absent folder> [<branch>] [--run-only]
#
# Needs root, debootstrap and a reachable Debian mirror (deb.debian.org). The
# shared data (../shared, the foreign FMUs the tests use) is copied beside the
# clone. The folder is left in place (rerun with a new one for a fresh system);
# `umount <folder>/proc <folder>/dev` if the script is interrupted.
set -euo pipefail
root=${1:?usage: measure-fresh.sh <folder> [<branch>] [--run-only]}
branch=${2:-HEAD}
run_only=${3:-}
repo=$(cd "$(dirname "$0")/.." && pwd)
shared=$repo/../shared
[ "$(id -u)" -eq 0 ] || { echo "measure-fresh: needs root (debootstrap, chroot, mount)" >&2; exit 1; }
command -v debootstrap >/dev/null || { echo "measure-fresh: apt-get install debootstrap" >&2; exit 1; }

if [ ! -x "$root/usr/bin/apt-get" ]; then
  echo "measure-fresh: debootstrap bookworm into $root (not timed)"
  debootstrap --variant=minbase bookworm "$root" http://deb.debian.org/debian >"$root.debootstrap.log" 2>&1
fi
cat >"$root/etc/apt/sources.list" <<'LIST'
deb http://deb.debian.org/debian bookworm main
deb http://deb.debian.org/debian bookworm-updates main
deb http://deb.debian.org/debian-security bookworm-security main
LIST
cp /etc/resolv.conf "$root/etc/resolv.conf"
mkdir -p "$root/work"
rm -rf "$root/work/lsdae" "$root/work/shared"
git clone -q --no-local --no-checkout "$repo" "$root/work/lsdae"
git -C "$root/work/lsdae" checkout -q "$(git -C "$repo" rev-parse "$branch")"  # committed files only
[ -d "$shared" ] && cp -a "$shared" "$root/work/shared"

mount --bind /dev "$root/dev"
mount -t proc proc "$root/proc"
trap 'umount "$root/proc" "$root/dev" 2>/dev/null || true' EXIT
in_root() { chroot "$root" /usr/bin/env -i HOME=/root PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 bash -c "$1"; }

# The machine's load (1-minute average) every 15 s, so that each phase can say what else ran.
load_log=$root/work/load.log
: >"$load_log"
( while :; do echo "$(date +%s) $(cut -d' ' -f1 /proc/loadavg)" >>"$load_log"; sleep 15; done ) &
sampler=$!
trap 'kill $sampler 2>/dev/null || true; umount "$root/proc" "$root/dev" 2>/dev/null || true' EXIT
mean_load() {  # mean_load <since epoch seconds>: the mean sampled load since then
  awk -v t="$1" '$1 >= t { s += $2; n++ } END { if (n) printf "%.1f (%d samples)", s / n, n; else print "n/a" }' "$load_log"
}

echo "measure-fresh: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), commit $(git -C "$root/work/lsdae" rev-parse --short HEAD)"
echo "=== scripts/run.sh (clone → statistics); its packages first, timed apart"
t0=$(date +%s)
in_root 'cd /work/lsdae && time scripts/setup-deps.sh >/work/deps.log 2>&1; echo "setup-deps.sh exit $?"'
echo "mean load during setup-deps.sh: $(mean_load "$t0")"
t0=$(date +%s)
in_root 'cd /work/lsdae && time scripts/run.sh >/work/run.log 2>&1; echo "run.sh exit $?"'
tail -5 "$root/work/run.log"
echo "load after run.sh: $(cut -d' ' -f1-3 /proc/loadavg); mean load during run.sh: $(mean_load "$t0")"
[ "$run_only" = "--run-only" ] && exit 0
echo "=== scripts/test.sh (the rest)"
t0=$(date +%s)
in_root 'cd /work/lsdae && time scripts/test.sh >/work/test.log 2>&1; echo "test.sh exit $?"'
grep -E "tests passed|tests failed" "$root/work/test.log" || tail -20 "$root/work/test.log"
echo "load after test.sh: $(cut -d' ' -f1-3 /proc/loadavg); mean load during test.sh: $(mean_load "$t0")"
