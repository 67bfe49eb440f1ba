"""python -m lsdae: the command-line program, `lsdae simulate model.fmu` and the rest.

Runs the lsdae program that came with this package: the one pip installed
beside it (<prefix>/bin/lsdae, the prefix of lib/python3.X/site-packages/lsdae),
else the build tree's (build/bin/lsdae beside build/python/lsdae), else the
first `lsdae` on PATH. The process becomes the program (its exit codes are
lsdae's; `lsdae --help` lists them).
"""
import os
import shutil
import sys


def _program():
    package = os.path.dirname(os.path.abspath(__file__))
    candidates = [
        os.path.join(package, "..", "..", "..", "..", "bin", "lsdae"),  # <prefix>/lib/python3.X/site-packages/lsdae
        os.path.join(package, "..", "..", "bin", "lsdae"),              # <build>/python/lsdae
    ]
    for path in candidates:
        if os.path.isfile(path) and os.access(path, os.X_OK):
            return os.path.normpath(path)
    return shutil.which("lsdae")


def main():
    program = _program()
    if program is None:
        sys.stderr.write("python -m lsdae: the lsdae program is not installed beside the package nor on PATH "
                         "→ pip install . (it installs both), or add the folder of lsdae to PATH\n")
        return 2
    sys.stdout.flush()
    sys.stderr.flush()
    os.execv(program, [program] + sys.argv[1:])
    return 70  # not reached: execv replaces the process or raises


if __name__ == "__main__":
    sys.exit(main())
