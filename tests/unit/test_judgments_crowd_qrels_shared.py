"""End to end: simulated crowd workers (seeded accuracies from 0.3 to 0.95) re-grade every
judged document of trec_eval's own test qrels (../shared/data/trec_eval/qrels.test); the
crowd's qrels are aggregated, and trec_eval's quicktest runs are ranked under them."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import assay
from assay.judgments import crowd_qrels
from conftest import shared_file
from strategies.crowd_qrels import simulated_crowd

RUNS = ("results.test", "results.trunc", "results-302.test")


@pytest.fixture(scope="module")
def truth() -> assay.Qrels:
    return assay.Qrels.read(shared_file("trec_eval", "qrels.test"))


@pytest.fixture(scope="module")
def runs() -> list[assay.Run]:
    paths = [shared_file("trec_eval", name) for name in RUNS]
    return [assay.Run.read(p, name=Path(p).name) for p in paths]


def _accuracy(res: assay.judgments.CrowdQrels, truth: assay.Qrels) -> float:
    want = {(q, d): g for q, d, g in truth}
    got = [want[(q, d)] == g for q, d, g in res.qrels]
    return float(np.mean(got))


def test_dawid_skene_recovers_more_true_grades_than_majority_vote(
    truth: assay.Qrels, runs: list[assay.Run]
) -> None:
    crowd = simulated_crowd(truth, seed=11)
    res = crowd_qrels(crowd, method="dawid_skene", runs=runs, metric="map")
    assert len(res.grade) == len(truth) == 3681
    assert set(res.qrels.queries) == set(truth.queries)
    mv = crowd_qrels(crowd, method="majority_vote")
    ds_acc, mv_acc = _accuracy(res, truth), _accuracy(mv, truth)
    # workers of accuracy 0.3 to 0.95: modelling each worker beats counting votes
    assert ds_acc > mv_acc > 0.7, (ds_acc, mv_acc)
    assert res.majority_grade.tolist() == mv.grade.tolist()
    assert res.n_changed > 0
    # the ranking change is that of evaluating the runs under both qrels
    assert res.ranking is not None and res.ranking["n_runs"] == 3
    ref = assay.evaluate(res.majority_qrels, runs, ["map"]).mean()
    agg = assay.evaluate(res.qrels, runs, ["map"]).mean()
    for s in res.scores:
        assert s["majority_vote"] == pytest.approx(ref[s["system"]]["map"])
        assert s["aggregated"] == pytest.approx(agg[s["system"]]["map"])
    assert -1.0 <= res.ranking["kendall_tau"] <= 1.0
    assert 0.0 <= res.ranking["rbo_ext"] <= 1.0
    # three topics, every document graded 5 times by workers this noisy: α defined, low
    assert [t["query"] for t in res.agreement] == ["301", "302", "303"]
    for t in res.agreement:
        assert t["defined"] and -1.0 <= t["alpha"] < 1.0
        assert t["n_labels"] == 5 * t["n_docs"]


def test_perfect_workers_reproduce_the_qrels_and_their_ranking(
    truth: assay.Qrels, runs: list[assay.Run]
) -> None:
    crowd = simulated_crowd(truth, n_workers=4, per_doc=3, accuracy=(1.0, 1.0), seed=2)
    res = crowd_qrels(crowd, method="dawid_skene", runs=runs, metric="ndcg@10")
    assert sorted(res.qrels) == sorted(truth)
    assert res.ranking is not None
    assert res.ranking["kendall_tau"] == 1.0 and res.ranking["rbo_ext"] == pytest.approx(1.0)
    assert all(t["alpha"] == 1.0 for t in res.agreement)
