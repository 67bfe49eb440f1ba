"""Python, C and the command line agree bit for bit on one model with the same
options: the same rows (times and values) from lsdae.simulate and `lsdae
simulate`, the same final value, minimum and maximum from the C example."""
import csv
import subprocess

import numpy as np

import lsdae

LINE = "TransmissionLine_dae_shapeA_80"
OUTPUTS = ["v_load", "C[80].v"]


def test_python_and_cli_rows_are_identical(fmu, lsdae_binary, tmp_path):
    out = tmp_path / "cli.csv"
    subprocess.run([lsdae_binary, "simulate", fmu(LINE), "--output-vars", ",".join(OUTPUTS), "--rtol", "1e-7",
                    "-o", str(out)], check=True, capture_output=True)
    with open(out, newline="") as f:
        rows = list(csv.reader(f))
    header, body = rows[0], rows[1:]
    assert header == ["time"] + OUTPUTS
    cli = np.array([[float(x) for x in row] for row in body])
    py = lsdae.simulate(fmu(LINE), output=OUTPUTS, rtol=1e-7)
    assert len(py) == len(cli) > 100
    np.testing.assert_array_equal(py["time"], cli[:, 0])
    for k, name in enumerate(OUTPUTS, start=1):
        np.testing.assert_array_equal(py[name], cli[:, k], err_msg=name)


def test_python_and_c_final_values_are_identical(fmu, example_c):
    run = subprocess.run([example_c, fmu(LINE), "v_load"], check=True, capture_output=True, text=True)
    # "v_load(<t>) = <value>  (min <min>, max <max> over <n> output points)"
    line = run.stdout.splitlines()[0]
    t = float(line[line.index("(") + 1:line.index(")")])
    value = float(line.split(" = ")[1].split()[0])
    low = float(line.split("min ")[1].split(",")[0])
    high = float(line.split("max ")[1].split()[0])
    points = int(line.split("over ")[1].split()[0])
    py = lsdae.simulate(fmu(LINE), output=["v_load"])
    assert len(py) == points
    assert py["time"][-1] == t
    assert py["v_load"][-1] == value
    assert py["v_load"].min() == low and py["v_load"].max() == high
