"""The prepared evaluator inside LightGBM's and XGBoost's training: what they log after each
tree is the evaluator's value of that tree's predictions, and early stopping follows it."""

from __future__ import annotations

import numpy as np
import pytest

import assay
from assay import ltr

lgb = pytest.importorskip("lightgbm")
xgb = pytest.importorskip("xgboost")

METRICS = ["ndcg(gain='exp')@10", "map"]


@pytest.fixture(scope="module")
def splits() -> tuple[ltr.LetorDataset, ltr.LetorDataset]:
    train = ltr.mslr_like(120, n_features=12, informative=4, seed=3)
    vali = ltr.mslr_like(60, n_features=12, informative=4, seed=4)
    return train, vali


def test_lightgbm_logs_the_evaluator(splits: tuple[ltr.LetorDataset, ltr.LetorDataset]) -> None:
    train, vali = splits
    ev = vali.evaluator(METRICS)
    dtrain = lgb.Dataset(train.dense(), label=train.labels, group=train.sizes)
    dvali = lgb.Dataset(vali.dense(), label=vali.labels, group=vali.sizes, reference=dtrain)
    log: dict[str, dict[str, list[float]]] = {}
    params = {"objective": "lambdarank", "metric": "None", "verbose": -1, "num_threads": 1}
    booster = lgb.train(
        params,
        dtrain,
        12,
        valid_sets=[dvali],
        valid_names=["vali"],
        feval=ev.lightgbm(),
        callbacks=[lgb.record_evaluation(log)],
    )
    assert list(log["vali"]) == METRICS
    for trees in (1, 5, 12):
        scores = booster.predict(vali.dense(), num_iteration=trees)
        expected = ltr.evaluate_scores(vali, {"m": scores}, METRICS).mean()["m"]
        for m in METRICS:
            assert log["vali"][m][trees - 1] == expected[m]


def test_xgboost_logs_and_stops_on_the_evaluator(
    splits: tuple[ltr.LetorDataset, ltr.LetorDataset],
) -> None:
    train, vali = splits
    ev = vali.evaluator(METRICS)
    dtr = xgb.DMatrix(train.dense(), label=train.labels, qid=train.qidx)
    dva = xgb.DMatrix(vali.dense(), label=vali.labels, qid=vali.qidx)
    history: dict[str, dict[str, list[float]]] = {}
    bst = xgb.train(
        {"objective": "rank:ndcg", "disable_default_eval_metric": 1, "nthread": 1, "seed": 0},
        dtr,
        60,
        evals=[(dva, "vali")],
        custom_metric=ev.xgboost("map"),
        maximize=True,
        early_stopping_rounds=5,
        evals_result=history,
        verbose_eval=False,
    )
    curve = history["vali"]["map"]
    assert bst.best_iteration == int(np.argmax(curve))  # the first best: what it kept
    scores = bst.predict(dva, iteration_range=(0, bst.best_iteration + 1))
    # XGBoost logs a custom metric through its text form, to 6 digits.
    assert curve[bst.best_iteration] == pytest.approx(ev(scores)["map"], abs=5e-7)
    with pytest.raises(assay.InputError, match="was not prepared"):
        ev.xgboost("P@5")
