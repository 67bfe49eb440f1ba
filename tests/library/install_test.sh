#!/usr/bin/env bash
# tests/library/install_test.sh <step> <build dir> <source dir> <work dir> <libdir> <fmu>
# The installed library as a user meets it (cmake/LsdaeLibrary.cmake):
#   install         cmake --install into <work dir>/prefix (a fresh prefix)
#   files           the headers, liblsdae.so's SONAME and symlinks, the CMake package, lsdae.pc
#   exports         liblsdae.so exports the C API and namespace lsdae only
#   cmake_consumer  examples/cmake_consumer configured with -DCMAKE_PREFIX_PATH, built, run
#   gcc_c99         examples/simulate_c.c compiled with gcc -std=c99 and -llsdae alone, run
#   pkg_config      the same with the flags `pkg-config --cflags --libs lsdae` gives, run
#   cli             the installed lsdae program runs from the prefix (rpath to its library)
#   python          the installed Python package imports from the prefix and simulates
set -euo pipefail
step=$1 build=$2 src=$3 work=$4 libdir=$5 fmu=$6
prefix=$work/prefix
fail() { echo "install_test $step: $*" >&2; exit 1; }
expect_x() {  # the HelloWorld FMU's x at t = 1 (as tests/runtime/capi check it)
  local out
  out=$("$@") || fail "$* exited with $?"
  echo "$out"
  grep -q '^x(1) = 4\.0552' <<<"$out" || fail "$* did not print x(1) = 4.0552..."
}
case $step in
  install)
    rm -rf "$work" && mkdir -p "$work"
    cmake --install "$build" --prefix "$prefix" >"$work/install.log" || { cat "$work/install.log"; fail "cmake --install failed"; }
    ;;
  files)
    for f in include/lsdae/lsdae.h include/lsdae/simulation.h include/lsdae/fmu.h \
             "$libdir/cmake/lsdae/lsdaeConfig.cmake" "$libdir/cmake/lsdae/lsdaeConfigVersion.cmake" \
             "$libdir/cmake/lsdae/lsdaeTargets.cmake" "$libdir/pkgconfig/lsdae.pc" bin/lsdae; do
      [ -e "$prefix/$f" ] || fail "$prefix/$f was not installed"
    done
    real=$(readlink -f "$prefix/$libdir/liblsdae.so")
    soname=$(objdump -p "$real" | awk '/SONAME/ {print $2}')
    echo "liblsdae.so -> $(basename "$real"), SONAME $soname"
    [[ $soname =~ ^liblsdae\.so\.[0-9]+(\.[0-9]+)?$ ]] || fail "SONAME \"$soname\" is not versioned"
    [ -e "$prefix/$libdir/$soname" ] || fail "no $soname symlink in $prefix/$libdir"
    # Every public header compiles on its own (nothing from the source tree needed).
    for h in "$prefix"/include/lsdae/*.h; do
      echo "#include \"lsdae/$(basename "$h")\"" | g++ -std=c++20 -fsyntax-only -I"$prefix/include" -x c++ - \
        || fail "installed header $(basename "$h") does not compile on its own"
    done
    echo '#include "lsdae/lsdae.h"' | gcc -std=c99 -pedantic -Werror -fsyntax-only -I"$prefix/include" -x c - \
      || fail "lsdae/lsdae.h is not C99"
    ;;
  exports)
    lib=$prefix/$libdir/liblsdae.so
    # Defined dynamic symbols that are neither lsdae_* C functions nor in namespace lsdae.
    stray=$(nm -D --defined-only -C "$lib" | awk '{ $1=""; $2=""; sub(/^  /, ""); print }' |
      grep -v -E '^(lsdae_|lsdae::|(typeinfo|typeinfo name|vtable|VTT|guard variable) for lsdae::|(non-)?virtual thunk to lsdae::|_init$|_fini$)' || true)
    [ -z "$stray" ] || fail "exports symbols outside the API: $(head -5 <<<"$stray")"
    # (the lists in variables: `grep -q` ending a pipe early would fail it under pipefail)
    symbols=$(nm -D --defined-only "$lib")
    demangled=$(nm -D --defined-only -C "$lib")
    for f in lsdae_open lsdae_initialize lsdae_advance_to lsdae_version lsdae_cancel lsdae_variable_at; do
      grep -q " T $f\$" <<<"$symbols" || fail "does not export $f"
    done
    grep -q 'lsdae::Simulation::create' <<<"$demangled" || fail "does not export lsdae::Simulation::create"
    echo "exports: $(nm -D --defined-only "$lib" | wc -l) symbols, all lsdae_* or lsdae::"
    ;;
  cmake_consumer)
    cmake -S "$src/examples/cmake_consumer" -B "$work/consumer" -DCMAKE_PREFIX_PATH="$prefix" \
      -DCMAKE_BUILD_TYPE=Release >"$work/consumer.log" || { cat "$work/consumer.log"; fail "configure failed"; }
    cmake --build "$work/consumer" >>"$work/consumer.log" 2>&1 || { cat "$work/consumer.log"; fail "build failed"; }
    expect_x "$work/consumer/simulate_cpp" "$fmu" x
    expect_x "$work/consumer/simulate_c" "$fmu" x
    ;;
  gcc_c99)
    gcc -std=c99 -Wall -Wextra -Werror -pedantic "$src/examples/simulate_c.c" -I"$prefix/include" \
      -L"$prefix/$libdir" -Wl,-rpath,"$prefix/$libdir" -llsdae -o "$work/simulate_c99"
    expect_x "$work/simulate_c99" "$fmu" x
    ;;
  pkg_config)
    flags=$(PKG_CONFIG_PATH="$prefix/$libdir/pkgconfig" pkg-config --cflags --libs lsdae) || fail "pkg-config lsdae failed"
    echo "pkg-config --cflags --libs lsdae: $flags"
    # shellcheck disable=SC2086
    gcc -std=c99 "$src/examples/simulate_c.c" $flags -Wl,-rpath,"$prefix/$libdir" -o "$work/simulate_pc"
    expect_x "$work/simulate_pc" "$fmu" x
    ;;
  cli)
    out=$(env -u LD_LIBRARY_PATH "$prefix/bin/lsdae" --version) || fail "installed lsdae --version failed"
    echo "$out"
    used=$(env -u LD_LIBRARY_PATH ldd "$prefix/bin/lsdae" | awk '/liblsdae\.so/ {print $3}')
    [ -n "$used" ] || fail "the installed lsdae does not link liblsdae.so"
    [ "$(readlink -f "$used")" = "$(readlink -f "$prefix/$libdir/liblsdae.so")" ] ||
      fail "the installed lsdae loads $used, not the library in $prefix/$libdir"
    echo "lsdae uses $used"
    ;;
  python)
    # The package as `cmake --install` put it: imported from the prefix alone (no build tree).
    [ -n "${LSDAE_PYTHON_INSTALL_DIR:-}" ] || fail "LSDAE_PYTHON_INSTALL_DIR is not set"
    out=$(cd "$work" && env -u LD_LIBRARY_PATH PYTHONPATH="$prefix/$LSDAE_PYTHON_INSTALL_DIR" PYTHONDONTWRITEBYTECODE=1 \
      "$LSDAE_PYTHON_EXECUTABLE" -c "
import lsdae, sys
assert lsdae.__file__.startswith('$prefix'), lsdae.__file__
rows = lsdae.simulate(sys.argv[1], output=['x'])
print('x(1) = %.17g' % rows['x'][-1], lsdae.__version__)" "$fmu") || fail "the installed package did not run"
    echo "$out"
    grep -q '^x(1) = 4\.0552' <<<"$out" || fail "the installed package did not print x(1) = 4.0552..."
    ;;
  *) fail "unknown step" ;;
esac
