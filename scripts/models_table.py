#!/usr/bin/python3
"""Prints the Markdown table of docs/models.md from the built FMUs.

Usage: scripts/models_table.py [build/fmus/catalog.tsv]
Counts come from each FMU's modelDescription.xml and manifest: states, algebraic
variables, residual formulations (rows of the DAE before index reduction: residual
groups plus, semi-explicit, one row per state), dependency nonzeros (the manifest's in
DAE mode, modelDescription.xml's otherwise). The DAE index is what each model's README
derives; it is listed here by model identifier."""
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

INDEX = {  # structural/differential index of the DAE as each model's README derives it
    "HelloWorld": "1", "Index2Example": "2", "TwoCapacitors": "2", "CauerLowPass": "2",
    "Pendulum": "3", "CoupledMasses": "2", "Robertson": "1", "TransmissionLine": "1",
    "BouncingBall": "ODE", "TimeEvent": "ODE", "PowerGrid": "1", "MassChain": "2",
    "NajafiPendulum": "ODE",
}


def local(tag):
    return tag.rsplit("}", 1)[-1]


def deps(node):
    text = node.get("dependencies")
    return 0 if text is None else len(text.split())


def row(name, stage, identifier):
    md = ET.parse(Path(stage) / "modelDescription.xml").getroot()
    states = sum(1 for v in md.find("ModelVariables") if v.get("derivative") is not None)
    manifest = Path(stage) / "extra/org.fmi-standard.fmi-ls-dae/fmi-ls-manifest.xml"
    if not manifest.exists():
        nnz = sum(deps(u) for u in md.find("ModelStructure") if local(u.tag) == "ContinuousStateDerivative")
        return [name, "ODE", "none", states, 0, 0, states, nnz, INDEX.get(identifier, "?")]
    root = ET.parse(manifest).getroot()
    shape = "B" if local(root.tag) == "fmiDAEManifest" else "A"
    switch = any(local(c.tag) in ("EnableDAE", "EnableDAEParameter") for c in root)
    algebraic = sum(1 for c in root.iter() if local(c.tag) == "AlgebraicVariable")
    ms = next(c for c in root if local(c.tag) == "ModelStructure")
    groups = [u for u in ms if local(u.tag) == "Residual"]
    formulations = []
    for g in groups:
        fs = [f for f in g if local(f.tag) == "Formulation"]
        formulations += fs if fs else [g]
    invariants = [u for u in ms if local(u.tag) == "Invariant"]
    derivs = [u for u in ms if local(u.tag) == "ContinuousStateDerivative"]
    semi = any(u.get("dependencies") is not None for u in derivs)
    form = "semi-explicit" if semi else "fully implicit"
    if not derivs and states > 0 and len(groups) == states + algebraic:
        form = "fully implicit (OpenModelica form)"  # the states in dependencies stand for der(x) too
    rows = len(groups) + (states if semi else 0)
    nnz = sum(deps(f) for f in formulations + invariants) + sum(deps(u) for u in derivs)
    extra = f" ({len(formulations) + len(invariants)} formulations)" if len(formulations) + len(invariants) != len(groups) else ""
    return [name, form, shape + (" + switch" if switch else ""), states, algebraic, f"{len(groups)}{extra}",
            rows, nnz, INDEX.get(identifier, "?")]


def main():
    catalog = Path(sys.argv[1] if len(sys.argv) > 1 else "build/fmus/catalog.tsv")
    print("| FMU | form | manifest | states | algebraic | residual groups | DAE rows | dependency nonzeros | index |")
    print("|---|---|---|---|---|---|---|---|---|")
    for line in catalog.read_text().splitlines():
        if not line.strip():
            continue
        name, stage, _fmu, identifier, _ref = (line.split("\t") + [""] * 5)[:5]
        print("| " + " | ".join(str(c) for c in row(name, stage, identifier)) + " |")


if __name__ == "__main__":
    main()
