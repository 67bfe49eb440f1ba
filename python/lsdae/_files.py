"""Reading the result files ``lsdae simulate`` writes (CSV, HDF5, MAT) into a
Result, the object runs in Python return.

    res = lsdae.read_result("run.h5")                 # every column
    res = lsdae.read_result("big.csv", names=["v_*"]) # only these (globs)
    res["v_1"], res.units["v_1"], res.events, res.statistics

Formats (by the extension, or ``format=``):

- CSV: streamed row by row with the csv module, keeping only the selected
  columns, so memory grows with the rows times the columns *kept*, not with
  the file (a 10^5-column ``--all`` file read for three variables holds three
  lists). The units line of ``--csv-units`` is recognised (its fields are not
  numbers). Numbers are parsed with float(): the writer's shortest
  round-trip text gives back the same doubles bitwise (integers beyond 2^53
  come back rounded: read HDF5 for those). Text columns (lsdae quotes every
  String) become object arrays.
- HDF5 (h5py): /time, /event and each /<Type>/values; columns are put back in
  the CSV's order (/<Type>/column); the statistics attribute (JSON) becomes
  ``.statistics``. Only the selected columns are read.
- MAT (scipy.io.loadmat, the Dymola layout): name, description (unit from the
  trailing " [unit]"), dataInfo, data_1 (constants: repeated over the rows),
  data_2. A negative dataInfo row is a negated alias, as Dymola writes them.

``.events`` is an int8 array per row: 0 an output point, 1 the row just
before an event, 2 the row just after it (HDF5 stores it, and a CSV written
with --csv-events in its "event" column; otherwise it is rebuilt from the
repeated times, the convention of CSV and MAT). Errors raise
ResultFileError (a ValueError) naming the file, what is wrong and what to do.
"""
import csv
import fnmatch
import json
import os

import numpy as np

from ._result import Result


class ResultFileError(ValueError):
    """A result file that cannot be read: missing, of an unknown format, or not
    in the layout ``lsdae simulate`` writes."""


def _fail(path, what, todo):
    raise ResultFileError(f"result file {path} → {what} → {todo}")


def _selector(names):
    if names is None:
        return lambda name: True
    patterns = [names] if isinstance(names, str) else list(names)
    return lambda name: any(fnmatch.fnmatchcase(name, p) for p in patterns)


def _events_from_time(time):
    events = np.zeros(len(time), dtype=np.int8)
    if len(time) > 1:
        same = np.flatnonzero(time[1:] == time[:-1])
        events[same] = 1
        events[same + 1] = 2
    return events


def _format_of(path, format):
    if format:
        if format not in ("csv", "hdf5", "mat"):
            _fail(path, f"format {format!r} is unknown", "give format='csv', 'hdf5' or 'mat'")
        return format
    ext = os.path.splitext(str(path))[1].lower()
    kinds = {".csv": "csv", "": "csv", ".h5": "hdf5", ".hdf5": "hdf5", ".mat": "mat"}
    if ext not in kinds:
        _fail(path, f"the extension {ext!r} names no result format", "name it .csv, .h5 or .mat, or pass format=")
    return kinds[ext]


def _read_csv(path, wanted):
    with open(path, newline="", encoding="utf-8") as f:
        header = next(csv.reader([f.readline()]), None)
        if not header or header[0] != "time":
            _fail(path, f"its first column is {(header or [''])[0]!r}, not 'time'",
                  "give a file written by lsdae simulate")
        names = header[1:]
        keep = [k + 1 for k, name in enumerate(names) if wanted(name)]
        # lsdae quotes every String (and Binary) field and no number, so
        # QUOTE_NONNUMERIC tells them apart: unquoted fields become floats.
        numbers = csv.reader(f, quoting=csv.QUOTE_NONNUMERIC)
        units = {}
        second = f.readline()
        rows = []
        if second.strip():
            try:
                rows = [next(csv.reader([second], quoting=csv.QUOTE_NONNUMERIC))]
            except ValueError:  # not numbers: the --csv-units line
                fields = next(csv.reader([second]))
                units = {names[k - 1]: fields[k] if k < len(fields) else "" for k in keep}
        # Only the kept fields of each row are held.
        times, columns, marks = [], [[] for _ in keep], []
        event_column = len(header) > 1 and header[1] == "event"  # --csv-events
        line = 3 if units else 2

        def take(row):
            if len(row) != len(header):
                _fail(path, f"line {line} has {len(row)} fields, the header {len(header)}",
                      "the file is damaged (a run killed mid-line leaves a partial last line: drop it)")
            times.append(row[0])
            if event_column:
                marks.append(row[1])
            for j, k in enumerate(keep):
                columns[j].append(row[k])

        for row in rows:
            take(row)
        try:
            for row in numbers:
                line += 1
                if row:
                    take(row)
        except ValueError as e:
            _fail(path, f"line {line}: {e}", "the file is damaged or not written by lsdae simulate")
    time = np.array(times, dtype=np.float64)
    arrays = [np.array(c, dtype=object) if any(isinstance(v, str) for v in c) else np.array(c, dtype=np.float64)
              for c in columns]
    events = np.array(marks, dtype=np.int8) if event_column else _events_from_time(time)
    return [names[k - 1] for k in keep], time, arrays, units, events, None


def _read_hdf5(path, wanted):
    try:
        import h5py
    except ImportError:
        _fail(path, "needs h5py to be read", "install python3-h5py (Debian) or h5py (pip)")
    try:
        f = h5py.File(path, "r")
    except OSError as e:
        _fail(path, f"cannot be opened as HDF5 ({e})", "give a file written by lsdae simulate -o r.h5")
    with f:
        if "time" not in f:
            _fail(path, "has no /time dataset", "give a file written by lsdae simulate")
        time = f["time"][:].astype(np.float64)
        rows = len(time)
        events = f["event"][:rows].astype(np.int8) if "event" in f else _events_from_time(time)
        found = []
        for type_name in f:
            group = f[type_name]
            if not isinstance(group, h5py.Group) or "name" not in group or "values" not in group:
                continue
            names = list(group["name"].asstr()[:])
            units = list(group["unit"].asstr()[:]) if "unit" in group else [""] * len(names)
            places = list(group["column"][:]) if "column" in group else list(range(len(names)))
            values = group["values"]
            text = h5py.check_string_dtype(values.dtype) is not None
            for k, name in enumerate(names):
                if not wanted(name):
                    continue
                column = values[:rows, k]
                column = np.array(values.asstr()[:rows, k], dtype=object) if text else column
                found.append((int(places[k]), name, units[k], column))
        found.sort(key=lambda x: x[0])
        statistics = f.attrs.get("statistics")
        if isinstance(statistics, bytes):
            statistics = statistics.decode()
        statistics = json.loads(statistics) if statistics else None
    return ([x[1] for x in found], time, [x[3] for x in found], {x[1]: x[2] for x in found}, events, statistics)


def _mat_strings(matrix):
    # binTrans: one name per column of a char matrix; scipy gives rows of strings.
    a = np.asarray(matrix)
    if a.dtype.kind in "US" and a.ndim == 1:
        return [str(s).rstrip() for s in a]
    chars = np.array([list(s) for s in a]) if a.dtype.kind in "US" else a
    return ["".join(chars[:, c]).rstrip() for c in range(chars.shape[1])]


def _read_mat(path, wanted):
    try:
        import scipy.io
    except ImportError:
        _fail(path, "needs SciPy to be read", "install python3-scipy (Debian) or scipy (pip)")
    try:
        m = scipy.io.loadmat(path, chars_as_strings=False)
    except (ValueError, OSError, TypeError) as e:
        _fail(path, f"cannot be read as MAT ({e})", "give a file written by lsdae simulate -o r.mat")
    for key in ("name", "dataInfo", "data_2"):
        if key not in m:
            _fail(path, f"has no {key} matrix (not the Dymola layout)", "give a file written by lsdae simulate")
    all_names = _mat_strings(m["name"])
    descriptions = _mat_strings(m["description"]) if "description" in m else [""] * len(all_names)
    info = np.asarray(m["dataInfo"], dtype=np.int64)
    if info.shape[0] != 4 and info.shape[1] == 4:
        info = info.T
    data_2 = np.asarray(m["data_2"], dtype=np.float64)
    data_1 = np.asarray(m["data_1"], dtype=np.float64) if "data_1" in m else np.zeros((1, 2))
    time = data_2[0, :].copy()
    rows = len(time)
    names, columns, units = [], [], {}
    for c in range(1, len(all_names)):
        name = all_names[c]
        if not wanted(name):
            continue
        matrix, row = int(info[0, c]), int(info[1, c])
        sign = -1.0 if row < 0 else 1.0
        if matrix == 1:
            column = np.full(rows, sign * data_1[abs(row) - 1, 0])
        elif matrix in (0, 2):
            column = sign * data_2[abs(row) - 1, :]
        else:
            _fail(path, f"dataInfo of {name!r} names matrix {matrix}", "the file is damaged")
        names.append(name)
        columns.append(column)
        d = descriptions[c] if c < len(descriptions) else ""
        units[name] = d[d.rfind(" [") + 2:-1] if d.endswith("]") and " [" in d else ""
    return names, time, columns, units, _events_from_time(time), None


def read_result(path, names=None, format=None):
    """The result file ``path`` (CSV, HDF5 or MAT, as lsdae simulate writes
    them) as a Result; ``names``: names or globs of the columns to read
    (default: all). ``.units`` (name → unit), ``.events`` (0/1/2 per row) and,
    for HDF5, ``.statistics`` come with it."""
    path = os.fspath(path)
    kind = _format_of(path, format)
    if not os.path.isfile(path):
        _fail(path, "cannot be opened: no such file", "check the path")
    wanted = _selector(names)
    read = {"csv": _read_csv, "hdf5": _read_hdf5, "mat": _read_mat}[kind]
    found, time, columns, units, events, statistics = read(path, wanted)
    if names is not None:
        patterns = [names] if isinstance(names, str) else list(names)
        for p in patterns:
            if not any(fnmatch.fnmatchcase(n, p) for n in found):
                _fail(path, f"{p!r} matches no column", "use a name or glob of the file's columns")
    completed = bool(statistics.get("completed", True)) if statistics else True
    result = Result(found, time, columns, statistics, completed=completed)
    result.units = units
    result.events = events
    result.path = path
    return result
