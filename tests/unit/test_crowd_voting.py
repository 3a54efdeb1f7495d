"""The voting and Dawid–Skene kernels (assay.judgments._voting, ._dawid_skene): worked
examples by hand, tie rules, degenerate inputs and option errors. Agreement with crowd-kit
is in tests/peers/test_crowd_kit_voting_ds.py."""

from __future__ import annotations

import numpy as np
import pytest

from assay.errors import OptionError
from assay.judgments._dawid_skene import KERNELS, dawid_skene, one_coin_dawid_skene
from assay.judgments._fit import CrowdCodes, CrowdFit
from assay.judgments._voting import gold_accuracy, majority_vote, wawa, zbs


def codes_of(rows: list[tuple[int, int, int]], n_labels: int | None = None) -> CrowdCodes:
    task, worker, label = (np.array(col, dtype=np.int64) for col in zip(*rows, strict=True))
    k = int(label.max()) + 1 if n_labels is None else n_labels
    return CrowdCodes(task, worker, label, int(task.max()) + 1, int(worker.max()) + 1, k)


# Task 0: labels 1, 1, 0; task 1: 0, 2 (a tie); task 2: 2 alone.
ROWS = [(0, 0, 1), (0, 1, 1), (0, 2, 0), (1, 0, 2), (1, 1, 0), (2, 2, 2)]


def _sane(fit: CrowdFit, codes: CrowdCodes) -> None:
    assert fit.posterior.shape == (codes.n_tasks, codes.n_labels)
    assert np.isfinite(fit.posterior).all()
    np.testing.assert_allclose(fit.posterior.sum(axis=1), 1.0, rtol=1e-12)
    assert fit.labels.dtype == np.int64 and fit.labels.shape == (codes.n_tasks,)
    assert (fit.posterior[np.arange(codes.n_tasks), fit.labels] >= fit.posterior.max(axis=1)).all()
    assert fit.worker_skill.shape == (codes.n_workers,)
    skill = fit.worker_skill[~np.isnan(fit.worker_skill)]
    assert ((skill >= 0) & (skill <= 1)).all()


def test_majority_vote_by_hand() -> None:
    codes = codes_of(ROWS)
    fit = majority_vote(codes)
    np.testing.assert_allclose(fit.posterior, [[1 / 3, 2 / 3, 0], [0.5, 0, 0.5], [0, 0, 1]])
    # Task 1 ties 0 and 2; label 1 is seen first in the rows, then 0 (row 2), then 2.
    assert fit.labels.tolist() == [1, 0, 2]
    assert majority_vote(codes, ties="lowest").labels.tolist() == [1, 0, 2]
    # Workers' accuracy against the majority labels: w0 1/2, w1 2/2, w2 1/2.
    np.testing.assert_allclose(fit.worker_skill, [0.5, 1.0, 0.5])


def test_first_seen_and_lowest_differ_when_the_rows_say_so() -> None:
    rows = [(0, 0, 2), (0, 1, 0)]  # label 2 is seen first
    assert majority_vote(codes_of(rows)).labels.tolist() == [2]
    assert majority_vote(codes_of(rows), ties="lowest").labels.tolist() == [0]


def test_random_ties_are_seeded_and_uniform() -> None:
    rows = [(t, w, w) for t in range(2000) for w in range(2)]  # every task ties 0 and 1
    codes = codes_of(rows)
    a = majority_vote(codes, ties="random", seed=3).labels
    b = majority_vote(codes, ties="random", seed=3).labels
    assert np.array_equal(a, b)
    assert 900 < int(a.sum()) < 1100
    assert not np.array_equal(a, majority_vote(codes, ties="random", seed=4).labels)


def test_wawa_weights_votes_by_agreement_with_the_majority() -> None:
    # w0 and w1 agree with the majority on tasks 0-2; w2 never does. On task 3, w2's
    # label against w0's: a plain vote ties, Wawa follows w0.
    rows = [(0, 0, 0), (0, 1, 0), (0, 2, 1), (1, 0, 1), (1, 1, 1), (1, 2, 0)]
    rows += [(2, 0, 0), (2, 1, 0), (2, 2, 1), (3, 0, 0), (3, 2, 1)]
    fit = wawa(codes_of(rows))
    np.testing.assert_allclose(fit.worker_skill, [1.0, 1.0, 0.0])
    assert fit.labels.tolist() == [0, 1, 0, 0]
    np.testing.assert_allclose(fit.posterior[3], [1.0, 0.0])


def test_zbs_reports_its_rounds() -> None:
    codes = codes_of(ROWS)
    fit = zbs(codes)
    assert fit.iterations == 100 and fit.converged
    early = zbs(codes, tolerance=1e-3)
    assert early.iterations < 100 and early.converged and early.change < 1e-3
    assert zbs(codes, max_iter=0).iterations == 0


def test_gold_accuracy_counts_distinct_answers_on_gold_tasks() -> None:
    # w0 answers gold task 0 twice with the same label (counted once) and task 1 wrongly.
    rows = [(0, 0, 1), (0, 0, 1), (1, 0, 0), (1, 1, 1), (2, 2, 0)]
    acc = gold_accuracy(codes_of(rows), np.array([1, 1, -1]))
    np.testing.assert_allclose(acc, [0.5, 1.0, np.nan])
    with pytest.raises(OptionError, match="gold"):
        gold_accuracy(codes_of(rows), np.array([1, 5, -1]))
    with pytest.raises(OptionError, match="one label code per task"):
        gold_accuracy(codes_of(rows), np.array([1, 1]))


def test_dawid_skene_on_a_clear_case() -> None:
    # Three reliable workers and one who always says 1: DS learns that worker's confusion.
    truth = np.array([0, 1, 0, 1, 1, 0, 0, 1, 0, 0])
    rows = [(t, w, int(truth[t])) for t in range(10) for w in range(3)]
    rows += [(t, 3, 1) for t in range(10)]
    codes = codes_of(rows)
    fit = dawid_skene(codes)
    assert fit.labels.tolist() == truth.tolist()
    assert fit.confusion is not None and fit.prior is not None
    np.testing.assert_allclose(fit.confusion.sum(axis=2), 1.0)
    np.testing.assert_allclose(fit.confusion[3, :, 1], 1.0, atol=1e-9)
    np.testing.assert_allclose(fit.prior, [0.6, 0.4], atol=1e-9)
    np.testing.assert_allclose(fit.worker_skill, [1.0, 1.0, 1.0, 0.4], atol=1e-9)
    assert fit.log_likelihood is not None and fit.log_likelihood < 0
    _sane(fit, codes)


@pytest.mark.parametrize("name", sorted(KERNELS))
def test_degenerate_inputs(name: str) -> None:
    kernel = KERNELS[name]
    cases = {
        "one worker": [(0, 0, 0), (1, 0, 1), (2, 0, 1)],
        "one class": [(0, 0, 0), (0, 1, 0), (1, 1, 0)],
        "one label row per task": [(0, 0, 0), (1, 1, 1), (2, 2, 0)],
        "a worker with one answer": [(0, 0, 0), (0, 1, 0), (1, 0, 1), (1, 1, 1), (1, 2, 0)],
        "one row": [(0, 0, 0)],
    }
    for rows in cases.values():
        codes = codes_of(rows)
        _sane(kernel(codes), codes)


@pytest.mark.parametrize("name", sorted(KERNELS))
def test_labels_and_workers_nobody_used(name: str) -> None:
    # Label code 2 is declared but never given; worker 2 gave no label.
    codes = CrowdCodes(np.array([0, 0, 1]), np.array([0, 1, 0]), np.array([0, 1, 1]), 2, 3, 3)
    fit = KERNELS[name](codes)
    _sane(fit, codes)
    assert (fit.posterior[:, 2] == 0).all()
    assert np.isnan(fit.worker_skill[2])
    if fit.prior is not None:
        assert fit.prior[2] == 0
    if fit.confusion is not None:
        assert np.isfinite(fit.confusion).all()
        np.testing.assert_allclose(fit.confusion.sum(axis=2), 1.0)


def test_dawid_skene_with_gold_fixes_known_tasks() -> None:
    codes = codes_of(ROWS)
    fit = dawid_skene(codes, gold=np.array([-1, 2, -1]))
    assert fit.labels[1] == 2
    np.testing.assert_allclose(fit.posterior[1], [0, 0, 1])
    with pytest.raises(OptionError, match="gold"):
        dawid_skene(codes, gold=np.array([0, 0]))


def test_one_coin_skill_is_the_expected_accuracy() -> None:
    # The last M-step ran on the posterior reported: s_w = mean over w's rows of
    # P(true label = the label w gave).
    codes = codes_of([*ROWS, (2, 0, 2), (1, 2, 1)])
    fit = one_coin_dawid_skene(codes)
    assert fit.iterations >= 1
    given = fit.posterior[codes.task, codes.label]
    expected = np.bincount(codes.worker, weights=given) / np.bincount(codes.worker)
    np.testing.assert_allclose(fit.worker_skill, expected, rtol=1e-12)
    assert fit.confusion is not None
    np.testing.assert_allclose(np.diagonal(fit.confusion, axis1=1, axis2=2)[:, 0], expected)
    _sane(fit, codes)


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"ties": "middle"}, "ties"),
        ({"max_iter": -1}, "max_iter"),
        ({"tolerance": float("nan")}, "tolerance"),
        ({"init": "random"}, "init"),
        ({"ties": "random", "seed": -2}, "seed"),
    ],
)
def test_bad_options(kwargs: dict[str, object], match: str) -> None:
    with pytest.raises(OptionError, match=match):
        dawid_skene(codes_of(ROWS), **kwargs)  # type: ignore[arg-type]


def test_a_million_labels_need_no_rows_by_classes_squared_memory() -> None:
    # Not a timing test: a moderately large input runs and stays consistent.
    rng = np.random.default_rng(0)
    n, tasks, workers, k = 200_000, 20_000, 300, 5
    truth = rng.integers(0, k, tasks)
    task = rng.integers(0, tasks, n)
    worker = rng.integers(0, workers, n)
    right = rng.random(n) < 0.7
    label = np.where(right, truth[task], rng.integers(0, k, n))
    present = np.bincount(task, minlength=tasks) > 0
    keep = present[task]
    remap = np.cumsum(present) - 1
    codes = CrowdCodes(remap[task[keep]], worker[keep], label[keep], int(present.sum()), workers, k)
    fit = dawid_skene(codes, max_iter=20)
    _sane(fit, codes)
    assert (fit.labels == truth[present]).mean() > 0.95
