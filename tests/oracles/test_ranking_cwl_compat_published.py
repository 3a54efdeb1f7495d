"""Oracle: ir_measures' own test values for Compat (from a run of Clarke's Compatibility code)
and for the C/W/L measures (from a run of cwl_eval), on ir_measures' test inputs.

The inputs are ir_measures' files ``tests/compat.{qrels,run}`` and ``tests/cwl.{qrels,run}``
(terrierteam/ir_measures), which are not in ../shared: point ``ASSAY_IR_MEASURES_TESTS`` at
that folder (a checkout of ir_measures) to run this test. Those files are on no package index
(ir_measures' sdist leaves them out), so CI cannot have them: the tests are defined only where
the folder is named, rather than reported as a skip on every run; in CI Compat and the C/W/L
measures are checked against ir_measures' providers and cwl_eval themselves (tests/peers).
The values below are the ones ir_measures' tests assert.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import assay
from assay.metrics import parse

FOLDER = os.environ.get("ASSAY_IR_MEASURES_TESTS")


COMPAT = {
    "Compat": {"31_1": 0.51779512165509, "31_2": 0.018400100569017922},
    "Compat(p=0.9)": {"31_1": 0.3761334522946854, "31_2": 0.004344079941789211},
    "Compat(p=0.8)": {"31_1": 0.16723008845234535, "31_2": 0.00022806427320561776},
}
# ir_measures' names with max_rel=1 (its cwl.qrels is binary), printed by cwl_eval to 4 places.
CWL = {
    "BPM(T=1.0, max_rel=1)@20": (1.0, 1.0, 0.1667),
    "BPM(T=2.0, max_rel=1)@10": (0.6667, 1.0, 0.2857),
    "INSQ(T=1.0, max_rel=1)": (0.5872, 0.6629, 0.0880),
    "INSQ(T=2.0, max_rel=1)": (0.4513, 0.5068, 0.1292),
    "INST(T=1.0, max_rel=1)": (0.7934, 0.9226, 0.0888),
    "INST(T=2.0, max_rel=1)": (0.5994, 0.6924, 0.1397),
    "SDCG(max_rel=1)@10": (0.5645, 0.6531, 0.2848),
    "NERR8(max_rel=1)@10": (1.0, 1.0, 0.1667),
    "NERR9(max_rel=1)@10": (1.0, 1.0, 0.0680),
    "NERR10(p=0.8, max_rel=1)": (1.0, 1.0, 0.0888),
    "NERR11(T=2.0, max_rel=1)": (1.0, 1.0, 0.0691),
    # cwl_eval's P@k, RR and RBP(p=0.9) are assay's P@k, RR@1000 and rbp@1000 (to 1e-46).
    "P@10": (0.5, 0.6, 0.4),
    "RR@1000": (1.0, 1.0, 0.1667),
    "rbp(p=0.9)@1000": (0.3501, 0.3996, 0.1988),
}


def _values(stem: str, name: str) -> dict[str, float]:
    folder = Path(FOLDER or ".")
    qrels = assay.Qrels.from_trec(folder / f"{stem}.qrels")
    run = assay.Run.from_trec(folder / f"{stem}.run", name="run")
    metric = parse(name)[0]
    return assay.evaluate(qrels, run, [metric], missing="skip")["run", metric].as_dict()


if FOLDER:

    @pytest.mark.parametrize("name", sorted(COMPAT))
    def test_compat_published_values(name: str) -> None:
        assert _values("compat", name) == pytest.approx(COMPAT[name], abs=1e-9)

    def test_compat_published_mean() -> None:
        values = _values("compat", "Compat").values()
        assert sum(values) / len(values) == pytest.approx(0.268097611, abs=1e-9)

    @pytest.mark.parametrize("name", sorted(CWL))
    def test_cwl_published_values(name: str) -> None:
        want = dict(zip(("T1", "T2", "T3"), CWL[name], strict=True))
        assert _values("cwl", name) == pytest.approx(want, abs=0.5e-4)
