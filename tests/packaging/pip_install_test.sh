#!/usr/bin/env bash
# tests/packaging/pip_install_test.sh <build dir> <source dir> <work dir> <python3> <fmu>
# `pip install .` as a Python user meets it (setup.py, pyproject.toml; docs/python.md):
# offline (--no-index) and --no-build-isolation, into a fresh virtual environment
# that sees Debian's NumPy (--system-site-packages). Then, from that venv only
# (no PYTHONPATH): the package imports from the venv, the program pip put in
# the venv's bin/ and `python -m lsdae` run, and lsdae.simulate, `python -m
# lsdae simulate` and the build tree's lsdae simulate write byte-identical CSVs.
#
# Lean: the back-end installs from this build tree (LSDAE_BUILD_DIR: nothing is
# compiled), from a copy of the files pip reads, so the source tree stays clean.
# Building a fresh tree through CMake is the same setup.py without
# LSDAE_BUILD_DIR (docs/python.md measures it).
set -euo pipefail
build=$1 src=$2 work=$3 python=$4 fmu=$5
fail() { echo "pip_install_test: $*" >&2; exit 1; }
unset PYTHONPATH
rm -rf "$work" && mkdir -p "$work/src/python"
cp "$src/setup.py" "$src/pyproject.toml" "$src/CMakeLists.txt" "$src/README.md" "$work/src/"
cp -r "$src/python/lsdae" "$work/src/python/"
"$python" -m venv --system-site-packages "$work/venv" || fail "python3 -m venv failed (python3-venv installed?)"
venv=$work/venv
LSDAE_BUILD_DIR=$build "$venv/bin/pip" install --no-index --no-build-isolation --disable-pip-version-check \
  "$work/src" >"$work/pip.log" 2>&1 || { tail -40 "$work/pip.log"; fail "pip install failed (log above)"; }
grep -E '^Successfully installed' "$work/pip.log" || fail "pip did not say it installed lsdae"

cd "$work"
where=$("$venv/bin/python" -c 'import lsdae, os; print(os.path.realpath(lsdae.__file__))')
echo "lsdae imported from $where"
case $where in "$(realpath "$venv")"/lib/python3*/site-packages/lsdae/__init__.py) ;;
  *) fail "lsdae imported from $where, not from the venv" ;; esac
[ -x "$venv/bin/lsdae" ] || fail "pip did not install the program into $venv/bin"
[ -e "$venv/lib/$(objdump -p "$venv/bin/lsdae" | awk '/NEEDED.*liblsdae/ {print $2}')" ] ||
  fail "the library the program needs is not in $venv/lib"
"$venv/bin/python" -m lsdae --version || fail "python -m lsdae --version exited with $?"

"$build/bin/lsdae" simulate "$fmu" --no-progress -o cli.csv 2>/dev/null || fail "build/bin/lsdae simulate exited with $?"
"$venv/bin/python" -m lsdae simulate "$fmu" --no-progress -o module.csv 2>/dev/null ||
  fail "python -m lsdae simulate exited with $?"
"$venv/bin/lsdae" simulate "$fmu" --no-progress -o venv_cli.csv 2>/dev/null || fail "venv/bin/lsdae simulate exited with $?"
"$venv/bin/python" - "$fmu" <<'PY' || fail "lsdae.simulate from the venv failed"
import sys
import lsdae
rows = lsdae.simulate(sys.argv[1], result_file="python.csv")
print(f"lsdae.simulate: {len(rows)} rows, columns {rows.dtype.names[:4]}")
PY
for f in module.csv venv_cli.csv python.csv; do
  cmp cli.csv "$f" || fail "$f differs from the build tree's lsdae simulate (cli.csv)"
done
echo "pip install: the venv's lsdae.simulate, python -m lsdae and bin/lsdae write the CLI's $(wc -l <cli.csv) rows byte for byte"
