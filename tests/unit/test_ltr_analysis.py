"""The analyses: each agrees with the evaluation it summarises (group means weighted by
queries give the overall mean, counts add up, the last point of the tree curve is the model's
own value), permutation importance is seeded and zero for constant features, and every
analysis is a result with records and provenance."""

from __future__ import annotations

import numpy as np
import pytest

from assay import ltr
from assay.ltr import analysis as an

pytest.importorskip("lightgbm")
M = "ndcg(gain='exp')@10"


@pytest.fixture(scope="module")
def fitted() -> tuple[dict[str, ltr.LetorDataset], ltr.LambdaMART, dict[str, np.ndarray], object]:
    splits = ltr.mslr_like_splits(50, seed=2, mean_docs=30)
    model = ltr.LambdaMART(n_estimators=20).fit(splits["train"], splits["vali"])
    test = splits["test"]
    scores = {
        "lambdamart": model.predict(test),
        "linear": ltr.Linear().fit(splits["train"]).predict(test),
    }
    return splits, model, scores, ltr.evaluate_scores(test, scores, [M])


def test_query_distribution(fitted) -> None:
    splits, _, _, res = fitted
    a = an.query_distribution(splits["test"], res, M)
    row = next(r for r in a.records() if r["model"] == "linear")
    values = res["linear", M].values
    assert row["mean"] == pytest.approx(values.mean()) and row["median"] == pytest.approx(
        np.median(values)
    )
    assert row["min"] <= row["q25"] <= row["median"] <= row["q75"] <= row["max"]
    assert a.provenance["conventions"]["ties"] == "input"


@pytest.mark.parametrize("kind", ["length", "relevant"])
def test_groups_add_up_to_the_mean(fitted, kind: str) -> None:
    splits, _, _, res = fitted
    f = an.by_query_length if kind == "length" else an.by_relevant
    a = f(splits["test"], res, M)
    for model in ("linear", "lambdamart"):
        rows = [r for r in a.records() if r["model"] == model]
        assert sum(r["queries"] for r in rows) == splits["test"].n_queries
        weighted = sum(r["queries"] * r["mean"] for r in rows) / splits["test"].n_queries
        assert weighted == pytest.approx(res.aggregate(model, M))


def test_score_distribution(fitted) -> None:
    splits, _, scores, _ = fitted
    a = an.score_distribution(splits["test"], scores)
    rows = [r for r in a.records() if r["model"] == "linear"]
    assert sum(r["documents"] for r in rows) == splits["test"].n_docs
    top = max(rows, key=lambda r: r["grade"])
    assert top["mean"] > min(rows, key=lambda r: r["grade"])["mean"]  # informative scores


def test_permutation_importance(fitted) -> None:
    splits, model, _, _ = fitted
    test = splits["test"]
    a = an.feature_importance(model, test, seed=0)
    b = an.feature_importance(model, test, seed=0)
    assert a.records() == b.records()
    constant = set(test.stats().constant_features) | set(test.stats().empty_features)
    drops = {r["feature"]: r["permutation_drop"] for r in a.records()}
    assert constant and all(drops[f] == 0 for f in constant)
    assert max(drops.values()) > 0.01  # some feature matters
    gains = {r["feature"]: r["gain"] for r in a.records()}
    assert sum(gains.values()) == pytest.approx(model.importance("gain").sum())
    assert len(an.feature_importance(model, test, top=5).records()) == 5


def test_trees_curve(fitted) -> None:
    splits, model, _, _ = fitted
    a = an.trees_curve(model, {"test": splits["test"]}, step=7)
    rows = a.records()
    assert [r["trees"] for r in rows] == [1, 8, 15, 20]
    last = ltr.evaluate_scores(splits["test"], {"x": model.predict(splits["test"], trees=20)}, [M])
    assert rows[-1]["value"] == pytest.approx(last.aggregate("x", M))
    assert sum(r["best"] for r in rows) <= 1


def test_feature_table(fitted) -> None:
    splits, *_ = fitted
    a = an.feature_table(splits["test"])
    assert len(a.records()) == 136 and a.columns[0] == "feature"
