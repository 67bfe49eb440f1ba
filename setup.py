"""pip install . -- setuptools driving CMake (pyproject.toml; docs/python.md, "pip install").

The wheel holds what `cmake --install` puts under a prefix, laid out the same
way, so the RPATHs the install writes hold wherever pip installs it (a venv,
~/.local, /usr/local):

    lib/python3.X/site-packages/lsdae/   the package, _lsdae*.so (RPATH $ORIGIN/../../..)
    lib/liblsdae.so.<soversion>          the library (wheel data)
    bin/lsdae                            the program (RPATH $ORIGIN/../lib; wheel data)

CMake runs in build-pip/cmake (configured once, Release, no tests; ccache when
installed), building the extension, the library and the program only.
LSDAE_BUILD_DIR=<a configured and built tree> installs from that tree instead
and compiles nothing (tests/packaging/pip_install_test.sh).
"""
import os
import pathlib
import re
import shutil
import subprocess
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = pathlib.Path(__file__).resolve().parent


def _version():
    text = (ROOT / "CMakeLists.txt").read_text()
    match = re.search(r"project\(lsdae\s+VERSION\s+([0-9.]+)", text)
    if not match:
        raise RuntimeError("setup.py: no `project(lsdae VERSION x.y.z)` in CMakeLists.txt → restore that line")
    return match.group(1)


def _cache(build_dir, name):
    for line in (build_dir / "CMakeCache.txt").read_text().splitlines():
        if line.startswith(name + ":"):
            return line.split("=", 1)[1]
    return None


def _run(command):
    print("+ " + " ".join(str(c) for c in command), flush=True)
    subprocess.run([str(c) for c in command], check=True)


class CMakeBuild(build_ext):
    """Builds lsdae._lsdae (and liblsdae.so, the program) with CMake."""

    def run(self):
        reuse = os.environ.get("LSDAE_BUILD_DIR")
        if reuse:
            build_dir = pathlib.Path(reuse).resolve()
            if not (build_dir / "CMakeCache.txt").is_file():
                raise RuntimeError(f"setup.py: LSDAE_BUILD_DIR={reuse} has no CMakeCache.txt → give a configured "
                                   "build tree, or unset LSDAE_BUILD_DIR to build one")
        else:
            build_dir = ROOT / "build-pip" / "cmake"
            configure = ["cmake", "-S", ROOT, "-B", build_dir, "-DCMAKE_BUILD_TYPE=Release",
                         "-DLSDAE_PYTHON=ON", "-DLSDAE_BUILD_TESTS=OFF", "-DLSDAE_BUILD_BENCH=OFF",
                         "-DLSDAE_WERROR=OFF", f"-DPython3_EXECUTABLE={sys.executable}"]
            if shutil.which("ccache"):
                configure += ["-DCMAKE_C_COMPILER_LAUNCHER=ccache", "-DCMAKE_CXX_COMPILER_LAUNCHER=ccache"]
            _run(configure)
        if _cache(build_dir, "LSDAE_PYTHON_BUILD_DIR") is None:
            raise RuntimeError(f"setup.py: {build_dir} was configured without the Python package → "
                               "configure it with -DLSDAE_PYTHON=ON (needs python3-dev, pybind11-dev)")
        jobs = str(self.parallel or os.cpu_count() or 1)
        _run(["cmake", "--build", build_dir, "-j", jobs, "--target", "lsdae_python", "lsdae", "lsdae_shared"])

        stage = pathlib.Path(self.build_temp).resolve() / "stage"
        shutil.rmtree(stage, ignore_errors=True)
        _run(["cmake", "--install", build_dir, "--prefix", stage])
        package = stage / _cache(build_dir, "LSDAE_PYTHON_INSTALL_DIR") / "lsdae"
        libdir = stage / (_cache(build_dir, "CMAKE_INSTALL_LIBDIR") or "lib")
        extension = self.get_ext_fullpath("lsdae._lsdae")
        built = package / os.path.basename(extension)
        if not built.is_file():
            found = ", ".join(p.name for p in package.glob("_lsdae*")) or "none"
            raise RuntimeError(f"setup.py: {build_dir} holds no {built.name} for this Python ({sys.executable}; "
                               f"found: {found}) → build it for this interpreter (-DPython3_EXECUTABLE)")
        os.makedirs(os.path.dirname(extension), exist_ok=True)
        shutil.copy2(built, extension)

        # The library under its SONAME (the link liblsdae.so.<soversion> resolved; a wheel holds no links),
        # and the program, as wheel data: pip puts them in <prefix>/lib and <prefix>/bin.
        sonames = [p for p in libdir.glob("liblsdae.so.*") if p.is_symlink()]
        if len(sonames) != 1:
            raise RuntimeError(f"setup.py: expected one liblsdae.so.<soversion> link in {libdir}, found "
                               f"{[p.name for p in sonames]} → check cmake/LsdaeLibrary.cmake's SOVERSION")
        data = pathlib.Path(self.build_temp).resolve() / "data"
        shutil.rmtree(data, ignore_errors=True)
        (data / "lib").mkdir(parents=True)
        (data / "bin").mkdir(parents=True)
        shutil.copy(sonames[0], data / "lib" / sonames[0].name)  # follows the link
        shutil.copy2(stage / (_cache(build_dir, "CMAKE_INSTALL_BINDIR") or "bin") / "lsdae", data / "bin" / "lsdae")
        self.distribution.data_files = [("lib", [str(data / "lib" / sonames[0].name)]),
                                        ("bin", [str(data / "bin" / "lsdae")])]


setup(
    version=_version(),
    packages=["lsdae"],
    package_dir={"": "python"},
    ext_modules=[Extension("lsdae._lsdae", sources=[])],
    cmdclass={"build_ext": CMakeBuild},
    options={"build": {"build_base": "build-pip"}},
    zip_safe=False,
)
