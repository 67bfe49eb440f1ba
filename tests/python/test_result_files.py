"""lsdae.read_result: the files lsdae simulate writes (CSV, HDF5, MAT) read
into the Result Python runs return; the three formats of one run agree
bitwise; units, events and statistics; a column selection; a wide CSV read
for two columns in bounded memory; errors."""
import os
import struct
import subprocess
import tracemalloc

import numpy as np
import pytest

import lsdae


@pytest.fixture(scope="module")
def ball_files(fmu, lsdae_binary, tmp_path_factory):
    folder = tmp_path_factory.mktemp("results")
    files = {}
    for ext, extra in (("csv", ["--csv-units"]), ("h5", []), ("mat", [])):
        path = folder / f"ball.{ext}"
        subprocess.run([lsdae_binary, "simulate", fmu("BouncingBall_ode"), "--stop", "3", "--all", "-o", str(path),
                        "--no-progress"] + extra, check=True, capture_output=True)
        files[ext] = path
    return files


def bits(a):
    return np.asarray(a, dtype=np.float64).view(np.uint64)


def test_three_formats_give_the_same_result_bitwise(ball_files):
    csv, h5, mat = (lsdae.read_result(ball_files[e]) for e in ("csv", "h5", "mat"))
    assert isinstance(h5, lsdae.Result)
    assert len(csv) > 10
    assert csv.names == h5.names == mat.names
    assert "h" in csv and "v" in csv
    for r in (h5, mat):
        assert np.array_equal(bits(r["time"]), bits(csv["time"]))
        for name in csv.names:
            assert np.array_equal(bits(r[name]), bits(csv[name])), name
    assert csv.units["h"] == h5.units["h"] == mat.units["h"] == "m"
    assert csv.units["v"] == h5.units["v"] == mat.units["v"] == "m/s"
    # Events: HDF5 stores them; CSV and MAT rebuild them from the repeated times.
    assert np.count_nonzero(h5.events == 1) > 0, "the ball bounces"
    assert np.array_equal(csv.events, h5.events) and np.array_equal(mat.events, h5.events)
    before = np.flatnonzero(h5.events == 1)
    assert np.array_equal(h5["time"][before], h5["time"][before + 1])
    # HDF5 holds the run's statistics.
    assert h5.statistics["completed"] is True and h5.completed
    assert h5.statistics["rows_written"] == len(h5)
    assert csv.statistics == {} and mat.statistics == {}
    assert h5.data["h"][0] == h5["h"][0]  # the structured array as for in-process runs


def _splitmix64(x):
    m = (1 << 64) - 1
    z = (x + 0x9E3779B97F4A7C15) & m
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & m
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & m
    return z ^ (z >> 31)


def test_hdf5_mixing_deflated_and_raw_chunks_reads_bitwise(tmp_path):
    # The writer stores a chunk raw (filter mask 0b11) when its thread is
    # behind or deflate does not shrink it; tests/runtime/results/mixed_chunks.h
    # writes one dataset with both kinds.
    path = tmp_path / "mixed.h5"
    subprocess.run([os.environ["LSDAE_WRITE_MIXED_CHUNKS"], str(path)], check=True, capture_output=True)
    r = lsdae.read_result(path)
    assert len(r) == 2048 and len(r.names) == 256
    assert r.units["m200"] == "V"
    assert r.statistics["results"]["chunks_raw_incompressible"] == 2
    assert np.array_equal(bits(r["time"]), bits(0.25 * np.arange(2048)))
    rows = np.arange(2048, dtype=np.float64)
    for c in (0, 127):
        assert np.array_equal(bits(r[f"m{c}"]), bits(rows + c / 1024.0))
    for c in (128, 255):
        expected = []
        for row in range(2048):
            b = _splitmix64(row * 256 + c)
            if ((b >> 52) & 0x7FF) in (0, 0x7FF):
                b = (b & ~(0x7FF << 52)) | (0x3FF << 52)
            expected.append(b)
        assert np.array_equal(bits(r[f"m{c}"]), np.array(expected, dtype=np.uint64)), c


def test_a_selection_reads_only_those_columns(ball_files):
    for path in ball_files.values():
        r = lsdae.read_result(path, names=["v", "h*"])
        assert r.names == [n for n in lsdae.read_result(path).names if n == "v" or n.startswith("h")]
        with pytest.raises(lsdae.ResultFileError, match="'nope' matches no column"):
            lsdae.read_result(path, names="nope")


def test_a_wide_csv_is_streamed_in_bounded_memory(tmp_path):
    columns, rows = 4000, 300
    path = tmp_path / "wide.csv"
    with open(path, "w") as f:
        f.write("time," + ",".join(f"x{k}" for k in range(columns)) + "\n")
        row = ",".join(repr(0.1 * k) for k in range(columns))
        for r in range(rows):
            f.write(f"{r * 0.01!r},{row}\n")
    size = path.stat().st_size
    tracemalloc.start()
    res = lsdae.read_result(path, names=["x7", "x3999"])
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert res.names == ["x7", "x3999"]
    assert res["x7"][5] == 0.1 * 7 and res["x3999"][-1] == 0.1 * 3999
    assert len(res) == rows
    assert peak < size / 5, f"peak {peak} bytes reading 2 columns of a {size}-byte file"


def test_strings_stay_text(reference_fmu, lsdae_binary, tmp_path):
    path = tmp_path / "typed.csv"
    subprocess.run([lsdae_binary, "simulate", reference_fmu("Feedthrough.fmu"), "--stop", "0.5", "--all", "-o",
                    str(path), "--no-progress"], check=True, capture_output=True)
    r = lsdae.read_result(path)
    assert r["String_output"].dtype == object and isinstance(r["String_output"][0], str)
    assert r["Float64_continuous_output"].dtype == np.float64
    h5 = tmp_path / "typed.h5"
    subprocess.run([lsdae_binary, "simulate", reference_fmu("Feedthrough.fmu"), "--stop", "0.5", "--all", "-o",
                    str(h5), "--no-progress"], check=True, capture_output=True)
    assert list(lsdae.read_result(h5)["String_output"]) == list(r["String_output"])


def test_errors_name_the_file_and_what_to_do(tmp_path):
    with pytest.raises(lsdae.ResultFileError, match=r"missing.h5 → cannot be opened"):
        lsdae.read_result(tmp_path / "missing.h5")
    with pytest.raises(lsdae.ResultFileError, match=r"the extension '.xlsx' names no result format"):
        lsdae.read_result(tmp_path / "r.xlsx")
    bad = tmp_path / "bad.csv"
    bad.write_text("t,x\n0,1\n")
    with pytest.raises(lsdae.ResultFileError, match="not 'time'"):
        lsdae.read_result(bad)
    cut = tmp_path / "cut.csv"
    cut.write_text("time,x,y\n0,1,2\n0.5,1\n")
    with pytest.raises(lsdae.ResultFileError, match="line 3 has 2 fields"):
        lsdae.read_result(cut)
    not_h5 = tmp_path / "fake.h5"
    not_h5.write_text("time,x\n")
    with pytest.raises(lsdae.ResultFileError, match="cannot be opened as HDF5"):
        lsdae.read_result(not_h5)


def test_the_csv_event_column_gives_the_events(fmu, lsdae_binary, tmp_path):
    marked, plain = tmp_path / "marked.csv", tmp_path / "plain.csv"
    for path, extra in ((marked, ["--csv-events"]), (plain, [])):
        subprocess.run([lsdae_binary, "simulate", fmu("BouncingBall_ode"), "--stop", "3", "-o", str(path),
                        "--no-progress"] + extra, check=True, capture_output=True)
    m, p = lsdae.read_result(marked), lsdae.read_result(plain)
    assert m.names == ["event"] + p.names
    assert np.array_equal(m.events, p.events) and np.count_nonzero(m.events == 2) > 0
    assert np.array_equal(m["event"], m.events)
