""":func:`assay.judgments.crowd_qrels` against its peers on seeded random crowds: the agreement
per topic against the ``krippendorff`` package (raters x units, ordinal and interval), and
the aggregated grades against crowd-kit's Dawid–Skene and majority vote with each (query,
document) as one task."""

from __future__ import annotations

import math

import numpy as np
import pytest

from assay.judgments import crowd_qrels

krippendorff = pytest.importorskip("krippendorff")


def _crowd(rng: np.random.Generator) -> dict[str, list[object]]:
    """A few topics of a few documents, each graded by a random subset of the workers."""
    n_topics, n_docs, n_workers = rng.integers(1, 4), rng.integers(2, 7), rng.integers(2, 6)
    n_grades = int(rng.integers(2, 5))
    rows: dict[str, list[object]] = {"query": [], "doc": [], "worker": [], "grade": []}
    for t in range(n_topics):
        for d in range(n_docs):
            truth = int(rng.integers(0, n_grades))
            for w in range(n_workers):
                if rng.random() < 0.7:
                    grade = truth if rng.random() < 0.6 else int(rng.integers(0, n_grades))
                    for key, value in zip(rows, (f"q{t}", f"d{d}", f"w{w}", grade), strict=True):
                        rows[key].append(value)
    return rows


@pytest.mark.parametrize("level", ["ordinal", "interval"])
def test_agreement_per_topic_equals_the_krippendorff_package(level: str) -> None:
    rng = np.random.default_rng(28)
    checked = 0
    for _ in range(150):
        rows = _crowd(rng)
        if not rows["grade"]:
            continue
        res = crowd_qrels(rows, method="majority_vote", level=level)
        workers = sorted(set(rows["worker"]))  # type: ignore[type-var]
        for topic in res.agreement:
            docs = sorted({d for q, d in zip(rows["query"], rows["doc"], strict=True)
                           if q == topic["query"]})  # fmt: skip
            x = np.full((len(workers), len(docs)), np.nan)
            for q, d, w, g in zip(*rows.values(), strict=True):
                if q == topic["query"]:
                    x[workers.index(w), docs.index(d)] = g
            pairable = (np.isfinite(x).sum(axis=0) >= 2).sum()
            values = np.unique(x[:, np.isfinite(x).sum(axis=0) >= 2][np.isfinite(
                x[:, np.isfinite(x).sum(axis=0) >= 2])])  # fmt: skip
            if pairable == 0 or len(values) < 2:
                assert math.isnan(topic["alpha"])  # nothing pairable, or no variation
                continue
            want = krippendorff.alpha(reliability_data=x, level_of_measurement=level)
            assert topic["alpha"] == pytest.approx(want, abs=1e-9)
            checked += 1
    assert checked > 100


@pytest.mark.filterwarnings("ignore:The (copy|inplace) keyword")  # crowd-kit under pandas 3
@pytest.mark.parametrize("method", ["dawid_skene", "majority_vote"])
def test_the_grades_equal_crowd_kits_on_the_pairs(method: str) -> None:
    pd = pytest.importorskip("pandas")
    from crowdkit.aggregation import DawidSkene, MajorityVote

    rng = np.random.default_rng(6)
    # crowd-kit's pandas EM takes about a second a case; the kernels' own peer tests run
    # thousands
    for _ in range(10 if method == "dawid_skene" else 40):
        rows = _crowd(rng)
        if not rows["grade"]:
            continue
        res = crowd_qrels(rows, method=method)
        frame = pd.DataFrame(
            {
                "task": [f"{q}|{d}" for q, d in zip(rows["query"], rows["doc"], strict=True)],
                "worker": rows["worker"],
                "label": rows["grade"],
            }
        )
        peer = DawidSkene(n_iter=100, tol=1e-5) if method == "dawid_skene" else MajorityVote()
        proba = peer.fit_predict_proba(frame)
        for i, (q, d) in enumerate(zip(res.query.to_pylist(), res.doc.to_pylist(), strict=True)):
            row = proba.loc[f"{q}|{d}"]
            want = np.array([row.get(g, 0.0) for g in res.grades])
            np.testing.assert_allclose(res.posterior[i], want, atol=1e-6)
            if np.sort(want)[-1] - np.sort(want)[-2] > 1e-9:  # no tie: the argmax is the grade
                assert res.grade[i] == res.grades[int(np.argmax(want))]
