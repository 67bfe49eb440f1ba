"""lsdae.load / Model: PyFMI's style (set, get, simulate, result by name)."""
import numpy as np
import pytest

import lsdae

HELLO = "HelloWorld_semi_explicit_shapeA"


def test_variables_describe_the_model(fmu):
    model = lsdae.load(fmu(HELLO))
    v = model.variables["x"]
    assert (v.type, v.causality, v.variability, v.start, v.description) == \
        ("Float64", "local", "continuous", "1", "differential variable")
    assert v.value_reference == v.valueReference == 1
    assert model.variables["der(x)"].derivative_of == "x"
    assert list(model.variables)[0] == "time"
    assert model.variables["time"].unit == "s"
    assert model.states() == ["x"]
    assert model.default_experiment["stop_time"] == 1.0


def test_set_get_simulate_and_index_the_result_by_name(fmu):
    model = lsdae.load(fmu(HELLO))
    assert model.get("x") == 1.0  # the start value
    model.set("x", 2.0)
    assert model.get("x") == 2.0
    res = model.simulate(final_time=1.0, options={"ncp": 50, "filter": ["x", "y"]})
    assert isinstance(res, lsdae.Result)
    assert len(res) == 51 and len(res["time"]) == 51
    assert res["x"][-1] == pytest.approx(8.1104, abs=2e-4)
    assert res.final("x") == res["x"][-1]
    assert model.get("x") == res["x"][-1], "after simulate: the final value"
    assert res.keys() == ["time", "x", "y"]
    assert res.statistics["steps"] > 0
    assert res.data["x"][-1] == res["x"][-1]
    with pytest.raises(KeyError, match="not in this result"):
        res["z"]


def test_each_simulate_starts_afresh_with_the_values_set(fmu):
    model = lsdae.load(fmu(HELLO))
    first = model.simulate(options={"filter": "x"})
    second = model.simulate(options={"filter": "x"})
    np.testing.assert_array_equal(first["x"], second["x"])
    model.reset()
    assert model.get("x") == 1.0


def test_set_is_checked_when_given_not_at_simulate(fmu):
    model = lsdae.load(fmu(HELLO))
    with pytest.raises(lsdae.UsageError, match="no variable"):
        model.set("nope", 1.0)
    with pytest.raises(lsdae.UsageError):
        model.set("x", "abc")
    with pytest.raises(lsdae.UsageError):
        model.set("x", float("nan"))


def test_structure_is_a_dict_and_the_jacobian_a_sparse_matrix(fmu):
    scipy_sparse = pytest.importorskip("scipy.sparse")
    model = lsdae.load(fmu("TransmissionLine_dae_shapeA_10"))
    s = model.structure()
    assert s["schema"] == 1 and s["status"] == "ok"
    assert s["model"]["states"] > 0
    j = model.jacobian()
    assert scipy_sparse.issparse(j)
    assert j.shape[0] == j.shape[1] == len(j.row_names) == len(j.column_names)
    assert j.nnz > j.shape[0]
    # cj = 0: ∂F/∂y only; the difference is cj·∂F/∂y', nonzero on the differential columns.
    d = (j - model.jacobian(cj=0.0)).tocsc()
    assert abs(d).sum() > 0


def test_input_table_as_pyfmi_pair(reference_fmu):
    model = lsdae.load(reference_fmu("Feedthrough.fmu"))
    table = np.array([[0.0, 1.0], [1.0, 3.0], [2.0, 3.0]])
    res = model.simulate(final_time=2.0, input=(["Float64_continuous_input"], table),
                         options={"filter": ["Float64_continuous_output"], "ncp": 4})
    np.testing.assert_allclose(res["Float64_continuous_output"], [1.0, 2.0, 3.0, 3.0, 3.0])
