"""Reproducibility measures against ``repro_eval`` 0.5 (Breuer et al. 2020's package) on
random runs: KTU and RBO per topic from the runs, and RMSE, nRMSE, ER, ΔRI and the paired and
unpaired t-test p-values from the same per-topic scores (assay's own evaluation, given to
repro_eval as its score dictionaries)."""

from __future__ import annotations

import numpy as np
import pytest

from assay import evaluate
from assay.data import Qrels, Run
from assay.meta import ktau_union, repro_rbo, reproducibility

repro_eval = pytest.importorskip("repro_eval")
from repro_eval.measure import document_order, effectiveness, overall_effects, statistics  # noqa: E402

METRICS = ["map", "P@10", "ndcg"]


def _collection(seed: int, n_topics: int = 8, n_docs: int = 40):
    """Qrels and four runs; every run ranks the same number of documents per topic (KTU needs
    equal lengths), scores on a coarse grid so that ties occur."""
    rng = np.random.default_rng(seed)
    topics = [f"t{k}" for k in range(n_topics)]
    qrels = Qrels.from_columns(
        [t for t in topics for _ in range(n_docs)],
        [f"d{i}" for _ in topics for i in range(n_docs)],
        rng.integers(0, 3, n_topics * n_docs).tolist(),
    )
    depth = {t: int(rng.integers(5, n_docs)) for t in topics}
    runs = []
    for name in ["ob", "oa", "rb", "ra"]:
        q, d, s = [], [], []
        for t in topics:
            docs = rng.permutation(n_docs)[: depth[t]]
            q += [t] * len(docs)
            d += [f"d{i}" for i in docs]
            s += np.round(rng.random(len(docs)) * 8).tolist()
        runs.append(Run.from_columns(q, d, s, name=name))
    return qrels, runs


def _as_dict(run: Run) -> dict[str, dict[str, float]]:
    """repro_eval's run dictionary: topics sorted, documents in score-descending order (as a
    run file sorted by score), so that its break_ties gives trec_eval's order."""
    out: dict[str, dict[str, float]] = {}
    for q, doc, score in zip(
        run.query_ids.take(run.query_codes).to_pylist(),
        run.doc_ids.take(run.doc_codes).to_pylist(),
        run.scores.tolist(),
        strict=True,
    ):
        out.setdefault(q, {})[doc] = score
    return {t: out[t] for t in sorted(out)}


def _scores(qrels: Qrels, run: Run) -> dict[str, dict[str, float]]:
    res = evaluate(qrels, run, METRICS)
    out: dict[str, dict[str, float]] = {}
    for m in res.metric_names:
        for q, v in res[run.name, m].as_dict().items():
            out.setdefault(str(q), {})[m] = float(v)
    return {t: out[t] for t in sorted(out)}


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_ktu_and_rbo_per_topic(seed):
    _, (ob, _, rb, _) = _collection(seed)
    peer_ktu = document_order.KTU(_as_dict(ob), _as_dict(rb), per_topic=True)
    peer_rbo = document_order.RBO(
        _as_dict(ob), _as_dict(rb), p=0.95, depth=1000, pbar=False, per_topic=True
    )
    ktu = ktau_union(ob, rb)
    rbo = repro_rbo(ob, rb)
    assert list(ktu.topics) == list(peer_ktu)
    np.testing.assert_allclose(ktu.values, list(peer_ktu.values()), rtol=0, atol=1e-13)
    np.testing.assert_allclose(rbo.values, list(peer_rbo.values()), rtol=0, atol=1e-13)
    shallow = repro_rbo(ob, rb, p=0.8, depth=7)
    peer = document_order.RBO(
        _as_dict(ob), _as_dict(rb), p=0.8, depth=7, pbar=False, per_topic=True
    )
    np.testing.assert_allclose(shallow.values, list(peer.values()), rtol=0, atol=1e-13)
    cut = ktau_union(ob, rb, depth=4)
    peer_cut = [v for _, v in document_order._KTU(_as_dict(ob), _as_dict(rb), trim_thresh=4)]
    np.testing.assert_allclose(cut.values, peer_cut, rtol=0, atol=1e-13)


@pytest.mark.parametrize("seed", [4, 5, 6])
def test_effects_errors_and_tests_from_the_same_scores(seed):
    qrels, (ob, oa, rb, ra) = _collection(seed)
    res = reproducibility(qrels, ob, oa, rb, ra, METRICS)
    s_ob, s_oa, s_rb, s_ra = (_scores(qrels, r) for r in (ob, oa, rb, ra))
    er = overall_effects.ER(s_oa, s_ob, s_ra, s_rb)
    dri = overall_effects.DRI(s_oa, s_ob, s_ra, s_rb)
    rmse_b = effectiveness.RMSE(s_ob, s_rb)
    nrmse_b = effectiveness.nRMSE(s_ob, s_rb)
    p_b = statistics.ttest(s_ob, s_rb, rpd=True)
    p_a = statistics.ttest(s_oa, s_ra, rpd=True)
    for m in res.metrics:
        assert res.effects[m]["er"] == pytest.approx(er[m], rel=1e-12)
        assert res.effects[m]["delta_ri"] == pytest.approx(dri[m], rel=1e-12, abs=1e-15)
        assert res.scores[("baseline", m)]["rmse"] == pytest.approx(rmse_b[m], rel=1e-12)
        assert res.scores[("baseline", m)]["nrmse"] == pytest.approx(nrmse_b[m], rel=1e-12)
        assert res.scores[("baseline", m)]["pvalue"] == pytest.approx(p_b[m], rel=1e-9)
        assert res.scores[("advanced", m)]["pvalue"] == pytest.approx(p_a[m], rel=1e-9)
    np.testing.assert_allclose(
        res.ktu["baseline"].mean, document_order.KTU(_as_dict(ob), _as_dict(rb))
    )


def test_replicability_uses_the_unpaired_test_and_no_orderings():
    qrels, (ob, oa, rb, ra) = _collection(7)
    other, _ = _collection(8)
    res = reproducibility(qrels, ob, oa, rb, ra, METRICS, rep_qrels=other)
    assert res.kind == "replicability" and not res.ktu and not res.rbo
    p = statistics.ttest(_scores(qrels, ob), _scores(other, rb), rpd=False)
    er = overall_effects.ER(
        _scores(qrels, oa), _scores(qrels, ob), _scores(other, ra), _scores(other, rb)
    )
    for m in res.metrics:
        assert res.scores[("baseline", m)]["pvalue"] == pytest.approx(p[m], rel=1e-9)
        assert res.effects[m]["er"] == pytest.approx(er[m], rel=1e-12)
        assert "rmse" not in res.scores[("baseline", m)]


def test_identical_reproduction_has_p_one_and_perfect_orderings():
    qrels, (ob, oa, _, _) = _collection(9)
    res = reproducibility(qrels, ob, oa, ob, oa, METRICS)
    assert statistics.ttest(_scores(qrels, ob), _scores(qrels, ob))["map"] == 1.0
    for m in res.metrics:
        assert res.scores[("baseline", m)]["pvalue"] == 1.0
        assert res.scores[("baseline", m)]["rmse"] == 0.0
        assert res.effects[m]["er"] == pytest.approx(1.0)
    assert res.ktu["baseline"].mean == pytest.approx(1.0)
    # repro_eval's RBO is normalised at depth 1000: identical lists shorter than that stay < 1
    peer = document_order.RBO(
        _as_dict(oa), _as_dict(oa), p=0.95, depth=1000, pbar=False, per_topic=False
    )
    assert res.rbo["advanced"].mean == pytest.approx(peer, abs=1e-13) and peer < 1
