"""Rankers: least squares equals NumPy's lstsq, ridge shrinks, LambdaMART is seeded and gives
the same bits whatever the thread count, early stopping keeps the best iteration, any
scikit-learn estimator or ranker fits, and seeds give a spread."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from assay import ltr
from assay.errors import InputError, OptionError

lgb = pytest.importorskip("lightgbm")


@pytest.fixture(scope="module")
def splits() -> dict[str, ltr.LetorDataset]:
    return ltr.mslr_like_splits(60, seed=5, mean_docs=40)


def test_linear_is_least_squares(splits: dict[str, ltr.LetorDataset]) -> None:
    train = splits["train"]
    m = ltr.Linear().fit(train)
    design = np.hstack([train.dense(np.float64), np.ones((train.n_docs, 1))])
    w, *_ = np.linalg.lstsq(design, train.labels, rcond=None)
    np.testing.assert_allclose(m.predict(train), design @ w, rtol=1e-9, atol=1e-9)
    ridge = ltr.Linear(l2=1e4).fit(train)
    assert np.linalg.norm(ridge.coef_) < np.linalg.norm(m.coef_)
    with pytest.raises(InputError, match="not fitted"):
        ltr.Linear().predict(train)


def test_lambdamart_seeded_and_thread_independent(splits: dict[str, ltr.LetorDataset]) -> None:
    train, vali, test = splits["train"], splits["vali"], splits["test"]
    one = ltr.LambdaMART(n_estimators=30, num_threads=1).fit(train, vali).predict(test)
    two = ltr.LambdaMART(n_estimators=30, num_threads=2).fit(train, vali).predict(test)
    np.testing.assert_array_equal(one, two)
    other = ltr.LambdaMART(n_estimators=30, seed=1).fit(train, vali).predict(test)
    assert not np.array_equal(one, other)  # bagging follows the seed
    with pytest.raises(OptionError, match="num_threads"):
        ltr.LambdaMART(num_threads=0).fit(train)


def test_early_stopping_keeps_the_best_iteration(splits: dict[str, ltr.LetorDataset]) -> None:
    m = ltr.LambdaMART(n_estimators=300, early_stopping=10).fit(splits["train"], splits["vali"])
    curve = m.evals_result_["vali"]["ndcg@10"]
    assert m.best_iteration_ < len(curve) <= 300
    assert curve[m.best_iteration_ - 1] == max(curve)
    assert m.importance("gain").shape == (136,) and m.importance("split").sum() > 0


def test_estimators(splits: dict[str, ltr.LetorDataset]) -> None:
    from sklearn.linear_model import LinearRegression

    train, test = splits["train"], splits["test"]
    est = ltr.Estimator(LinearRegression()).fit(train)
    # scikit-learn keeps float32 features in float32: agreement to float32 precision.
    np.testing.assert_allclose(est.predict(test), ltr.Linear().fit(train).predict(test), atol=1e-4)
    assert est.name == "LinearRegression"
    ranker = ltr.Estimator(lgb.LGBMRanker(n_estimators=5, verbose=-1), seed=3).fit(train)
    assert ranker.fitted_.get_params()["random_state"] == 3  # the seed reaches the model
    assert ranker.predict(test).shape == (test.n_docs,)
    with pytest.raises(InputError, match="no fit/predict"):
        ltr.Estimator(object())


def test_make_model_and_seeds(splits: dict[str, ltr.LetorDataset]) -> None:
    assert isinstance(ltr.make_model("LambdaMART"), ltr.LambdaMART)
    assert ltr.make_model("ridge").l2 == 1.0
    with pytest.raises(OptionError, match="models"):
        ltr.make_model("svm")  # type: ignore[arg-type]
    r = ltr.RandomScores(seed=4)
    np.testing.assert_array_equal(
        r.predict(splits["test"]), ltr.RandomScores(seed=4).predict(splits["test"])
    )
    exp = ltr.run_experiment(
        splits, ["random", "lambdamart"], seeds=3, n_resamples=200,
        metrics=["ndcg(gain='exp')@10"],
    )  # fmt: skip
    spread = {s.model: s for s in exp.spread}
    assert spread["lambdamart"].n == 3 and spread["lambdamart"].std > 0
    assert spread["random"].minimum <= spread["random"].mean <= spread["random"].maximum
    values = [exp.results.aggregate("lambdamart", "ndcg(gain='exp')@10")]
    assert values[0] == pytest.approx(
        ltr.evaluate_scores(
            splits["test"], {"x": exp.scores["lambdamart"][0]}, ["ndcg(gain='exp')@10"]
        ).aggregate("x", "ndcg(gain='exp')@10")
    )
    assert len(exp.models["lambdamart"]) == 3 and exp.seeds == [0, 1, 2]
    kinds = {r["kind"] for r in exp.records()}
    assert kinds == {"mean", "difference", "seeds"}


def test_listed_seeds_give_the_seed_comparison_with_aso(
    splits: dict[str, ltr.LetorDataset],
) -> None:
    from assay.stats import aso

    metric = "ndcg(gain='exp')@10"
    exp = ltr.run_experiment(
        splits, ["random", "lambdamart", "linear"], seeds=[4, 7, 9], n_resamples=200,
        metrics=[metric],
    )  # fmt: skip
    assert exp.seeds == [4, 7, 9] and set(exp.seed_comparisons) == {metric}
    over = exp.seed_comparisons[metric]
    assert over.baseline == "random" and list(over.systems) == ["random", "lambdamart", "linear"]
    per_seed = ltr.evaluate_scores(
        splits["test"],
        {f"{m}{i}": s for m in ("random", "lambdamart") for i, s in enumerate(exp.scores[m])},
        [metric],
    )
    means = {
        m: [per_seed.aggregate(f"{m}{i}", metric) for i in range(3)]
        for m in ("random", "lambdamart")
    }
    # ε_min of LambdaMART over the random floor, from the seeds' means, two comparisons.
    direct = aso(means["lambdamart"], means["random"], num_comparisons=2, seed=0).statistic
    assert over.eps_min("lambdamart") == pytest.approx(direct, abs=1e-12)
    rows = {r["model"]: r for r in exp.records() if r["kind"] == "seeds"}
    assert rows["random"]["eps_min"] is None
    assert rows["lambdamart"]["eps_min"] == over.eps_min("lambdamart")
    text = exp.report().render("table")
    assert "lambdamart ≻ random: ASO ε_min" in text and "seeds 4, 7, 9" in text
    assert "Scores over seeds" in [s["title"] for s in exp.document()["sections"]]
    with pytest.raises(OptionError, match="seeds lists seed 4 twice"):
        ltr.run_experiment(splits, ["random", "linear"], seeds=[4, 4])


def test_the_baseline_can_be_any_model(splits: dict[str, ltr.LetorDataset]) -> None:
    metric = "ndcg(gain='exp')@10"
    exp = ltr.run_experiment(
        splits, ["random", "linear"], baseline="linear", seeds=2, n_resamples=200,
        metrics=[metric],
    )  # fmt: skip
    assert exp.comparison.baseline == "linear"
    assert exp.seed_comparisons[metric].baseline == "linear"
    pair = exp.comparison.pair("random", "linear", metric)
    assert pair.diff == pytest.approx(
        exp.results.aggregate("random", metric) - exp.results.aggregate("linear", metric)
    )
    assert "random ≻ linear: ASO ε_min" in exp.report().render("table")
    with pytest.raises(OptionError, match="baseline 'svm' is not one of the models"):
        ltr.run_experiment(splits, ["random", "linear"], baseline="svm")


# ---------------------------------------------------------------- saving and loading


def test_a_saved_model_loads_back_with_the_same_scores(
    splits: dict[str, ltr.LetorDataset], tmp_path: Path
) -> None:
    test = splits["test"]
    for model in (
        ltr.Linear().fit(splits["train"]),
        ltr.make_model("ridge").fit(splits["train"]),
        ltr.LambdaMART(n_estimators=20).fit(splits["train"], splits["vali"]),
    ):
        saved = model.save(tmp_path / model.name)
        assert saved is not None and saved.exists()
        assert saved.suffix == (".txt" if isinstance(model, ltr.LambdaMART) else ".json")
        again = ltr.load_model(saved)
        assert type(again) is type(model) and again.name == model.name
        np.testing.assert_array_equal(again.predict(test), model.predict(test))
    # A LambdaMART is saved as LightGBM's own model file, up to the best iteration.
    booster = lgb.Booster(model_file=str(tmp_path / "lambdamart.txt"))
    assert booster.current_iteration() == model.best_iteration_


def test_models_without_a_saved_form_write_nothing(
    splits: dict[str, ltr.LetorDataset], tmp_path: Path
) -> None:
    assert ltr.RandomScores().save(tmp_path / "random") is None
    assert ltr.Linear().save(tmp_path / "unfitted") is None
    from sklearn.linear_model import LinearRegression

    fitted = ltr.Estimator(LinearRegression()).fit(splits["train"])
    assert fitted.save(tmp_path / "estimator") is None  # the method was lost inside _clone
    assert list(tmp_path.iterdir()) == []


def test_loading_a_bad_model_file_is_an_input_error(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="no model file"):
        ltr.load_model(tmp_path / "absent.json")
    (tmp_path / "m.json").write_text('{"coef": [1.0]}', encoding="utf-8")
    with pytest.raises(InputError, match="not a saved linear model"):
        ltr.load_model(tmp_path / "m.json")
    (tmp_path / "m.pkl").write_bytes(b"x")
    with pytest.raises(InputError, match=r"\.txt \(LambdaMART\) or \.json"):
        ltr.load_model(tmp_path / "m.pkl")
