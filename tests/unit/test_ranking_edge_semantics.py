"""Named regressions of issue 11 on ranking semantics: an empty ranking under
``missing="zero"``, grades of 1024 and more, and the direction of wins and losses in
``compare``."""

from __future__ import annotations

import math
import warnings

import pytest
from typer.testing import CliRunner

import assay
from assay.cli import app

QRELS = {"q1": {"a": 1, "b": 0}, "q2": {"c": 1, "d": 0}}


def test_missing_zero_scores_rbp_resid_as_an_empty_ranking() -> None:
    """missing="zero" evaluates a query without results as an empty ranking: its RBP residual
    is 1 (nothing is known), the value judged_only gives the same empty ranking, never the
    best possible residual 0."""
    qrels = assay.Qrels.from_dict(QRELS)
    run = assay.Run.from_dict({"q1": {"a": 2.0, "x": 1.0}}, name="r")
    metrics = ["rbp_resid(p=0.8)", "rbp_resid(p=0.8)@5", "rbp_resid(p=0.5)@1"]
    zero = assay.evaluate(qrels, run, metrics, missing="zero")
    # q2 has results that judged_only removes entirely: the same empty ranking.
    run_j = assay.Run.from_dict({"q1": {"a": 2.0, "x": 1.0}, "q2": {"zz": 1.0}}, name="r")
    judged = assay.evaluate(qrels, run_j, metrics, judged_only=True)
    for m in metrics:
        assert zero.per_query("r", m)["q2"] == 1.0
        assert judged.per_query("r", m)["q2"] == 1.0
    # q1: a then unjudged x: 0.8^2 + 0.2 * 0.8 = 0.8
    assert zero.per_query("r", "rbp_resid(p=0.8)")["q1"] == pytest.approx(0.8)


def test_trec_eval_c_keeps_trec_eval_zero_for_rbp_resid(tmp_path) -> None:
    """`assay trec-eval -c` still prints trec_eval's 0 for a topic without results."""
    (tmp_path / "qrels").write_text("q1 0 a 1\nq1 0 b 0\nq2 0 c 1\nq2 0 d 0\n")
    (tmp_path / "run").write_text("q1 Q0 a 1 2.0 t\nq1 Q0 x 2 1.0 t\n")
    result = CliRunner().invoke(
        app, ["trec-eval", "-q", "-c", "-m", "rbp_resid", str(tmp_path / "qrels"),
              str(tmp_path / "run")]
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    lines = {tuple(line.split()[:2]): line.split()[2] for line in result.stdout.splitlines()}
    assert lines[("rbp_resid", "q2")] == "0.0000"
    assert lines[("rbp_resid", "q1")] == "0.9000"  # 0.9^2 + 0.1 * 0.9


def _big_grades() -> tuple[assay.Qrels, assay.Run]:
    qrels = assay.Qrels.from_dict({"q1": {"a": 1024, "b": 1, "c": 0}, "q2": {"d": 2000}})
    run = assay.Run.from_dict(
        {"q1": {"a": 1.0, "b": 2.0, "c": 3.0}, "q2": {"d": 1.0, "e": 2.0}}, name="r"
    )
    return qrels, run


@pytest.mark.parametrize("no_relevant", ["zero", "nan"])
def test_err_with_grades_above_1023_is_finite_and_exact(no_relevant: str) -> None:
    """ERR's stop probability (2^g - 1) / 2^gmax never forms 2^g: no overflow, no NaN turned
    into 0 by no_relevant, no NumPy warning."""
    qrels, run = _big_grades()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        res = assay.evaluate(qrels, run, ["err", "err@2", "err(gmax=2000)@1"],
                             no_relevant=no_relevant)  # fmt: skip
    # gmax = 2000 (the qrels' maximum). q1: c (grade 0), b (grade 1), a (grade 1024).
    r_b = 2.0 ** (1 - 2000) - 2.0**-2000  # 2^-2000 underflows to 0 exactly
    r_a = 2.0 ** (1024 - 2000) - 2.0**-2000
    assert res.per_query("r", "err")["q1"] == (r_b / 2 + (1 - r_b) * r_a / 3)
    assert res.per_query("r", "err@2")["q1"] == r_b / 2
    # q2: e (unjudged, 0) then d (grade 2000, stop probability 1 - 2^-2000 = 1.0).
    assert res.per_query("r", "err")["q2"] == 0.5
    assert res.per_query("r", "err(gmax=2000)@1")["q2"] == 0.0
    assert all(math.isfinite(v) for v in res.per_query("r", "err").values())


@pytest.mark.parametrize("name", ["ndcg(gain='exp')", "ndcg(gain='exp')@2", "dcg(gain='exp')"])
def test_exponential_gain_above_1023_is_a_clear_error(name: str) -> None:
    qrels, run = _big_grades()
    with pytest.raises(assay.MetricError, match="overflows for grade 2000"):
        assay.evaluate(qrels, run, [name])


def test_exponential_gain_at_1023_is_finite() -> None:
    qrels = assay.Qrels.from_dict({"q1": {"a": 1023, "b": 1}})
    run = assay.Run.from_dict({"q1": {"a": 1.0, "b": 2.0}}, name="r")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        value = assay.evaluate(qrels, run, ["ndcg(gain='exp')"]).per_query("r", "ndcg(gain='exp')")
    assert 0 < value["q1"] < 1 and math.isfinite(value["q1"])


@pytest.mark.parametrize(
    "metric", ["mse", "discordant_pairs", "rbp_resid(p=0.8)", "unjudged@5", "ndcg", "AP"]
)
def test_compare_wins_follow_the_metric_direction(metric: str) -> None:
    """A run better on every query wins on every query, whether higher or lower is better."""
    queries = [f"q{i}" for i in range(8)]
    qrels = assay.Qrels.from_dict({q: {"a": 1, "b": 0, "c": 2} for q in queries})
    good = assay.Run.from_dict({q: {"c": 3.0, "a": 2.0, "b": 1.0} for q in queries}, name="good")
    bad = assay.Run.from_dict(
        {q: {"zz": 4.0, "b": 3.0, "a": 2.0, "c": 1.0} for q in queries}, name="bad"
    )
    cmp = assay.compare(qrels, [bad, good], [metric], baseline="bad", n_resamples=200, seed=0)
    pair = cmp.pair("good", "bad", str(assay.metrics.parse(metric)[0]))
    assert (pair.wins, pair.ties, pair.losses) == (8, 0, 0)
    spec = assay.metrics.parse(metric)[0]
    assert (pair.diff > 0) == spec.higher_is_better
