"""Result: the rows of a run, indexable by name (PyFMI's result style), with
the NumPy structured array FMPy's simulate_fmu returns as ``.data``."""
import numpy as np


class Result:
    """Rows at the start, at every output point, and just before and after
    each event (the rows ``lsdae simulate`` writes).

    ``result["x"]`` is the column of x (a NumPy array), ``result["time"]``
    the times; ``result.names`` the recorded variables in order;
    ``result.data`` the structured array (fields "time" and the names);
    ``result.statistics`` the run's statistics (a dict);
    ``result.final("x")`` the last value. ``len(result)`` is the row count.
    """

    def __init__(self, names, time, columns, statistics=None, terminated=False, completed=True):
        self.names = list(names)
        self._time = time
        self._columns = dict(zip(self.names, columns))
        self.statistics = statistics or {}
        #: True when the FMU asked to terminate the simulation
        self.terminated = terminated
        #: False when the run ended early (an error or an interruption)
        self.completed = completed
        self._data = None

    def __len__(self):
        return len(self._time)

    def __getitem__(self, name):
        if name == "time":
            return self._time
        try:
            column = self._columns[name]
        except KeyError:
            raise KeyError(f"{name!r} is not in this result → the result has: "
                           f"time, {', '.join(self.names[:12])}{', ...' if len(self.names) > 12 else ''}; "
                           "name it in output= (lsdae.simulate) or options['filter'] (Model.simulate)") from None
        return column if isinstance(column, np.ndarray) else np.array(column, dtype=object)

    def __contains__(self, name):
        return name == "time" or name in self._columns

    def keys(self):
        return ["time"] + self.names

    def final(self, name):
        """The last recorded value of ``name``."""
        return self[name][-1]

    @property
    def data(self):
        """The rows as a NumPy structured array: field "time" then one per name."""
        if self._data is None:
            fields = [("time", np.float64)]
            for name in self.names:
                column = self._columns[name]
                fields.append((name, column.dtype if isinstance(column, np.ndarray) else object))
            data = np.empty(len(self._time), dtype=fields)
            data["time"] = self._time
            for name in self.names:
                data[name] = self._columns[name]
            self._data = data
        return self._data

    def __array__(self, dtype=None):
        return self.data if dtype is None else self.data.astype(dtype)

    def __repr__(self):
        state = "" if self.completed else ", incomplete"
        return f"<lsdae.Result: {len(self)} rows × {len(self.names)} variables{state}>"
