"""assay.classification.compare against a slow reference: plain Python loops over the same
resamples (the index and swap streams assay.stats documents), the family's own measures
recomputed label by label on each; McNemar and Cochran's Q through assay.stats; bad inputs."""

from __future__ import annotations

import math

import numpy as np
import pytest

from assay import classification as C
from assay import stats as S
from assay.errors import InputError, MetricError, OptionError
from assay.metrics import parse

N_RESAMPLES = 199


def _data(seed: int, n: int = 80, k: int = 3, systems: int = 3):
    rng = np.random.default_rng(seed)
    gold = rng.integers(0, k, size=n)
    preds = {
        f"s{i}": np.where(rng.uniform(size=n) < 0.5 + 0.1 * i, gold, rng.integers(0, k, size=n))
        for i in range(systems)
    }
    return gold, preds


def _measure(name: str):
    return parse(name, family="classification")[0]


def _bootstrap_reference(metric, gold, a, b, seed, n_resamples, confidence=0.95):
    """Paired bootstrap by a loop: the same resampled items for both systems."""
    n = gold.shape[0]
    idx = np.random.default_rng(seed).integers(0, n, size=(n_resamples, n))
    theta = metric(gold, a) - metric(gold, b)
    dist = np.array([metric(gold[i], a[i]) - metric(gold[i], b[i]) for i in idx])
    hits = sum(abs(d - theta) >= abs(theta) - 1e-9 for d in dist)
    tail = (1 - confidence) / 2
    low, high = np.quantile(dist, [tail, 1 - tail])
    return theta, (hits + 1) / (n_resamples + 1), low, high


def _swaps(seed: int, n: int, n_resamples: int) -> list[list[bool]]:
    """The swap patterns of assay.stats' randomisation tests: row r is the low n bits of
    ceil(n/32) consecutive uint32 draws, least significant bit first."""
    words = (n + 31) // 32
    w = np.random.default_rng(seed).integers(0, 1 << 32, size=(n_resamples, words), dtype=np.uint32)
    return [
        [bool((int(w[r, i // 32]) >> (i % 32)) & 1) for i in range(n)] for r in range(n_resamples)
    ]


def _randomization_reference(metric, gold, a, b, seed, n_resamples):
    theta = metric(gold, a) - metric(gold, b)
    hits = 0
    for swap in _swaps(seed, gold.shape[0], n_resamples):
        sa = np.array([y if s else x for x, y, s in zip(a, b, swap, strict=True)])
        sb = np.array([x if s else y for x, y, s in zip(a, b, swap, strict=True)])
        hits += abs(metric(gold, sa) - metric(gold, sb)) >= abs(theta) - 1e-9
    return (hits + 1) / (n_resamples + 1)


@pytest.mark.parametrize("name", ["f1(average='macro')", "mcc", "balanced_accuracy"])
@pytest.mark.parametrize("seed", [0, 1])
def test_corpus_measures_match_the_slow_reference(name: str, seed: int) -> None:
    gold, preds = _data(seed)
    metric = _measure(name)
    boot = C.compare(
        gold,
        preds,
        metrics=[name],
        test="bootstrap",
        n_resamples=N_RESAMPLES,
        seed=seed,
        correction="none",
    )
    rand = C.compare(
        gold,
        preds,
        metrics=[name],
        test="randomization",
        n_resamples=N_RESAMPLES,
        seed=seed,
        correction="none",
    )
    for system in ("s1", "s2"):
        theta, p, low, high = _bootstrap_reference(
            metric, gold, preds[system], preds["s0"], seed, N_RESAMPLES
        )
        pair = boot.pair(system)
        assert pair.diff == pytest.approx(theta, abs=1e-12)
        assert pair.p_value == pytest.approx(p, abs=1e-12)
        assert (pair.ci_low, pair.ci_high) == pytest.approx((low, high), abs=1e-12)
        assert math.isnan(pair.effect_size)
        expected = _randomization_reference(
            metric, gold, preds[system], preds["s0"], seed, N_RESAMPLES
        )
        assert rand.pair(system).p_value == pytest.approx(expected, abs=1e-12)
        assert (rand.pair(system).ci_low, rand.pair(system).ci_high) == (pair.ci_low, pair.ci_high)


def test_score_intervals_match_a_percentile_bootstrap_loop() -> None:
    gold, preds = _data(7)
    name = "f1(average='weighted')"
    metric = _measure(name)
    cmp = C.compare(gold, preds, metrics=[name], test="bootstrap", n_resamples=N_RESAMPLES, seed=3)
    idx = np.random.default_rng(3).integers(0, gold.shape[0], size=(N_RESAMPLES, gold.shape[0]))
    for system, pred in preds.items():
        dist = [metric(gold[i], pred[i]) for i in idx]
        assert cmp.intervals[name][system] == pytest.approx(
            tuple(np.quantile(dist, [0.025, 0.975])), abs=1e-12
        )
        assert cmp.scores[name][system] == pytest.approx(metric(gold, pred), abs=1e-15)


@pytest.mark.parametrize("method", ["exact", "mid-p", "chi2"])
def test_accuracy_by_mcnemar(method: str) -> None:
    gold, preds = _data(11, n=150)
    cmp = C.compare(gold, preds, mcnemar=method, correction="bonferroni", n_resamples=N_RESAMPLES)
    assert cmp.test == f"mcnemar ({method})"
    correct = {s: (p == gold).astype(int) for s, p in preds.items()}
    raw = []
    for system in ("s1", "s2"):
        expected = S.mcnemar(correct["s0"], correct[system], method=method)
        pair = cmp.pair(system)
        assert pair.p_value == pytest.approx(expected.pvalue, rel=1e-12)
        assert (pair.losses, pair.wins) == (expected.details["b"], expected.details["c"])
        assert pair.wins + pair.ties + pair.losses == pair.n == 150
        assert pair.diff == pytest.approx(correct[system].mean() - correct["s0"].mean())
        assert pair.effect_size == pytest.approx(
            S.cohens_d_paired(correct[system], correct["s0"]), rel=1e-12
        )
        raw.append(expected.pvalue)
    assert [p.p_adjusted for p in cmp.pairs] == pytest.approx(
        S.correct(raw, correction="bonferroni").tolist()
    )
    q = S.cochran_q(np.vstack([correct[s] for s in preds]))
    assert cmp.omnibus["cochran_q"].statistic == q.statistic


def test_accuracy_randomization_is_the_swap_test() -> None:
    # accuracy's sign-flip test (paired_pvalues) is the approximate randomisation of swapping
    # the two systems' predictions: the slow loop gives the same p-value
    gold, preds = _data(5, n=90, systems=2)
    cmp = C.compare(gold, preds, test="randomization", n_resamples=N_RESAMPLES, seed=9)
    expected = _randomization_reference(
        _measure("accuracy"), gold, preds["s1"], preds["s0"], 9, N_RESAMPLES
    )
    assert cmp.pair("s1").p_value == pytest.approx(expected, abs=1e-12)
    assert "cochran_q" not in cmp.omnibus


@pytest.mark.parametrize("test", ["t", "wilcoxon", "sign", "bootstrap"])
def test_accuracy_per_item_tests(test: str) -> None:
    gold, preds = _data(2, systems=2)
    cmp = C.compare(gold, preds, test=test, n_resamples=N_RESAMPLES, seed=4)
    d = (preds["s1"] == gold).astype(float) - (preds["s0"] == gold).astype(float)
    expected = S.paired_pvalues(d[None, :], test=test, n_resamples=N_RESAMPLES, seed=4)[0]
    assert cmp.pair("s1").p_value == expected


def test_same_seed_same_numbers_and_the_baseline() -> None:
    gold, preds = _data(3)
    kwargs = dict(metrics=["accuracy", "mcc"], test="bootstrap", n_resamples=N_RESAMPLES)
    one = C.compare(gold, preds, baseline="s1", seed=8, **kwargs)
    two = C.compare(gold, preds, baseline="s1", seed=8, **kwargs)
    other = C.compare(gold, preds, baseline="s1", seed=9, **kwargs)
    assert one.records() == two.records()
    assert one.records() != other.records()
    assert one.baseline == "s1" and {p.system for p in one.pairs} == {"s0", "s2"}
    assert [p.metric for p in one.pairs] == ["accuracy", "accuracy", "mcc", "mcc"]


def test_sequences_are_named_and_labels_may_be_strings() -> None:
    gold = ["pos", "neg", "pos", "neg", "pos", "pos"]
    cmp = C.compare(
        gold,
        [["pos", "pos", "pos", "neg", "neg", "pos"], gold],
        metrics=["f1"],
        pos_label="pos",
        test="bootstrap",
        n_resamples=50,
    )
    assert cmp.systems == ("system1", "system2")
    assert cmp.scores["f1"]["system2"] == 1.0
    assert cmp.family == "classification" and cmp.unit == "items"


def test_lower_is_better_measures_keep_their_direction() -> None:
    gold, preds = _data(4, systems=2)
    cmp = C.compare(gold, preds, metrics=["fpr(average='macro')"], test="bootstrap", n_resamples=50)
    assert cmp.higher_is_better == {"fpr(average='macro')": False}
    assert cmp.pair("s1").higher_is_better is False


def test_bad_inputs() -> None:
    gold, preds = _data(1, systems=2)
    with pytest.raises(OptionError, match=r"randomization.*bootstrap"):
        C.compare(gold, preds, metrics=["f1(average='macro')"])
    with pytest.raises(OptionError, match="test"):
        C.compare(gold, preds, test="anova")
    with pytest.raises(OptionError, match="mcnemar"):
        C.compare(gold, preds, mcnemar="fisher")
    with pytest.raises(OptionError, match="scores"):
        C.compare(gold, preds, metrics=["roc_auc"], test="bootstrap")
    with pytest.raises(MetricError, match="one value per class"):
        C.compare(gold, preds, metrics=["f1(average=None)"], test="bootstrap")
    with pytest.raises(InputError, match="at least two systems"):
        C.compare(gold, {"only": preds["s0"]})
    with pytest.raises(InputError, match="baseline 'x'"):
        C.compare(gold, preds, baseline="x")
    with pytest.raises(InputError, match=r"system 's1'.*items"):
        C.compare(gold, {"s0": preds["s0"], "s1": preds["s1"][:-1]})
    with pytest.raises(InputError, match="at least 2 items"):
        C.compare([1], {"a": [1], "b": [0]})
    with pytest.raises(MetricError, match="pos_label"):
        C.compare(["x", "y"], {"a": ["x", "x"], "b": ["y", "y"]}, metrics=["f1"], test="bootstrap")
    with pytest.raises(InputError, match="mapping"):
        C.compare(gold, "abc")
    with pytest.raises(InputError, match=r"undefined \(NaN\) for 'a'"):
        C.compare(
            [0, 0, 1],
            {"a": [0, 0, 0], "b": [0, 0, 1]},
            metrics=["mcc(degenerate='nan')"],
            test="bootstrap",
        )


def test_renders_in_every_format() -> None:
    gold, preds = _data(6)
    cmp = C.compare(gold, preds, metrics=["accuracy", "mcc"], test="bootstrap", n_resamples=50)
    for fmt in ("table", "tsv", "csv", "json", "jsonl", "markdown", "latex"):
        text = cmp.report().render(fmt)
        assert "s2" in text and "mcc" in text, fmt
    assert "cochran_q" in cmp.report().render("table")


def test_string_labels_binary_and_selected_classes_match_the_slow_reference() -> None:
    rng = np.random.default_rng(21)
    gold = rng.choice(["cat", "dog", "eel"], size=70)
    preds = {
        name: np.where(rng.uniform(size=70) < skill, gold, rng.choice(["cat", "dog", "eel"], 70))
        for name, skill in (("a", 0.5), ("b", 0.8))
    }
    two = {k: np.where(v == "eel", "dog", v) for k, v in preds.items()}
    two_gold = np.where(gold == "eel", "dog", gold)
    cases = [
        ("f1", two_gold, two, {"pos_label": "cat"}),
        ("recall(average='macro', labels=['eel', 'cat', 'fox'])", gold, preds, {}),
    ]
    for name, y, systems, extra in cases:
        cmp = C.compare(
            y, systems, metrics=[name], test="bootstrap", n_resamples=N_RESAMPLES, seed=2, **extra
        )
        metric = _measure(name if not extra else "f1(pos_label='cat')")
        theta, p, low, high = _bootstrap_reference(
            metric, y, systems["b"], systems["a"], 2, N_RESAMPLES
        )
        pair = cmp.pair("b")
        assert (pair.diff, pair.p_value) == pytest.approx((theta, p), abs=1e-12), name
        assert (pair.ci_low, pair.ci_high) == pytest.approx((low, high), abs=1e-12), name
