"""Differential test: assay's C/W/L measures against cwl_eval (Azzopardi, Thomas & Moffat's
own package) on seeded random collections.

cwl_eval reads a ranking in the order it is given, pads or cuts it to ``max_n`` ranks and
takes gains in [0, 1] from a gain file. The reference here feeds its ``RankingMaker`` what
ir_measures' cwl_eval provider feeds it: the run sorted by score (ties in input order, which
is assay's ``ties="input"``) and grades mapped to (min(max(g, 0), max_rel) clipped at min_rel
- min_rel) / (max_rel - min_rel). Every quantity cwl_eval reports (EU, ETU, EC, ETC, ED) and
every residual is compared, for several depths, goals, cutoffs and gain ranges, to 1e-9.

cwl_eval's P@k, RR and RBP are assay's P@k, RR@depth and rbp@depth / (1 - p^depth) (its
weights are normalised over the padded depth); its AP divides by the relevant documents
retrieved within the depth, not by all judged relevant ones: those relations are checked too.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import pytest

import assay
from assay.metrics import parse
from strategies.ranking import Qrels, RunRows, seeded_collection

cwl = pytest.importorskip("cwl")
from cwl.ruler.measures.cwl_ap import APCWLMetric  # noqa: E402
from cwl.ruler.measures.cwl_bpm import BPMCWLMetric, BPMDCWLMetric  # noqa: E402
from cwl.ruler.measures.cwl_dcg import NDCGCWLMetric  # noqa: E402
from cwl.ruler.measures.cwl_insq import INSQCWLMetric  # noqa: E402
from cwl.ruler.measures.cwl_inst import INSTCWLMetric  # noqa: E402
from cwl.ruler.measures.cwl_nerr import (  # noqa: E402
    NERReq8CWLMetric,
    NERReq9CWLMetric,
    NERReq10CWLMetric,
    NERReq11CWLMetric,
)
from cwl.ruler.measures.cwl_precision import PrecisionCWLMetric  # noqa: E402
from cwl.ruler.measures.cwl_rbp import RBPCWLMetric  # noqa: E402
from cwl.ruler.measures.cwl_rr import RRCWLMetric  # noqa: E402
from cwl.ruler.ranking import RankingMaker  # noqa: E402
from cwl.seeker.trec_qrel_handler import TrecQrelHandler  # noqa: E402

logging.getLogger("cwl").disabled = True  # cwl_eval logs every vector to cwl.log

QUANTITIES = ("EU", "ETU", "EC", "ETC", "ED")

# (assay name without quantity/residual, cutoff, cwl_eval measure factory)
CASES: list[tuple[str, str, Callable[[], Any]]] = [  # Any: cwl_eval's metric objects
    ("INST()", "", lambda: INSTCWLMetric(1.0)),
    ("INST(T=2.5)", "", lambda: INSTCWLMetric(2.5)),
    ("INSQ()", "", lambda: INSQCWLMetric(1.0)),
    ("INSQ(T=3)", "", lambda: INSQCWLMetric(3.0)),
    ("BPM()", "@5", lambda: BPMCWLMetric(1.0, 5)),
    ("BPM(T=2)", "@12", lambda: BPMCWLMetric(2.0, 12)),
    ("BPM_dynamic()", "@10", lambda: BPMDCWLMetric(1, 10, 1.0, 1.0, 0.5)),
    ("BPM_dynamic(T=2, hb=0.5, gain_med=0.25)", "@7", lambda: BPMDCWLMetric(2, 7, 0.5, 3.0, 0.25)),
    ("SDCG()", "@1", lambda: NDCGCWLMetric(1)),
    ("SDCG()", "@10", lambda: NDCGCWLMetric(10)),
    ("NERR8()", "@4", lambda: NERReq8CWLMetric(4)),
    ("NERR9()", "@10", lambda: NERReq9CWLMetric(10)),
    ("NERR10()", "", lambda: NERReq10CWLMetric(0.9)),
    ("NERR10(p=0.5)", "", lambda: NERReq10CWLMetric(0.5)),
    ("NERR11(T=2)", "", lambda: NERReq11CWLMetric(2.0)),
]


class _Gains(TrecQrelHandler):  # type: ignore[misc]  # an untyped peer class
    """cwl_eval's qrels handler filled from a dict, with ir_measures' gain mapping."""

    def __init__(self, qrels: Qrels, gain: Callable[[int], float]) -> None:
        super().__init__(None)
        for q, docs in qrels.items():
            for d, g in docs.items():
                self.put_value(q, d, gain(g))


def _graded(min_rel: int, max_rel: int) -> Callable[[int], float]:
    return lambda g: (min(max(max(g, 0), min_rel), max_rel) - min_rel) / (max_rel - min_rel)


def _reference(
    qrels: Qrels, rows: RunRows, make: Callable[[], Any], gain: Callable[[int], float], depth: int
) -> dict[str, tuple[list[float], list[float]]]:
    """Per query: cwl_eval's (EU, ETU, EC, ETC, ED) and their residuals."""
    handler = _Gains(qrels, gain)
    by_query: dict[str, list[tuple[str, float]]] = {}
    for q, d, s in rows:
        by_query.setdefault(q, []).append((d, s))
    out = {}
    for q, items in by_query.items():
        maker = RankingMaker(q, handler, None, max_gain=1.0, min_gain=0.0, max_n=depth)
        for d, _ in sorted(items, key=lambda x: x[1], reverse=True):  # stable: input order
            maker.add(d, "_")
        m = make()
        m.residuals = True
        m.measure(maker.get_ranking())
        resid = [
            m.residual_expected_utility,
            m.residual_expected_total_utility,
            m.residual_expected_cost,
            m.residual_expected_total_cost,
            m.residual_expected_items,
        ]
        out[q] = (list(m.get_scores()), resid)
    return out


def _assay(qrels: Qrels, rows: RunRows, names: list[str]) -> dict[str, dict[str, float]]:
    aq = assay.Qrels.from_dict(qrels)
    ar = assay.Run.from_columns(*map(list, zip(*rows, strict=True)), name="run")
    metrics = [parse(n)[0] for n in names]
    res = assay.evaluate(aq, ar, metrics, ties="input", missing="skip")
    return {n: res["run", m].as_dict() for n, m in zip(names, metrics, strict=True)}


def _with(base: str, cut: str, extra: str) -> str:
    inner = base[base.index("(") + 1 : -1]
    return f"{base[: base.index('(')]}({', '.join(x for x in (inner, extra) if x)}){cut}"


@pytest.mark.parametrize("seed", range(30))
def test_cwl_measures_equal_cwl_eval(seed: int) -> None:
    qrels, rows = seeded_collection(seed)
    depth = (1000, 25, 8)[seed % 3]
    min_rel, max_rel = ((0, 4), (0, 2), (1, 3))[seed % 3 if seed % 2 else 0]
    gains = f"min_rel={min_rel}, max_rel={max_rel}, depth={depth}"
    names, want = [], []
    for base, cut, make in CASES:
        ref = _reference(qrels, rows, make, _graded(min_rel, max_rel), depth)
        for residual in (False, True):
            for i, quantity in enumerate(QUANTITIES):
                extra = f"{gains}, quantity={quantity!r}, residual={residual}"
                names.append(_with(base, cut, extra))
                want.append({q: v[residual][i] for q, v in ref.items()})
    got = _assay(qrels, rows, names)
    for name, expected in zip(names, want, strict=True):
        assert set(got[name]) == set(expected), name
        for q, value in expected.items():
            assert got[name][q] == pytest.approx(value, abs=1e-9, rel=1e-12), (name, q)


def test_default_max_rel_is_the_qrels_maximum() -> None:
    qrels, rows = seeded_collection(7)
    top = max(g for docs in qrels.values() for g in docs.values())
    ref = _reference(qrels, rows, lambda: INSTCWLMetric(1.0), _graded(0, max(top, 1)), 1000)
    got = _assay(qrels, rows, ["INST"])["INST"]
    assert got == pytest.approx({q: v[0][0] for q, v in ref.items()}, abs=1e-12)


@pytest.mark.parametrize("seed", range(40, 70))
def test_binary_cwl_measures_are_assay_measures(seed: int) -> None:
    """cwl_eval's P@k, RR, RBP and AP with ir_measures' binary gains (grade >= rel)."""
    qrels, rows = seeded_collection(seed, max_docs=60)
    depth, rel, p = (1000, 30)[seed % 2], 1 + seed % 2, (0.5, 0.9, 0.99)[seed % 3]

    def binary(g: int) -> float:
        return float(max(g, 0) >= rel)

    def eu(make: Callable[[], Any]) -> dict[str, float]:
        return {q: v[0][0] for q, v in _reference(qrels, rows, make, binary, depth).items()}

    names = [
        f"P(rel={rel})@5",
        f"RR(rel={rel})@{depth}",
        f"rbp(p={p}, rel={rel})@{depth}",
        f"AP(rel={rel})@{depth}",
        f"num_rel_ret(rel={rel})",
        f"num_rel(rel={rel})",
    ]
    got = _assay(qrels, rows, names)
    assert got[names[0]] == pytest.approx(eu(lambda: PrecisionCWLMetric(5)), abs=1e-12)
    assert got[names[1]] == pytest.approx(eu(RRCWLMetric), abs=1e-12)
    rbp = {q: v / (1.0 - p**depth) for q, v in got[names[2]].items()}
    assert rbp == pytest.approx(eu(lambda: RBPCWLMetric(p)), abs=1e-9)
    # cwl_eval's AP: the sum of precisions at relevant ranks over the relevant retrieved.
    cut = {q: sum(1 for r in rows if r[0] == q) for q in got[names[0]]}
    ap = eu(APCWLMetric)
    checked = 0
    for q, value in ap.items():
        relret = got[names[4]][q]
        if cut[q] > depth or relret == 0:  # relevant documents below the depth; or none
            assert cut[q] > depth or value == 0.0
            continue
        assert value == pytest.approx(got[names[3]][q] * got[names[5]][q] / relret, abs=1e-9)
        checked += 1
    assert checked or all(v == 0.0 for v in ap.values())
