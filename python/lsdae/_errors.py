"""lsdae's exceptions: one class per kind of failure, all under LsdaeError.

Each class carries ``exit_code`` (the exit code of the ``lsdae`` program for
that kind, README "Exit codes") and ``category`` (the kind's name); the
message has lsdae's shape: where → what → value seen → what to do.

    LsdaeError
      InvalidModelError  1   the FMU breaks an FMI 3.0 / FMI-LS-DAE rule
      UsageError         2   bad argument, unknown variable, wrong call order (also a ValueError)
      ArchiveError       3   the .fmu is not a readable, safe zip archive
      XmlError           4   modelDescription.xml or the manifest cannot be parsed
      BinaryError        5   the FMU's shared library is missing or unloadable
      FmuCallError       6   an fmi3 function returned fmi3Error / fmi3Fatal
      SolverError        7   the numerical solution failed
      StructureError     8   the structural analysis failed
      OutputError        9   a result file could not be written
      FmuCrashError     10   the FMU crashed the process running it
      LsdaeTimeoutError 11   a watchdog limit was hit (also a TimeoutError)
      CancelledError   130   Simulation.cancel() from another thread stopped the run
      InternalError     70   a bug in lsdae

Ctrl-C raises Python's own KeyboardInterrupt. An error or interruption in
the middle of a run carries the rows computed before it as ``.result``.
"""
from ._lsdae import (  # noqa: F401  (re-exported)
    ArchiveError,
    BinaryError,
    CancelledError,
    FmuCallError,
    FmuCrashError,
    InternalError,
    InvalidModelError,
    LsdaeError,
    LsdaeTimeoutError,
    OutputError,
    SolverError,
    StructureError,
    UsageError,
    XmlError,
)

__all__ = [
    "LsdaeError", "InvalidModelError", "UsageError", "ArchiveError", "XmlError", "BinaryError",
    "FmuCallError", "SolverError", "StructureError", "OutputError", "FmuCrashError",
    "LsdaeTimeoutError", "CancelledError", "InternalError",
]
