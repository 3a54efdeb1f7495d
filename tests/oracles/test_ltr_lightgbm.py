"""LightGBM's lambdarank example (../shared/data/lightgbm_lambdarank) as the oracle: its
reference figures, LightGBM's own NDCG@k evaluation reproduced to 1e-9 by assay's kernels
(exponential gain, input-order ties, no_relevant="one"), and the significance of the
LambdaMART-vs-linear difference through ``assay ltr run``."""

from __future__ import annotations

import json

import numpy as np
import pytest
from typer.testing import CliRunner

from assay import ltr
from assay.cli import app
from conftest import shared_file

lgb = pytest.importorskip("lightgbm")
KS = (1, 3, 5, 10)


@pytest.fixture(scope="module")
def splits() -> dict[str, ltr.LetorDataset]:
    return ltr.load(shared_file("lightgbm_lambdarank", "rank.train").parent)


@pytest.fixture(scope="module")
def experiment(splits: dict[str, ltr.LetorDataset]) -> ltr.Experiment:
    return ltr.run_experiment(splits, ["linear", "lambdamart"], n_resamples=2000)


def test_reference_figures(experiment: ltr.Experiment) -> None:
    """README figures: LambdaMART 0.604/0.630/0.670/0.742, linear 0.506/0.590/0.651/0.712."""
    res = experiment.results
    expected = {
        "lambdamart": (0.604, 0.630, 0.670, 0.742),
        "linear": (0.506, 0.590, 0.651, 0.712),
    }
    for model, values in expected.items():
        for k, v in zip(KS, values, strict=True):
            assert res.aggregate(model, f"ndcg(gain='exp')@{k}") == pytest.approx(v, abs=6e-4)
    assert experiment.models["lambdamart"][0].best_iteration_ == 100  # no vali: all trees


#: LightGBM's default gains, given explicitly: the model then keeps LightGBM's own ndcg metric.
LIGHTGBM_GAINS = {"label_gain": [2.0**i - 1 for i in range(31)]}


def test_ndcg_equals_lightgbm_evaluation(splits: dict[str, ltr.LetorDataset]) -> None:
    """LightGBM's ndcg@k (label_gain 2^i - 1, stable sort by score, k truncated to the
    query's size, 1 for a query without a relevant document) on train and test equals assay's
    NDCG@k under gain='exp', ties='input', no_relevant='one' to 1e-9."""
    train, test = splits["train"], splits["test"]
    model = ltr.LambdaMART(params={"eval_at": list(KS), **LIGHTGBM_GAINS})
    model.fit(train, test)  # test as the validation set: LightGBM evaluates it every tree
    assert train.stats().no_relevant == 3  # the no_relevant convention is exercised
    assert int(train.sizes.min()) == 1  # and so is a query shorter than every k > 1
    for split, data in (("train", train), ("vali", test)):
        res = ltr.evaluate_scores(
            data, {"m": model.predict(data)}, [f"ndcg(gain='exp')@{k}" for k in KS]
        )
        for k in KS:
            lightgbm = model.evals_result_[split][f"ndcg@{k}"][model.best_iteration_ - 1]
            assert abs(res.aggregate("m", f"ndcg(gain='exp')@{k}") - lightgbm) < 1e-9, (split, k)


def test_early_stopping_on_assay_equals_lightgbm(splits: dict[str, ltr.LetorDataset]) -> None:
    """By default LambdaMART watches assay's prepared evaluator, not LightGBM's metric: the
    per-tree curves of both agree to 1e-9 on every cutoff and split, and early stopping
    keeps the same tree."""
    train, vali = splits["train"], splits["test"]
    options = {"n_estimators": 120, "early_stopping": 5}
    ours = ltr.LambdaMART(params={"eval_at": list(KS)}, **options).fit(train, vali)
    theirs = ltr.LambdaMART(params={"eval_at": list(KS), **LIGHTGBM_GAINS}, **options)
    theirs.fit(train, vali)
    assert ours.best_iteration_ == theirs.best_iteration_ < 120  # it stopped early
    for split in ("train", "vali"):
        for k in KS:
            a = np.array(ours.evals_result_[split][f"ndcg@{k}"])
            b = np.array(theirs.evals_result_[split][f"ndcg@{k}"])
            assert a.shape == b.shape and np.abs(a - b).max() < 1e-9, (split, k)
    np.testing.assert_array_equal(ours.predict(vali), theirs.predict(vali))


def test_trec_eval_zero_differs_only_on_queries_without_relevant(
    splits: dict[str, ltr.LetorDataset],
) -> None:
    train = splits["train"]
    scores = {"m": ltr.Linear().fit(train).predict(train)}
    one = ltr.evaluate_scores(train, scores, ["ndcg(gain='exp')@10"], no_relevant="one")
    zero = ltr.evaluate_scores(train, scores, ["ndcg(gain='exp')@10"], no_relevant="zero")
    a, b = one["m", "ndcg(gain='exp')@10"].values, zero["m", "ndcg(gain='exp')@10"].values
    assert (a != b).sum() == 3 and np.all(a[a != b] == 1) and np.all(b[a != b] == 0)


def test_ltr_run_reports_the_difference_not_significant() -> None:
    folder = shared_file("lightgbm_lambdarank", "rank.train").parent
    result = CliRunner().invoke(
        app, ["ltr", "run", str(folder), "--models", "linear,lambdamart", "-f", "jsonl"]
    )
    assert result.exit_code == 0, result.output
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    diff = next(
        r for r in rows
        if r["kind"] == "difference" and r["metric"] == "ndcg(gain='exp')@10"
    )  # fmt: skip
    assert diff["model"] == "lambdamart" and diff["baseline"] == "linear"
    assert diff["value"] == pytest.approx(0.742 - 0.712, abs=1e-3)
    assert 0.10 < diff["p_value"] < 0.14 and not diff["significant"]
