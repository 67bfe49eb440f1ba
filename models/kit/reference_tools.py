"""Shared helpers of the models' Python reference scripts (standard library only).

The scripts that compute the reference solutions under models/*/reference/
(make_reference.py of bouncing_ball, cauer_low_pass, coupled_masses,
index2_example, pendulum, powergrid, robertson, time_event and two_capacitors,
and powergrid's scenario_swing.py) import this module with

    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "kit"))
    import reference_tools

for the two things they have in common:

  * require_numpy_scipy(__file__): make sure numpy and scipy import, re-running
    the script under Debian's /usr/bin/python3 when the python3 that runs it
    (pyenv, venv, ...) lacks them;
  * write_csv(path, header, rows): the reference CSV format, a header line of
    column names and one line per row of numbers written with "%.17g" (enough
    digits to read back the same double), all joined by commas.
"""
import os
import sys

DEBIAN_PYTHON = "/usr/bin/python3"


def require_numpy_scipy(script):
    """Return if numpy and scipy import; otherwise re-execute `script` (the caller's
    __file__, with the same arguments) under /usr/bin/python3, unless that is the
    interpreter already running, in which case exit with an install hint."""
    try:
        import numpy  # noqa: F401
        import scipy  # noqa: F401
    except ImportError:
        if os.path.exists(DEBIAN_PYTHON) and os.path.realpath(sys.executable) != os.path.realpath(DEBIAN_PYTHON):
            os.execv(DEBIAN_PYTHON, [DEBIAN_PYTHON, os.path.abspath(script)] + sys.argv[1:])
        sys.exit("%s: needs numpy and scipy (apt-get install python3-numpy python3-scipy)"
                 % os.path.basename(script))


def write_csv(path, header, rows):
    """Write the column names `header`, then every row of `rows` (sequences of
    numbers) formatted "%.17g", comma-separated, one newline-terminated line each."""
    with open(path, "w") as out:
        out.write(",".join(header) + "\n")
        for row in rows:
            out.write(",".join("%.17g" % v for v in row) + "\n")
