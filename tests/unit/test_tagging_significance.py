"""compare_taggers: paired tests on corpus-level span F1 that resample sentences, through
assay.stats, seeded; intervals; Holm across taggers."""

from __future__ import annotations

import numpy as np
import pytest

from assay import stats as S
from assay import tagging as T
from assay.errors import InputError
from assay.tagging import micro_f1


def _corpus(seed: int, n: int = 60) -> tuple[list[list[str]], dict[str, list[list[str]]]]:
    rng = np.random.default_rng(seed)
    gold = [
        ["B-X", "I-X", "O", "B-Y"] if rng.random() < 0.5 else ["O", "B-Y", "I-Y"] for _ in range(n)
    ]

    def noisy(rate: float) -> list[list[str]]:
        return [[t if rng.random() > rate else "O" for t in s] for s in gold]

    good = noisy(0.05)
    return gold, {"good": good, "bad": noisy(0.4), "same": [list(s) for s in good]}


def test_tests_are_the_stats_functions_on_sentence_counts() -> None:
    gold, preds = _corpus(0)
    for test, func in (
        ("bootstrap", S.paired_bootstrap_test),
        ("randomization", S.stratified_shuffling_test),
    ):
        cmp = T.compare_taggers(gold, preds, test=test, n_resamples=500, seed=7)
        base = cmp.reports["good"].sentence_counts.astype(float)
        for name in ("bad", "same"):
            other = cmp.reports[name].sentence_counts.astype(float)
            expected = func(other, base, micro_f1, n_resamples=500, seed=7)
            assert cmp.pair(name).p_value == expected.pvalue
            assert cmp.pair(name).diff == pytest.approx(
                cmp.reports[name].f1() - cmp.reports["good"].f1()
            )
        adjusted = S.correct([cmp.pair("bad").p_value, cmp.pair("same").p_value], correction="holm")
        assert [cmp.pair("bad").p_adjusted, cmp.pair("same").p_adjusted] == adjusted.tolist()
        assert cmp.pair("bad").significant and cmp.pair("bad").direction == -1
        assert cmp.pair("same").p_value == 1.0 and not cmp.pair("same").significant


def test_sentence_counts_sum_to_the_corpus_counts() -> None:
    gold, preds = _corpus(1)
    rep = T.tagging_report(gold, preds["bad"])
    tp, pred, gold_n = rep.sentence_counts.sum(axis=0)
    assert (tp, pred, gold_n) == (rep.counts.tp.sum(), rep.counts.pred.sum(), rep.counts.gold.sum())
    assert float(micro_f1(rep.sentence_counts.astype(float))) == pytest.approx(rep.f1())


def test_intervals_and_seeds() -> None:
    gold, preds = _corpus(2)
    a = T.compare_taggers(gold, preds, n_resamples=300, seed=3, baseline="bad")
    b = T.compare_taggers(gold, preds, n_resamples=300, seed=3, baseline="bad")
    assert a.records() == b.records()
    for name in a.names:
        low, high = a.intervals[name]
        assert low <= a.reports[name].f1() <= high
    pair = a.pair("good")
    assert pair.ci_low <= pair.diff <= pair.ci_high and pair.direction == 1
    assert a.provenance["seed"] == 3 and a.provenance["test"] == "bootstrap"
    c = T.compare_taggers(gold, preds, n_resamples=300, seed=4, baseline="bad")
    assert c.pair("good").ci_low != pair.ci_low


def test_comparison_inputs() -> None:
    gold, preds = _corpus(3)
    with pytest.raises(InputError, match="baseline 'x'"):
        T.compare_taggers(gold, preds, baseline="x", n_resamples=10)
    with pytest.raises(InputError, match="at least 2 sentences"):
        T.compare_taggers(gold[:1], [p[:1] for p in preds.values()], n_resamples=10)
    with pytest.raises(InputError, match=r"tagger2\[0\] has"):
        T.compare_taggers(gold, [preds["good"], [s[:-1] for s in preds["bad"]]], n_resamples=10)
    single = T.compare_taggers(gold, [preds["good"]], n_resamples=10)
    assert single.pairs == () and single.names == ("tagger1",)
