"""`lsdae sweep --summary FILE.h5`: the HDF5 summary, read with h5py and with
lsdae.read_summary, equals the CSV summary of the same sweep; it is readable
after the sweep was killed (SIGKILL) in the middle, and --resume continues it
to the rows of an uninterrupted sweep."""
import os
import signal
import subprocess
import time

import numpy as np
import pytest

import lsdae

h5py = pytest.importorskip("h5py")
os.environ["HDF5_USE_FILE_LOCKING"] = "FALSE"  # read the file the sweep is writing

METRICS = ["final:x", "max:der(x)", "tmax:x"]


def sweep(lsdae_binary, fmu, summary, *extra, wait=True, env=None):
    args = [lsdae_binary, "sweep", fmu("HelloWorld_ode"), "--no-progress", "--summary", str(summary)]
    for m in METRICS:
        args += ["--metric", m]
    args += list(extra)
    if not wait:
        return subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    return subprocess.run(args, capture_output=True, text=True, timeout=600)


def without_wall_time(summary):
    rows = {}
    for k, id in enumerate(summary["id"]):
        rows[id] = tuple(
            repr(summary[c][k]) if c not in ("id", "status", "message") else summary[c][k]
            for c in summary if c != "wall_time_s")
    return rows


def test_hdf5_summary_equals_the_csv_one(tmp_path, lsdae_binary, fmu):
    # x(0) = 0 and a scenario that fails (a value that is no number): NaN
    # metrics and an empty reached time become NaN in HDF5.
    table = tmp_path / "t.csv"
    table.write_text('id,x\none,1\n"two, quoted",2.5\nbad,nope\nthree,-0.5\n')
    for name in ("s.csv", "s.h5"):
        r = sweep(lsdae_binary, fmu, tmp_path / name, "--scenarios", str(table), "--stop", "0.5")
        assert r.returncode == 12, r.stderr  # one failed scenario
    csv_summary = lsdae.read_summary(tmp_path / "s.csv")
    h5_summary = lsdae.read_summary(tmp_path / "s.h5")
    assert list(h5_summary) == list(csv_summary) == ["id", "status", "message", "reached_time", "steps",
                                                     "wall_time_s"] + METRICS
    assert without_wall_time(h5_summary) == without_wall_time(csv_summary)
    assert h5_summary["steps"].dtype == np.int64

    with h5py.File(tmp_path / "s.h5", "r") as f:
        assert f.attrs["format"] == "lsdae-sweep-summary 1"
        assert f.attrs["model"] == "HelloWorld_ode.fmu"
        ids = [v.decode() for v in f["id"][:]]
        assert sorted(ids) == sorted(["one", "two, quoted", "bad", "three"])
        k = ids.index("bad")
        assert f["status"][k].decode() == "failed"
        assert "nope" in f["message"][k].decode()
        assert np.isnan(f["reached_time"][k])
        assert np.all(np.isnan(f["metrics"][k, :]))
        assert [v.decode() for v in f["metric_names"][:]] == METRICS
        one = ids.index("one")
        assert f["metrics"].shape == (4, 3)
        assert f["metrics"][one, 0] == pytest.approx(np.exp(1.4 * 0.5) * 1, rel=1e-4)
        assert f["reached_time"][one] == 0.5
        assert f["metrics"].chunks is not None  # extendible, chunked


def test_a_killed_hdf5_summary_is_readable_and_resumes(tmp_path, lsdae_binary, fmu):
    common = ["--monte-carlo", "400", "--draw", "x=uniform(0.5,2)", "--seed", "7", "--stop", "2", "--rtol", "1e-11",
              "--output-interval", "0.001"]
    full = sweep(lsdae_binary, fmu, tmp_path / "full.h5", *common)
    assert full.returncode == 0, full.stderr
    expected = without_wall_time(lsdae.read_summary(tmp_path / "full.h5"))
    assert len(expected) == 400

    part = tmp_path / "part.h5"
    # A process killed with SIGKILL cannot remove its unpacked FMU: keep that
    # folder in this test's own directory, not in the machine's /tmp.
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    child = sweep(lsdae_binary, fmu, part, *common, wait=False, env={**os.environ, "TMPDIR": str(scratch)})
    deadline = time.monotonic() + 120
    rows = 0
    try:
        while rows < 3:
            assert time.monotonic() < deadline, "the sweep wrote no rows"
            assert child.poll() is None, "the sweep ended before it could be killed"
            time.sleep(0.02)
            try:
                with h5py.File(part, "r") as f:
                    rows = f["id"].shape[0]
            except (OSError, KeyError):
                rows = 0
    finally:
        child.send_signal(signal.SIGKILL)
        child.communicate()
    assert [p.name[:6] for p in scratch.iterdir()] == ["lsdae-"], "the killed sweep's unpacked FMU, and only it"
    kept = lsdae.read_summary(part)
    assert 3 <= len(kept["id"]) < 400
    for column in kept.values():
        assert len(column) == len(kept["id"])
    for id in kept["id"]:
        assert without_wall_time(kept)[id] == expected[id]

    refused = sweep(lsdae_binary, fmu, part, *common)
    assert refused.returncode == 2 and "--resume" in refused.stderr
    resumed = sweep(lsdae_binary, fmu, part, *common, "--resume")
    assert resumed.returncode == 0, resumed.stderr
    assert f"{len(kept['id'])} scenario" in resumed.stderr
    assert without_wall_time(lsdae.read_summary(part)) == expected

    # Other metrics: the columns differ, the resume is refused.
    other = subprocess.run([lsdae_binary, "sweep", fmu("HelloWorld_ode"), "--summary", str(part), "--resume",
                            "--metric", "min:x"] + common, capture_output=True, text=True, timeout=600)
    assert other.returncode == 2 and "has the columns" in other.stderr, other.stderr


def torn(path, extra):
    """What a kill in the middle of a row's flush can leave: `extra` more
    entries in /id and /status (HDF5 writes a flush's metadata in its own
    order) than in the other datasets, the count of complete rows unchanged."""
    with h5py.File(path, "r+") as f:
        rows = f["id"].shape[0]
        for name in ("id", "status"):
            f[name].resize((rows + extra,))
            f[name][rows:] = [b"torn"] * extra
        return rows


def test_a_row_cut_in_the_middle_of_its_flush_is_left_out_and_resumed(tmp_path, lsdae_binary, fmu):
    common = ["--monte-carlo", "6", "--draw", "x=uniform(0.5,2)", "--seed", "3", "--stop", "0.5"]
    full = tmp_path / "full.h5"
    assert sweep(lsdae_binary, fmu, full, *common).returncode == 0
    expected = without_wall_time(lsdae.read_summary(full))
    with h5py.File(full, "r") as f:
        assert f.attrs["complete_rows"] == 6

    # Four rows written, the fifth cut after /id and /status grew.
    part = tmp_path / "part.h5"
    assert sweep(lsdae_binary, fmu, part, "--monte-carlo", "4", *common[2:]).returncode == 0
    assert torn(part, 1) == 4
    kept = lsdae.read_summary(part)
    assert all(len(column) == 4 for column in kept.values()) and "torn" not in kept["id"]
    for id, row in without_wall_time(kept).items():
        assert row == expected[id]
    resumed = sweep(lsdae_binary, fmu, part, *common, "--resume")
    assert resumed.returncode == 0, resumed.stderr
    assert "4 scenarios already" in resumed.stderr, resumed.stderr
    assert without_wall_time(lsdae.read_summary(part)) == expected
    with h5py.File(part, "r") as f:
        assert f.attrs["complete_rows"] == 6 and all(f[n].shape[0] == 6 for n in ("id", "steps", "metrics"))

    # A summary written before the count (no attribute): its shortest dataset.
    old = tmp_path / "old.h5"
    assert sweep(lsdae_binary, fmu, old, *common).returncode == 0
    with h5py.File(old, "r+") as f:
        del f.attrs["complete_rows"]
    torn(old, 2)
    assert without_wall_time(lsdae.read_summary(old)) == expected
    resumed = sweep(lsdae_binary, fmu, old, *common, "--resume")
    assert resumed.returncode == 0 and "6 scenarios already" in resumed.stderr, resumed.stderr

    # A count larger than a dataset: a damaged file, said so.
    with h5py.File(old, "r+") as f:
        f.attrs["complete_rows"] = np.int64(9)
    with pytest.raises(lsdae.ResultFileError, match="complete_rows says 9 rows, a dataset holds 6"):
        lsdae.read_summary(old)
    refused = sweep(lsdae_binary, fmu, old, *common, "--resume")
    assert refused.returncode == 2 and "complete_rows attribute says 9 rows" in refused.stderr, refused.stderr


def test_read_summary_errors(tmp_path):
    with pytest.raises(lsdae.ResultFileError, match="no such file"):
        lsdae.read_summary(tmp_path / "none.csv")
    bad = tmp_path / "bad.h5"
    bad.write_bytes(b"not hdf5")
    with pytest.raises(lsdae.ResultFileError, match="not an HDF5 file"):
        lsdae.read_summary(bad)


def test_resuming_a_file_that_is_no_hdf5_summary_is_refused(tmp_path, lsdae_binary, fmu):
    bad = tmp_path / "bad.h5"
    bad.write_bytes(b"not hdf5")
    r = sweep(lsdae_binary, fmu, bad, "--grid", "x=1,2", "--resume")
    assert r.returncode == 9, r.stderr
    assert "cannot be opened as HDF5" in r.stderr and "--overwrite" in r.stderr
    assert bad.read_bytes() == b"not hdf5"
    with h5py.File(tmp_path / "other.h5", "w") as f:
        f["x"] = [1.0]
    r = sweep(lsdae_binary, fmu, tmp_path / "other.h5", "--grid", "x=1,2", "--resume")
    assert r.returncode == 2 and "not a sweep summary" in r.stderr, r.stderr
