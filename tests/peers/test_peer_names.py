"""ir_measures' and ranx's measure names in assay: every name of both peers' lists is either
accepted, meaning the same measure (checked on random collections against ir_measures'
pytrec_eval-, judged-, cwl_eval-, compat-, gdeval- and pyndeval-backed providers and against ranx's own
evaluate), or refused with a reason that names the nearest assay measure. The deliberate differences are
the ones docs/conventions.md lists ("Names of ir_measures and ranx"); each is tested here.
"""

from __future__ import annotations

import inspect
import logging
import math
import re
import shutil
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import assay
from assay import Qrels, Run
from assay.errors import MetricError
from assay.metrics import parse
from assay.metrics.peers import PEER_NAMES
from strategies.diversity import diversity_case
from support.cli import invoke

ir_measures = pytest.importorskip("ir_measures")
ranx = pytest.importorskip("ranx")

IR_ROWS = {p.name: p for p in PEER_NAMES if p.peer == "ir_measures"}
RANX_ROWS = {p.name: p for p in PEER_NAMES if p.peer == "ranx"}

#: Refused until the measure lands: the integrator gives these rows their assay name when the
#: measures are in the registry, and updates this list (the diversity names landed: none left).
PENDING: dict[str, str] = {}
#: Refused for good: no assay measure computes them.
REFUSED = {"NumQ": "num_ret", "Accuracy": "pairwise_accuracy", "hits": "P@k"}


def ranx_names() -> set[str]:
    """ranx's metric names, read from the dispatch of ranx.metrics.metric_switch."""
    source = inspect.getsource(ranx.metrics.metric_switch)
    return set(re.findall(r'metric == "([^"]+)"', source))


def test_every_ir_measures_name_has_a_row() -> None:
    assert set(ir_measures.measures.registry) == set(IR_ROWS)


def test_every_ranx_name_has_a_row() -> None:
    names = ranx_names()
    assert len(names) >= 14  # guards against a dispatch the regular expression misses
    assert names == set(RANX_ROWS)


@pytest.mark.parametrize("row", PEER_NAMES, ids=lambda r: f"{r.peer}:{r.name}")
def test_each_name_is_accepted_or_refused_naming_the_nearest(row: Any) -> None:  # Any: PeerName
    written = {"k": f"{row.name}@5", "recall": f"{row.name}@0.5", "none": row.name}[row.at]
    if row.peer == "ranx" and row.name == "rbp":
        written = "rbp.95"
    if row.assay is None:
        expected = PENDING.get(row.name, REFUSED.get(row.name))
        assert row.nearest == expected
        assert row.pending == (row.name in PENDING)
        with pytest.raises(
            MetricError, match=f"the nearest assay measure is {re.escape(expected)}$"
        ):
            parse(written)
        return
    assert row.name not in PENDING and row.name not in REFUSED
    (m,) = parse(written)
    assert str(m) == written
    assert m.name == row.assay


# ---------------------------------------------------------------- random collections


def collection(seed: int, *, ties: bool, long_lists: bool) -> tuple[dict[str, Any], dict[str, Any]]:
    """Random qrels (grades -1..3, a relevant document in every query) and a run (every qrels
    query, unjudged documents, short lists unless ``long_lists``)."""
    rng = np.random.default_rng(seed)
    qrels: dict[str, dict[str, int]] = {}
    run: dict[str, dict[str, float]] = {}
    for q in range(int(rng.integers(3, 9))):
        docs = [f"d{i}" for i in range(int(rng.integers(3, 30)))]
        judged = rng.choice(docs, size=int(rng.integers(1, len(docs) + 1)), replace=False)
        grades = {str(d): int(rng.integers(0, 4)) for d in judged}
        grades[str(judged[0])] = int(rng.integers(1, 4))
        qrels[f"q{q}"] = grades
        size = len(docs) if long_lists else int(rng.integers(1, len(docs) + 1))
        ranked = rng.choice(docs, size=size, replace=False)
        scores = rng.integers(0, 4, size) if ties else rng.permutation(size) + 0.5
        run[f"q{q}"] = {str(d): float(s) for d, s in zip(ranked, scores, strict=True)}
    return qrels, run


def ours(
    qrels: dict[str, Any], run: dict[str, Any], names: list[str]
) -> dict[str, dict[str, float]]:
    """assay's per-query values, by the name as written."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = assay.evaluate(qrels, {"r": run}, names, missing="skip")
    return {n: res.per_query("r", n) for n in names}


def close(a: float, b: float) -> bool:
    return abs(a - b) <= 1e-9 * max(1.0, abs(b))


# Names as ir_measures users write them, by the provider that computes them in ir_measures.
PYTREC = [
    "P@5",
    "P(rel=2)@5",
    "Precision@10",
    "R@10",
    "Recall@3",
    "AP",
    "MAP@10",
    "AP(rel=2)",
    "RR",
    "MRR",
    "Rprec",
    "RPrec(rel=2)",
    "nDCG",
    "NDCG@10",
    "nDCG(gains={0:0,1:1,2:3,3:7})@5",
    "Bpref",
    "BPref(rel=2)",
    "infAP",
    "IPrec@0.5",
    "IPrec@0.0",
    "SetP",
    "SetRelP",
    "SetR",
    "SetF(beta=0.5)",
    "SetAP",
    "Success@5",
    "NumRet",
    "NumRelRet",
    "NumRet(rel=2)",
    "NumRel",
    "P(cutoff=3)",
]


def peer(
    provider: Any, names: list[str], qrels: dict[str, Any], run: dict[str, Any]
) -> dict[str, dict[str, float]]:
    """ir_measures' per-query values from ``provider``, by the name as written."""
    # Any: ir_measures' providers are untyped
    measures = [ir_measures.parse_measure(n) for n in names]
    theirs: dict[str, dict[str, float]] = {n: {} for n in names}
    by_measure: dict[str, list[str]] = {}  # MRR is RR in ir_measures: one measure, two names
    for m, n in zip(measures, names, strict=True):
        by_measure.setdefault(repr(m), []).append(n)
    for row in provider.iter_calc(measures, qrels, run):
        for name in by_measure[repr(row.measure)]:
            theirs[name][row.query_id] = float(row.value)
    return theirs


def assert_same(
    mine: dict[str, dict[str, float]], theirs: dict[str, dict[str, float]], tol: float = 1e-9
) -> None:
    for name, values in theirs.items():
        assert values, name  # the provider computed the measure
        assert set(mine[name]) == set(values), name
        for q, v in values.items():
            assert abs(mine[name][q] - v) <= tol * max(1.0, abs(v)), (name, q, mine[name][q], v)


@pytest.mark.parametrize("seed", range(60))
def test_ir_measures_names_equal_ir_measures_values(seed: int) -> None:
    qrels, run = collection(seed, ties=True, long_lists=False)
    assert_same(ours(qrels, run, PYTREC), peer(ir_measures.pytrec_eval, PYTREC, qrels, run))


# ir_measures' C/W/L names (its cwl_eval provider needs max_rel; grades here are 0..3, so
# max_rel=2 clips the 3s), its Compat (compat provider) and its ERR (gdeval provider).
CWL = [
    "INST(max_rel=3)",
    "INST(T=2, max_rel=3)",
    "INSQ(max_rel=3)",
    "INSQ(T=3, min_rel=1, max_rel=3)",
    "BPM(max_rel=3)@5",
    "BPM(T=1.5, max_rel=2)@10",
    "NERR8(max_rel=3)@5",
    "NERR9(min_rel=1, max_rel=3)@10",
    "NERR10(max_rel=3)",
    "NERR10(p=0.7, max_rel=2)",
    "NERR11(T=2, max_rel=3)",
    "SDCG(max_rel=3)@10",
    "SDCG(dcg='log2', min_rel=1, max_rel=3)@3",
    "SDCG(cutoff=5, max_rel=3)",
]
COMPAT = ["Compat", "Compat(p=0.8)", "Compat(p=0.5, normalize=False)"]
GDEVAL = ["ERR@1", "ERR@5", "ERR@20"]


@pytest.mark.parametrize("seed", range(30))
def test_cwl_names_equal_ir_measures_cwl_eval(seed: int) -> None:
    """Distinct scores: ir_measures orders ties its own way."""
    logging.getLogger("ir_measures.cwl_eval").disabled = True  # gain-range notices
    qrels, run = collection(seed, ties=False, long_lists=seed % 2 == 0)
    assert_same(ours(qrels, run, CWL), peer(ir_measures.cwl_eval, CWL, qrels, run))


@pytest.mark.parametrize("seed", range(40))
def test_compat_names_equal_ir_measures_compat(seed: int) -> None:
    """Distinct scores, none 0 (the ideal ranking's tie orders differ there, see
    tests/peers/test_ranking_compat_ir_measures.py)."""
    qrels, run = collection(seed, ties=False, long_lists=seed % 2 == 0)
    assert_same(ours(qrels, run, COMPAT), peer(ir_measures.compat, COMPAT, qrels, run))


@pytest.mark.parametrize("seed", range(30))
def test_err_equals_ir_measures_gdeval(seed: int) -> None:
    """ir_measures' ERR@k is gdeval's (which prints 5 decimals); every query has a relevant
    document and grades up to 3 (gdeval's scale ends at 4); gdeval reads numeric topics only."""
    if shutil.which("perl") is None:  # pragma: no cover - perl is on every CI image
        pytest.skip("perl is not installed")
    qrels, run = (
        {q.removeprefix("q"): docs for q, docs in part.items()}
        for part in collection(seed, ties=False, long_lists=seed % 2 == 0)
    )
    theirs = peer(ir_measures.gdeval, GDEVAL, qrels, run)
    assert_same(ours(qrels, run, GDEVAL), theirs, tol=5.1e-6)


# ir_measures' diversity names (its pyndeval provider); ERR_IA and nERR_IA have no alpha in
# ir_measures (pyndeval runs them at 0.5, assay's default). ir_measures' cutoff-less forms fail
# in its provider (cutoff None), so every name at a cutoff has one here.
PYNDEVAL = [
    "alpha_nDCG@5",
    "α_nDCG(alpha=0.3)@10",
    "alpha_nDCG(cutoff=20, rel=2)",
    "alpha_DCG@20",
    "α_DCG(alpha=0.8, rel=2)@3",
    "ERR_IA@10",
    "ERR_IA(rel=2)@1",
    "nERR_IA@20",
    "nERR_IA(judged_only=False)@2",
    "NRBP",
    "NRBP(alpha=0.3, beta=0.8)",
    "nNRBP(rel=2)",
    "nNRBP(alpha=1.0, beta=0.1)",
    "P_IA@5",
    "P_IA(rel=2)@10",
    "AP_IA",
    "MAP_IA(rel=2)",
    "StRecall@5",
    "StRecall(rel=2)@20",
]


def diversity_collection(seed: int) -> tuple[list[Any], list[tuple[str, str, float]]]:
    """Random subtopic qrels (ir_measures' Qrel, the subtopic as its iteration) and run
    rows in document-id order within a query (see tests/strategies/diversity.py)."""
    rng = np.random.default_rng(seed)
    qrels: list[tuple[str, str, str, int]] = []
    run: list[tuple[str, str, float]] = []
    for c in range(12):
        case = diversity_case(rng)
        qrels += [(f"{c}-{q}", s, d, g) for q, s, d, g in case.qrels]
        run += [(f"{c}-{q}", d, x) for q, d, x in case.run]
    qrels.sort(key=lambda row: int(row[1]))  # pyndeval numbers subtopics by first appearance
    run.sort(key=lambda row: (row[0], row[1]))
    generic = [ir_measures.Qrel(q, d, g, s) for q, s, d, g in qrels]
    return generic, run


@pytest.mark.parametrize("seed", range(40))
def test_diversity_names_equal_ir_measures_pyndeval(seed: int) -> None:
    """Bit for bit, ties included: pyndeval breaks score ties by ascending document id, which
    is assay's ties="input" on rows in that order. A query without a positive subtopic
    judgment is 0 in both (assay's default no_relevant), NaN in nNRBP's (ndeval's 0/0); a
    qrels query without results is ir_measures' default 0, assay's missing="zero"."""
    pytest.importorskip("pyndeval")
    generic, run_rows = diversity_collection(7000 + seed)
    qrels = Qrels.from_subtopics(
        [r.query_id for r in generic],
        [r.iteration for r in generic],
        [r.doc_id for r in generic],
        [r.relevance for r in generic],
    )
    run = Run.from_columns(*(list(col) for col in zip(*run_rows, strict=True)), name="r")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # run queries without judgments are counted and warned
        res = assay.evaluate(qrels, run, PYNDEVAL, ties="input", missing="zero")
    mine = {n: res.per_query("r", n) for n in PYNDEVAL}
    by_dict: dict[str, dict[str, float]] = {}
    for q, d, x in run_rows:
        by_dict.setdefault(q, {})[d] = x
    # One name per call: ir_measures' provider hands its run, a generator, to the first of its
    # pyndeval invocations only (one per rel, alpha, beta), the others see no results.
    theirs = {n: peer(ir_measures.pyndeval, [n], generic, by_dict)[n] for n in PYNDEVAL}
    compared = 0
    for name, values in theirs.items():
        assert values and set(mine[name]) == set(values), name
        for q, v in values.items():
            if math.isnan(v):
                assert name.startswith("nNRBP") and mine[name][q] == 0.0, (name, q)
                continue
            assert mine[name][q] == v, (name, q, mine[name][q], v)
            compared += v != 0.0
    assert compared > 100  # most values are not the 0 of a query without relevant documents


def test_diversity_names_are_labelled_as_typed(tmp_path: Path) -> None:
    """``assay evaluate -m alpha_nDCG@20`` prints alpha_nDCG@20, with alpha_ndcg@20's value
    (ordinary qrels: one subtopic per query)."""
    qrels, run = collection(5, ties=False, long_lists=True)
    (tmp_path / "qrels").write_text(
        "".join(f"{q} 0 {d} {g}\n" for q, docs in qrels.items() for d, g in docs.items()),
        encoding="utf-8",
    )
    (tmp_path / "run").write_text(
        "".join(f"{q} Q0 {d} 0 {s} r\n" for q, docs in run.items() for d, s in docs.items()),
        encoding="utf-8",
    )
    names = ["alpha_nDCG@20", "α_DCG(alpha=0.3)@5", "ERR_IA@10", "NRBP(beta=0.8)", "MAP_IA"]
    canonical = ["alpha_ndcg@20", "alpha_dcg(alpha=0.3)@5", "err_ia@10", "nrbp(beta=0.8)", "map_ia"]
    code, out, _ = invoke(
        "evaluate",
        *(a for n in names for a in ("-m", n)),
        "-f",
        "tsv",
        tmp_path / "qrels",
        tmp_path / "run",
    )
    assert code == 0, out
    rows = [line.split("\t") for line in out.splitlines()[1:]]
    assert [row[1] for row in rows] == names
    res = assay.evaluate(qrels, {"r": run}, names)
    assert res.metric_names == names and res.canonical_names == canonical
    own = assay.evaluate(qrels, {"r": run}, canonical)
    want = [float(np.mean(list(own.per_query("r", c).values()))) for c in canonical]
    assert [float(row[3]) for row in rows] == pytest.approx(want, rel=1e-12)
    assert len(set(want)) == len(want)  # five different values: five different measures
    with pytest.raises(MetricError, match="judged_only is a convention in assay"):
        parse("nERR_IA(judged_only=True)@5")


def test_upper_case_err_is_gdeval_and_lower_case_is_assay(tmp_path: Path) -> None:
    """``ERR`` is ir_measures' (gdeval's ERR: grades on gdeval's 0..4 scale), any other case
    is assay's err (the highest grade of the qrels as the scale); both labelled as typed, on
    the command line too."""
    (upper,), (lower,), (mixed,) = parse("ERR@20"), parse("err@20"), parse("Err@20")
    assert (upper.name, str(upper), upper.canonical) == ("gdeval_err", "ERR@20", "gdeval_err@20")
    assert (lower.name, str(lower)) == ("err", "err@20")
    assert mixed.name == "err"
    qrels, run = collection(3, ties=False, long_lists=True)
    (tmp_path / "qrels").write_text(
        "".join(f"{q} 0 {d} {g}\n" for q, docs in qrels.items() for d, g in docs.items()),
        encoding="utf-8",
    )
    (tmp_path / "run").write_text(
        "".join(f"{q} Q0 {d} 0 {s} r\n" for q, docs in run.items() for d, s in docs.items()),
        encoding="utf-8",
    )
    names = ["err@20", "ERR@20", "INST(T=2)"]
    code, out, _ = invoke(
        "evaluate",
        *(a for n in names for a in ("-m", n)),
        "-f",
        "tsv",
        tmp_path / "qrels",
        tmp_path / "run",
    )
    assert code == 0, out
    rows = [line.split("\t") for line in out.splitlines()[1:]]
    assert [row[1] for row in rows] == names
    mine = {n: float(np.mean(list(v.values()))) for n, v in ours(qrels, run, names).items()}
    assert [float(row[3]) for row in rows] == pytest.approx([mine[n] for n in names], rel=1e-12)
    assert mine["err@20"] != pytest.approx(mine["ERR@20"])  # gmax 3 against gdeval's 4


@pytest.mark.parametrize("seed", range(40))
def test_rbp_with_rel_equals_cwl_eval(seed: int) -> None:
    qrels, run = collection(seed, ties=False, long_lists=False)
    names = ["RBP(rel=1)", "RBP(p=0.95, rel=2)"]
    measures = [ir_measures.parse_measure(n) for n in names]
    by_measure = {repr(m): n for m, n in zip(measures, names, strict=True)}
    mine = ours(qrels, run, names)
    seen = 0
    for row in ir_measures.cwl_eval.iter_calc(measures, qrels, run):
        name = by_measure[repr(row.measure)]
        assert close(mine[name][row.query_id], float(row.value)), (name, row)
        seen += 1
    assert seen == 2 * len(qrels)


@pytest.mark.parametrize("seed", range(40))
def test_judged_divides_by_k_where_ir_measures_divides_by_the_list(seed: int) -> None:
    """The deliberate difference: ir_measures' Judged@k is judged / min(k, list length), assay's
    judged / k (an unfilled place is not a judged document)."""
    qrels, run = collection(seed, ties=False, long_lists=False)  # ir_measures breaks ties its way
    measure = ir_measures.parse_measure("Judged@10")
    mine = ours(qrels, run, ["Judged@10"])["Judged@10"]
    for row in ir_measures.judged.iter_calc([measure], qrels, run):
        n = min(10, len(run[row.query_id]))
        assert close(mine[row.query_id], float(row.value) * n / 10), row


# ranx names, and their value in ranx's own evaluate (lists longer and shorter than the cutoffs).
RANX = [
    "precision@5",
    "recall@10",
    "f1@5",
    "r-precision",
    "mrr",
    "mrr@3",
    "map",
    "map@10",
    "hit_rate@5",
    "dcg@10",
    "dcg_burges@10",
    "ndcg",
    "ndcg@10",
    "ndcg_burges@5",
    "bpref",
    "precision@5-l2",
    "recall@10-l3",
    "map-l2",
    "ndcg@10-l1",
]


@pytest.mark.parametrize("seed", range(60))
def test_ranx_names_equal_ranx_values(seed: int) -> None:
    qrels, run = collection(seed, ties=False, long_lists=seed % 2 == 0)
    ids = list(qrels)
    theirs = ranx.evaluate(ranx.Qrels(qrels), ranx.Run(run), RANX, return_mean=False)
    mine = ours(qrels, run, RANX)
    for name in RANX:
        got = np.array([mine[name][q] for q in ids])
        want = np.asarray(theirs[name], dtype=np.float64)
        if name == "bpref":
            # The deliberate difference: ranx's bpref is 0/0 = NaN for a query without a judged
            # non-relevant document, where trec_eval's (and assay's) finds no non-relevant
            # document above any relevant one: the share of the relevant documents retrieved.
            # (ranx's sum is empty, 0, when no relevant document is retrieved.)
            none = np.array([min(qrels[q].values()) > 0 for q in ids])
            assert not (np.isnan(want) & ~none).any()
            found = [sum(qrels[q].get(d, 0) > 0 for d in run[q]) / len(qrels[q]) for q in ids]
            want = np.where(none, found, want)
        np.testing.assert_allclose(got, want, rtol=1e-9, atol=1e-12, err_msg=name)


@pytest.mark.parametrize("seed", range(30))
def test_graded_rbp_of_the_peers_is_binary_rbp_on_binary_qrels(seed: int) -> None:
    """The deliberate difference: ranx's rbp.95 and ir_measures' RBP(p=..) without rel weigh a
    document by its grade (values above 1 with grades above 1); assay's RBP is binary. On
    binary qrels they agree (checked against ranx; trectools, ir_measures' provider, is not
    installed)."""
    qrels, run = collection(seed, ties=False, long_lists=True)
    binary = {q: {d: min(g, 1) for d, g in docs.items()} for q, docs in qrels.items()}
    theirs = ranx.evaluate(ranx.Qrels(binary), ranx.Run(run), "rbp.95", return_mean=False)
    mine = ours(binary, run, ["rbp.95", "RBP(p=0.95)"])
    for name in ("rbp.95", "RBP(p=0.95)"):
        np.testing.assert_allclose([mine[name][q] for q in binary], theirs, rtol=1e-9)


def test_labels_are_the_names_as_written() -> None:
    qrels, run = collection(0, ties=False, long_lists=True)
    names = ["map", "ndcg_cut.20", "RBP(p=0.8)", "AP@10", "SetR", "ndcg_burges@10", "P.5,10"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = assay.evaluate(qrels, {"r": run}, names, missing="skip")
    assert res.metric_names == [
        "map",
        "ndcg_cut.20",
        "RBP(p=0.8)",
        "AP@10",
        "SetR",
        "ndcg_burges@10",
        "P_5",
        "P_10",
    ]
    assert res.canonical_names == [
        "AP",
        "ndcg@20",
        "rbp()",
        "AP@10",
        "R",
        "ndcg(gain='exp')@10",
        "P@5",
        "P@10",
    ]
    assert res["r", "AP"] is res["r", "map"]
    assert res.provenance["metrics"] == res.canonical_names


def test_measures_declared_under_the_peers_names_are_labelled_as_typed() -> None:
    """INST(T=2) stays INST(T=2) (its canonical name shows the float T=2.0)."""
    qrels, run = collection(1, ties=False, long_lists=True)
    names = ["INST(T=2)", "NERR10(p=0.7)", "Compat(p=0.8)", "ERR@10", "SDCG(dcg='log2')@5", "inst"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = assay.evaluate(qrels, {"r": run}, names, missing="skip")
    assert res.metric_names == names
    assert res.canonical_names == [
        "INST(T=2.0)",
        "NERR10(p=0.7)",
        "Compat(p=0.8)",
        "gdeval_err@10",
        "SDCG@5",
        "INST",
    ]
    assert res["r", "INST(T=2.0)"] is res["r", "INST(T=2)"]


def test_sdcg_takes_ir_measures_only_dcg() -> None:
    with pytest.raises(MetricError, match="dcg must be 'log2'"):
        parse("SDCG(dcg='exp-log2')@5")


def _row_of(written: str, peer: str) -> str:
    """The row name a name as written in the value tests belongs to."""
    rows = IR_ROWS if peer == "ir_measures" else RANX_ROWS
    head = re.match(r"r-precision|[^(@.\-]+", written)
    assert head is not None and head.group() in rows, written
    return head.group()


def test_every_accepted_name_is_checked_against_its_peer() -> None:
    """Guards against silent shrinkage: each accepted name is in a value test above (RBP
    without rel and ranx's rbp through test_graded_rbp..., Judged through its difference)."""
    ir_names = [*PYTREC, *CWL, *COMPAT, *GDEVAL, *PYNDEVAL, "RBP", "Judged"]
    ir_checked = {_row_of(n, "ir_measures") for n in ir_names}
    ranx_checked = {_row_of(n, "ranx") for n in [*RANX, "rbp"]}
    assert ir_checked == {n for n, r in IR_ROWS.items() if r.assay is not None}
    assert ranx_checked == {n for n, r in RANX_ROWS.items() if r.assay is not None}
