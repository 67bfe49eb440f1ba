"""Fixtures for the Python package's tests (run by ctest: tests/python/CMakeLists.txt
sets PYTHONPATH to the build tree's package and the paths below)."""
import os
import pathlib

import pytest


def _path(variable):
    value = os.environ.get(variable)
    if not value:
        pytest.fail(f"{variable} is not set → run these tests through ctest (tests/python/CMakeLists.txt sets it)")
    return pathlib.Path(value)


@pytest.fixture(scope="session")
def fmu():
    """fmu("HelloWorld_semi_explicit_shapeA") → the built model FMU's path (it must exist)."""
    folder = _path("LSDAE_FMU_DIR")

    def path(name):
        p = folder / f"{name}.fmu"
        assert p.is_file(), f"{p} is missing → build the model FMUs (cmake --build build)"
        return str(p)
    return path


@pytest.fixture(scope="session")
def reference_fmu():
    """reference_fmu("Feedthrough.fmu") → a Reference-FMU from ../shared (must exist when ../shared does)."""
    root = _path("LSDAE_REFERENCE_FMUS")
    folder = root / "fmi3"

    def path(name):
        p = folder / name
        if not p.exists():
            if root.parents[2].exists():  # ../shared itself
                pytest.fail(f"{p} is missing from the shared data")
            pytest.skip("no shared data (../shared) next to the clone")
        return str(p)
    return path


@pytest.fixture(scope="session")
def lsdae_binary():
    return str(_path("LSDAE_BINARY"))


@pytest.fixture(scope="session")
def example_c():
    return str(_path("LSDAE_EXAMPLE_C"))
