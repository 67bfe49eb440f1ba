"""Reading the summary ``lsdae sweep`` writes (one row per scenario), as CSV or
HDF5 (docs/sweeps.md, "The summary").

    s = lsdae.read_summary("n1.h5")        # or "n1.csv"
    s["id"], s["status"], s["max:maxdev(gen[*].delta)"]

Returns a dict of columns in the summary's order: ``id``, ``status``,
``message`` (lists of str), ``reached_time``, ``wall_time_s`` and one float64
array per metric (NaN where the CSV cell is empty or ``nan``: no point
sampled, or no sample was a number), ``steps`` (int64). Rows are in the order
the scenarios finished.

- CSV: the header line, then RFC 4180 records. A last line cut by a kill
  (no line break at its end) is left out, as ``--resume`` does.
- HDF5 (h5py): /id, /status, /message, /reached_time, /steps, /wall_time_s,
  /metrics [rows, metrics] with /metric_names. The root attribute
  ``complete_rows`` counts the rows written in full (the sweep raises it
  after each row is on disk); the datasets are read up to it, so a row cut
  by a kill is left out. A file without it (written before it) is read up to
  its shortest dataset. A summary that is still being written can
  be read while the sweep runs (HDF5 1.10's file lock is not taken).

Errors raise ResultFileError naming the file, what is wrong and what to do.
"""
import csv
import io
import os

import numpy as np

from ._files import ResultFileError

_FIXED = ["id", "status", "message", "reached_time", "steps", "wall_time_s"]


def _fail(path, what, todo):
    raise ResultFileError(f"summary {path} → {what} → {todo}")


def _number(text):
    return float(text) if text != "" else float("nan")


def _read_csv(path):
    with open(path, "rb") as f:
        data = f.read().decode("utf-8")
    if not data.endswith("\n"):
        data = data[: data.rfind("\n") + 1]  # a last line cut by a kill
    records = list(csv.reader(io.StringIO(data, newline="")))
    if not records:
        _fail(path, "empty (no header line)", "give the summary lsdae sweep wrote")
    header = records[0]
    if header[: len(_FIXED)] != _FIXED:
        _fail(path, f"its header starts {header[:len(_FIXED)]}, not {_FIXED}", "give the summary lsdae sweep wrote")
    rows = [r for r in records[1:] if r]
    for k, r in enumerate(rows):
        if len(r) != len(header):
            _fail(path, f"row {k + 1} has {len(r)} fields, the header {len(header)}", "check the file")
    out = {}
    for c, name in enumerate(header):
        column = [r[c] for r in rows]
        if name in ("id", "status", "message"):
            out[name] = column
        elif name == "steps":
            out[name] = np.array([int(x) if x else 0 for x in column], dtype=np.int64)
        else:
            out[name] = np.array([_number(x) for x in column], dtype=np.float64)
    return out


def _text(values):
    return [v.decode("utf-8") if isinstance(v, bytes) else str(v) for v in values]


def _read_hdf5(path):
    os.environ.setdefault("HDF5_USE_FILE_LOCKING", "FALSE")  # a summary still being written
    try:
        import h5py
    except ImportError:
        _fail(path, "reading HDF5 needs h5py", "install python3-h5py (Debian) or read a CSV summary")
    try:
        f = h5py.File(path, "r")
    except OSError as e:
        _fail(path, f"not an HDF5 file h5py can open ({e})", "give the summary lsdae sweep wrote")
    with f:
        if f.attrs.get("format") not in ("lsdae-sweep-summary 1", b"lsdae-sweep-summary 1"):
            _fail(path, f"format attribute {f.attrs.get('format')!r}", "give an HDF5 summary lsdae sweep wrote")
        header = _text(f["columns"][:])
        names = _text(f["metric_names"][:])
        sets = [n for n in _FIXED + ["metrics"] if n in f]
        shortest = min(f[n].shape[0] for n in sets)
        rows = int(f.attrs.get("complete_rows", shortest))
        if not 0 <= rows <= shortest:
            _fail(path, f"complete_rows says {rows} rows, a dataset holds {shortest}",
                  "give a summary lsdae sweep wrote (or --resume it)")
        out = {}
        for name in header[: len(_FIXED)]:
            data = f[name][:rows]
            out[name] = _text(data) if name in ("id", "status", "message") else np.asarray(data)
        metrics = f["metrics"][:rows, :] if names else np.zeros((rows, 0))
        for k, name in enumerate(names):
            out[name] = np.asarray(metrics[:, k], dtype=np.float64)
    return out


def read_summary(path, format=None):
    """The summary of ``lsdae sweep`` (CSV or HDF5, by the extension or
    ``format="csv"``/``"hdf5"``) as a dict of columns."""
    path = os.fspath(path)
    if not os.path.isfile(path):
        _fail(path, "no such file", "check the path (lsdae sweep --summary FILE wrote it)")
    if format is None:
        format = "hdf5" if os.path.splitext(path)[1].lower() in (".h5", ".hdf5") else "csv"
    if format == "hdf5":
        return _read_hdf5(path)
    if format == "csv":
        return _read_csv(path)
    _fail(path, f"unknown format {format!r}", 'give format="csv" or "hdf5"')
