#!/usr/bin/env bash
# tests/packaging/deb_test.sh <build dir> <work dir> <fmu>
# The Debian package (cmake/LsdaePackaging.cmake) as a user meets it:
# `cpack -G DEB` writes lsdae_<version>_amd64.deb; its control data (dpkg-deb -I)
# names the package, the version and the Debian 12 libraries it needs; its
# contents (dpkg-deb --contents) are the program, the library under its SONAME,
# the headers, the CMake package, lsdae.pc and the man pages; unpacked into a
# temporary root (dpkg -x: what `apt install ./lsdae_*.deb` puts under /), the
# program runs from there and simulates `fmu` byte for byte as the build tree's.
set -euo pipefail
build=$1 work=$2 fmu=$3
fail() { echo "deb_test: $*" >&2; exit 1; }
rm -rf "$work" && mkdir -p "$work"
version=$(awk -F= '/^CMAKE_PROJECT_VERSION:/ {print $2}' "$build/CMakeCache.txt")
arch=$(dpkg --print-architecture)
cpack --config "$build/CPackConfig.cmake" -G DEB -B "$work" >"$work/cpack.log" 2>&1 ||
  { tail -30 "$work/cpack.log"; fail "cpack -G DEB failed (log above)"; }
deb=$work/lsdae_${version}_${arch}.deb
[ -f "$deb" ] || fail "no $(basename "$deb") in $work: $(ls "$work")"
echo "$(basename "$deb"): $(du -h "$deb" | cut -f1)"

info=$(dpkg-deb -I "$deb")
echo "$info" | grep -E '^ (Package|Version|Architecture|Depends):'
field() { awk -v f="$1" '$1 == f":" { $1 = ""; sub(/^ /, ""); print }' <<<"$info"; }
[ "$(field Package)" = lsdae ] || fail "Package: \"$(field Package)\", not lsdae"
[ "$(field Version)" = "$version" ] || fail "Version: \"$(field Version)\", not $version"
[ "$(field Architecture)" = "$arch" ] || fail "Architecture: \"$(field Architecture)\", not $arch"
depends=$(field Depends)
# The libraries every build links (cmake/LsdaeDependencies.cmake), by their Debian 12 runtime packages.
for p in libc6 libstdc++6 libgomp1 libsundials-ida libklu libzip4 libpugixml1v5 libhdf5 libmatio; do
  grep -q "\(^\|, \)$p" <<<"$depends" || fail "Depends: does not name $p: $depends"
done
grep -q "lsdae" <<<"$(dpkg-deb -I "$deb" shlibs 2>/dev/null)" || fail "no shlibs file for liblsdae"

contents=$(dpkg-deb --contents "$deb" | awk '{print $6}')
soname=$(objdump -p "$build/lib/liblsdae.so" | awk '/SONAME/ {print $2}')
for f in ./usr/bin/lsdae "./usr/lib/$soname" ./usr/lib/liblsdae.so ./usr/include/lsdae/lsdae.h \
         ./usr/include/lsdae/version.h ./usr/lib/cmake/lsdae/lsdaeConfig.cmake ./usr/lib/pkgconfig/lsdae.pc \
         ./usr/share/man/man1/lsdae.1.gz ./usr/share/man/man1/lsdae-simulate.1.gz; do
  grep -qxF "$f" <<<"$contents" || fail "$f is not in the package"
done
if grep -q "python3" <<<"$contents"; then fail "the Python package is in the .deb (pip install . is its way in)"; fi
echo "contents: $(wc -l <<<"$contents") entries, the program, $soname, headers, CMake package, lsdae.pc, man pages"

root=$work/root
dpkg -x "$deb" "$root"
zcat "$root/usr/share/man/man1/lsdae-simulate.1.gz" | grep -q -- 'rtol' || fail "lsdae-simulate(1) does not describe --rtol"
cd "$work"
env -u LD_LIBRARY_PATH "$root/usr/bin/lsdae" --version || fail "the unpacked lsdae --version exited with $?"
loaded=$(ldd "$root/usr/bin/lsdae" | awk '/liblsdae/ {print $3}')
[ "$(readlink -f "$loaded")" = "$(readlink -f "$root/usr/lib/$soname")" ] ||
  fail "the unpacked program loads \"$loaded\", not the unpacked $root/usr/lib/$soname"
"$root/usr/bin/lsdae" simulate "$fmu" --no-progress -o deb.csv || fail "the unpacked lsdae simulate exited with $?"
"$build/bin/lsdae" simulate "$fmu" --no-progress -o cli.csv 2>/dev/null || fail "build/bin/lsdae simulate exited with $?"
cmp cli.csv deb.csv || fail "the packaged program's result differs from the build tree's"
echo "dpkg -x: the packaged lsdae simulates $(basename "$fmu") byte for byte as the build tree's ($(wc -l <deb.csv) rows)"
