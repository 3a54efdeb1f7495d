"""assay.compat.pytrec_eval against pytrec-eval-terrier (a test-only dependency).

Random collections whose scores are exact in float32 (pytrec_eval stores float32), so both see
the same ranking; every supported measure must agree per query to 1e-9, with the same keys.
Also assay.compat.trec_eval's ``iprec_rounding="trec9"`` against pytrec_eval's recall levels.
"""

from __future__ import annotations

import math

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import assay
from assay.compat import pytrec_eval as compat
from assay.compat.trec_eval import evaluate_trec
from strategies.ranking import float32_collections
from support.trec_eval import data

pytrec_eval = pytest.importorskip("pytrec_eval")


MEASURE_SETS = [
    {"all_trec"},
    {"official"},
    {"P.3,7", "recall_2", "ndcg_cut.1,4", "map_cut.5", "success.1,2", "iprec_at_recall.0.15"},
    {"P", "P_5", "ndcg", "gm_map", "gm_bpref", "relstring", "runid", "num_q"},
]


def _compare(qrels: dict, run: dict, measures: set[str], **kwargs: object) -> None:
    expected = pytrec_eval.RelevanceEvaluator(qrels, measures, **kwargs).evaluate(run)
    got = compat.RelevanceEvaluator(qrels, measures, **kwargs).evaluate(run)
    assert set(got) == set(expected)
    for q, values in expected.items():
        assert set(got[q]) == set(values), (q, set(got[q]) ^ set(values))
        for name, value in values.items():
            if math.isnan(value):  # trec_eval's 0/0 (e.g. iprec of an empty judged-only list)
                assert math.isnan(got[q][name]), (q, name, got[q][name])
                continue
            assert math.isclose(got[q][name], value, rel_tol=1e-9, abs_tol=1e-9), (
                q,
                name,
                got[q][name],
                value,
            )


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    data=float32_collections(),
    which=st.integers(0, len(MEASURE_SETS) - 1),
    level=st.integers(1, 3),
    judged_only=st.booleans(),
)
def test_matches_pytrec_eval(
    data: tuple[dict, dict], which: int, level: int, judged_only: bool
) -> None:
    qrels, run = data
    if not any(q in qrels for q in run):
        return  # pytrec_eval returns {} too; covered below
    _compare(
        qrels, run, MEASURE_SETS[which], relevance_level=level, judged_docs_only_flag=judged_only
    )


def test_fixed_case_with_ties_and_partial_overlap() -> None:
    qrels = {"q1": {"a": 2, "b": 0, "c": 1, "z": 3}, "q2": {"x": 1}, "q3": {"y": 0}}
    run = {
        "q1": {"a": 0.5, "b": 0.5, "c": 0.25, "d": 1.0},
        "q2": {"x": 1.0, "y": 1.0},
        "q9": {"a": 1.0},
    }
    _compare(qrels, run, {"all_trec"})
    _compare(qrels, run, {"all_trec"}, relevance_level=2)
    _compare(qrels, run, {"all_trec"}, judged_docs_only_flag=True)


def test_empty_and_disjoint_inputs() -> None:
    qrels = {"q1": {"a": 1}}
    assert compat.RelevanceEvaluator(qrels, {"map"}).evaluate({}) == {}
    assert compat.RelevanceEvaluator(qrels, {"map"}).evaluate(
        {"q2": {"a": 1.0}}
    ) == pytrec_eval.RelevanceEvaluator(qrels, {"map"}).evaluate({"q2": {"a": 1.0}})


def test_supported_measures_and_errors() -> None:
    assert compat.supported_measures == set(pytrec_eval.supported_measures)
    for nick in ("official", "set", "all_trec"):
        assert compat.supported_nicknames[nick] == set(pytrec_eval.supported_nicknames[nick])
    with pytest.raises(ValueError, match="unsupported measure"):
        compat.RelevanceEvaluator({"q": {"d": 1}}, {"bogus"})


def test_double_precision_scores_keep_their_order() -> None:
    # 1 + 1e-9 and 1 collapse to the same float32: pytrec_eval ties them (docno decides),
    # assay keeps the order the scores give.
    qrels = {"q": {"a": 1, "b": 0}}
    run = {"q": {"a": 1.0 + 1e-9, "b": 1.0}}
    assert compat.RelevanceEvaluator(qrels, {"recip_rank"}).evaluate(run)["q"]["recip_rank"] == 1.0
    assert (
        pytrec_eval.RelevanceEvaluator(qrels, {"recip_rank"}).evaluate(run)["q"]["recip_rank"]
        == 0.5
    )


def test_parse_helpers_and_aggregation(tmp_path: pytest.TempPathFactory) -> None:
    path = tmp_path / "run.txt"  # type: ignore[operator]
    path.write_text("q1 Q0 a 1 2.5 r\nq1 Q0 b 2 1.5 r\nq2 Q0 c 1 0.5 r\n")
    with open(path) as fh:
        assert compat.parse_run(fh) == {"q1": {"a": 2.5, "b": 1.5}, "q2": {"c": 0.5}}
    assert compat.parse_qrel(["q1 0 a 1\n", "q1 0 b 0\n"]) == {"q1": {"a": 1, "b": 0}}
    vals = [0.5, 0.25]
    for m in ("map", "num_ret", "gm_map"):
        assert compat.compute_aggregated_measure(m, vals) == pytest.approx(
            pytrec_eval.compute_aggregated_measure(m, vals)
        )


def test_parsed_dicts_reuse_columns_until_mutated(tmp_path: pytest.TempPathFactory) -> None:
    import collections
    import copy
    import pickle

    from assay.compat._tracked import columnar_of

    qpath = tmp_path / "qrels.txt"  # type: ignore[operator]
    rpath = tmp_path / "run.txt"  # type: ignore[operator]
    qpath.write_text("q1 0 a 1\nq1 0 b 0\nq2 0 c 1\n")
    rpath.write_text("q1 Q0 a 1 2.5 r\nq1 Q0 b 2 1.5 r\nq2 Q0 c 1 0.5 r\nq2 Q0 d 2 0.25 r\n")
    with open(qpath) as fh:
        qrels = compat.parse_qrel(fh)
    with open(rpath) as fh:
        run = compat.parse_run(fh)
    assert columnar_of(run) is not None and columnar_of(qrels) is not None
    ev = compat.RelevanceEvaluator(qrels, {"recip_rank", "P.1"})
    assert ev.evaluate(run) == pytrec_eval.RelevanceEvaluator(
        dict(qrels), {"recip_rank", "P.1"}
    ).evaluate({k: dict(v) for k, v in run.items()})
    # Copies and pickles are plain defaultdicts (as pytrec_eval's) of plain dicts; mutations of
    # inner or outer dicts forget the columns.
    plain = collections.defaultdict
    assert type(copy.copy(run)) is plain and type(copy.deepcopy(run)["q1"]) is dict
    assert type(pickle.loads(pickle.dumps(run))) is plain
    run["q1"]["a"] = 0.0  # a now ranks below b
    assert columnar_of(run) is None
    assert ev.evaluate(run)["q1"]["recip_rank"] == 0.5
    with open(rpath) as fh:
        run2 = compat.parse_run(fh)
    del run2["q2"]
    assert columnar_of(run2) is None and set(ev.evaluate(run2)) == {"q1"}
    with open(rpath) as fh:
        run3 = compat.parse_run(fh)
    run3.setdefault("q3", {"z": 1.0})
    assert columnar_of(run3) is None


def test_iprec_rounding_trec9_matches_pytrec_eval() -> None:
    """trec_eval 9 (and pytrec_eval) turn recall levels into (long)(level * R + 0.9) documents."""
    pytrec_eval = pytest.importorskip("pytrec_eval")
    qrels = assay.Qrels.from_trec(data("qrels.test"))
    run = assay.Run.from_trec(data("results.test"))
    res9 = evaluate_trec(qrels, run, ["iprec_at_recall", "11pt_avg"], iprec_rounding="trec9")
    res10 = evaluate_trec(qrels, run, ["iprec_at_recall", "11pt_avg"])
    ev = pytrec_eval.RelevanceEvaluator(qrels.to_dict(), {"iprec_at_recall", "11pt_avg"})
    theirs = ev.evaluate(run.to_dict())
    differs = False
    for q in res9.queries:
        for name, value in res9.per_query[q].items():
            assert value == pytest.approx(theirs[q][name], abs=1e-12), (q, name)
            differs |= value != res10.per_query[q][name]
    assert differs  # the two roundings do disagree on these topics
