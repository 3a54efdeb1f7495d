"""Differential test: assay's Compat against ir_measures' compat provider (Clarke et al.'s
compatibility, RBO against the ideal ranking) on seeded random collections, and the C/W/L
names ir_measures parses against its cwl_eval provider.

ir_measures ranks the run by score, ties by docno ascending; assay's ``ties="docno"`` breaks
them by docno descending, so ties are compared on collections whose tied documents are
listed in the input in ascending docno order, with ``ties="input"``. Within one grade the
ideal ranking orders documents by the run's score with unretrieved ones at 0; where that
leaves a tie between a retrieved document scored exactly 0 and an unretrieved one,
ir_measures keeps the qrels' file order and assay puts the retrieved document first, so the
palette of tied scores here has no 0. Values agree to 1e-9.
"""

from __future__ import annotations

import logging
from typing import Any

import pytest

import assay
from assay.metrics import parse
from strategies.ranking import Qrels, RunRows, seeded_collection

ir_measures = pytest.importorskip("ir_measures")
pytest.importorskip("cwl")


def _sorted(qrels: Qrels, rows: RunRows) -> tuple[Qrels, RunRows]:
    """Rows and qrels in ascending docno order: ties='input' then breaks score ties as
    ir_measures does, and ir_measures' qrels order (its last tie-break in the ideal ranking)
    is the run's order."""
    ordered = {q: dict(sorted(docs.items())) for q, docs in qrels.items()}
    return ordered, sorted(rows, key=lambda r: r[1])


def _peer(provider: Any, measure: Any, qrels: Qrels, rows: RunRows) -> dict[str, float]:
    # Any: ir_measures' provider and measure objects are untyped
    run = {}
    for q, d, s in rows:
        run.setdefault(q, {})[d] = s
    return {m.query_id: m.value for m in provider.iter_calc([measure], qrels, run)}


def _assay(qrels: Qrels, rows: RunRows, name: str) -> dict[str, float]:
    aq = assay.Qrels.from_dict(qrels)
    ar = assay.Run.from_columns(*map(list, zip(*rows, strict=True)), name="run")
    metric = parse(name)[0]
    return assay.evaluate(aq, ar, [metric], ties="input", missing="skip")["run", metric].as_dict()


def _no_zero_scores(rows: RunRows) -> RunRows:
    return [(q, d, 0.25 if s == 0.0 else s) for q, d, s in rows]


@pytest.mark.parametrize("seed", range(60))
def test_compat_equals_ir_measures(seed: int) -> None:
    qrels, rows = _sorted(*seeded_collection(seed))
    rows = _no_zero_scores(rows)
    for p in (0.95, 0.8, 0.5):
        for normalize in (True, False):
            name = f"Compat(p={p}, normalize={normalize})"
            want = _peer(ir_measures.compat, ir_measures.parse_measure(name), qrels, rows)
            got = _assay(qrels, rows, name)
            assert set(got) == set(want)
            for q, value in want.items():
                assert got[q] == pytest.approx(value, abs=1e-9), (name, q)


CWL_NAMES = (
    "INST(T=2.0, max_rel={top})",
    "INSQ(max_rel={top})",
    "BPM(T=1.5, max_rel={top})@8",
    "SDCG(max_rel={top})@10",
    "NERR8(max_rel={top})@5",
    "NERR9(min_rel=1, max_rel={top})@5",
    "NERR10(p=0.7, max_rel={top})",
    "NERR11(T=2.0, max_rel={top})",
)


@pytest.mark.parametrize("seed", range(12))
def test_ir_measures_cwl_names_mean_the_same(seed: int) -> None:
    """ir_measures' own spelling, parsed by both, gives ir_measures' cwl_eval values."""
    logging.getLogger("ir_measures.cwl_eval").disabled = True  # gain-range notices
    qrels, rows = _sorted(*seeded_collection(seed))
    top = max(2, max(g for docs in qrels.values() for g in docs.values()))
    for template in CWL_NAMES:
        name = template.format(top=top)
        want = _peer(ir_measures.cwl_eval, ir_measures.parse_measure(name), qrels, rows)
        got = _assay(qrels, rows, name)
        assert got == pytest.approx(want, abs=1e-9), name
