"""GLAD and MACE kernels on coded crowd labels: the model's own properties (gradient, EM
ascent, recovery of a known truth), degenerate inputs, seeds and options. The comparison with
crowd-kit is in tests/peers/test_crowd_kit_glad_mace.py."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from scipy.special import expit, logsumexp

from assay.errors import OptionError
from assay.judgments._fit import CrowdCodes, CrowdFit
from assay.judgments._glad import KERNELS as GLAD_KERNELS
from assay.judgments._glad import glad
from assay.judgments._mace import KERNELS, mace
from assay.judgments._synthetic import synthetic_crowd, synthetic_truth


def codes(task: list[int], worker: list[int], label: list[int], n_labels: int) -> CrowdCodes:
    t, w, lab = (np.asarray(x, dtype=np.int64) for x in (task, worker, label))
    return CrowdCodes(t, w, lab, int(t.max()) + 1, int(w.max()) + 1, n_labels)


def well_formed(fit: CrowdFit, data: CrowdCodes) -> None:
    assert fit.posterior.shape == (data.n_tasks, data.n_labels)
    assert np.all(np.isfinite(fit.posterior))
    assert np.allclose(fit.posterior.sum(axis=1), 1.0)
    assert np.array_equal(fit.labels, np.argmax(fit.posterior, axis=1))
    assert fit.worker_skill.shape == (data.n_workers,)
    assert np.all((fit.worker_skill >= 0) & (fit.worker_skill <= 1))
    assert fit.log_likelihood is not None and math.isfinite(fit.log_likelihood)
    for value in fit.extra.values():
        assert np.all(np.isfinite(value))


def test_kernels_by_name() -> None:
    assert {"glad": glad, "mace": mace} == KERNELS
    assert {"glad": glad} == GLAD_KERNELS


# ------------------------------------------------------------------------------------ GLAD


def glad_q(
    data: CrowdCodes, posterior: np.ndarray, alpha: np.ndarray, log_beta: np.ndarray
) -> float:
    """GLAD's M-step objective written out over a rows x classes table, as the paper has it."""
    k = data.n_labels
    x = alpha[data.worker] * np.exp(log_beta[data.task])
    right, wrong = np.log(expit(x)), np.log(1 - expit(x)) - math.log(k - 1)
    delta = data.label[:, None] == np.arange(k)[None, :]
    q = float((posterior[data.task] * np.where(delta, right[:, None], wrong[:, None])).sum())
    prior = -0.5 * ((alpha - 1) ** 2).sum() - 0.5 * ((log_beta - 1) ** 2).sum()
    return q + prior - 0.5 * math.log(2 * math.pi) * (alpha.size + log_beta.size)


def test_glad_recovers_the_truth_and_orders_workers() -> None:
    data = synthetic_crowd(400, 30, 4, 7, seed=3)
    fit = glad(data)
    well_formed(fit, data)
    assert np.mean(fit.labels == synthetic_truth(400, 4, seed=3)) > 0.95
    # A worker's fitted skill follows its agreement with the truth.
    truth = synthetic_truth(400, 4, seed=3)
    right = np.bincount(data.worker, data.label == truth[data.task], minlength=30)
    accuracy = right / np.bincount(data.worker, minlength=30)
    assert np.corrcoef(accuracy, fit.worker_skill)[0, 1] > 0.9
    assert fit.difficulty is not None and np.all(fit.difficulty > 0)
    assert np.allclose(fit.difficulty, np.exp(fit.extra["log_beta"]))
    beta_mean = fit.difficulty.mean()
    assert np.allclose(fit.worker_skill, expit(fit.extra["alpha"] * beta_mean))


def test_glad_objective_is_the_papers_expected_log_likelihood() -> None:
    """log_likelihood is Q at the final parameters with the last E-step's posteriors."""
    data = synthetic_crowd(60, 9, 3, 4, seed=5)
    fit = glad(data, max_iter=3)
    # The posteriors are the last E-step's: the E-step from the parameters before the last
    # M-step; Q is evaluated with them at the final parameters.
    q = glad_q(data, fit.posterior, fit.extra["alpha"], fit.extra["log_beta"])
    assert fit.log_likelihood == pytest.approx(q, rel=1e-10)


def test_glad_e_step_from_the_start() -> None:
    """With no M-step taken (max_iter=1 stops after one), check the first E-step by hand: at
    alpha = 1 and beta = e every answer is right with probability sigmoid(e)."""
    data = codes([0, 0, 0, 1], [0, 1, 2, 0], [0, 0, 1, 1], n_labels=2)
    a = expit(math.e)
    # Task 0: two votes for class 0, one for class 1.
    want0 = np.array([a * a * (1 - a), (1 - a) * (1 - a) * a])
    want0 /= want0.sum()
    # The posterior reported is the E-step's at the start (max_iter=1: one E-step, one M-step).
    fit = glad(data, max_iter=1)
    assert np.allclose(fit.posterior[0], want0, atol=1e-12)
    assert fit.iterations == 1 and not fit.converged


def glad_map(data: CrowdCodes, alpha: np.ndarray, log_beta: np.ndarray) -> float:
    """GLAD's log posterior density: the labels' marginal log-likelihood plus the log priors."""
    k = data.n_labels
    x = alpha[data.worker] * np.exp(log_beta[data.task])
    scores = np.full((data.n_tasks, k), -math.log(k))
    for row in range(data.task.size):
        for c in range(k):
            right = data.label[row] == c
            scores[data.task[row], c] += (
                np.log(expit(x[row])) if right else np.log(1 - expit(x[row])) - math.log(k - 1)
            )
    prior = -0.5 * ((alpha - 1) ** 2).sum() - 0.5 * ((log_beta - 1) ** 2).sum()
    return float(logsumexp(scores, axis=1).sum()) + prior


def test_glad_em_does_not_lower_the_posterior_density() -> None:
    """Generalised EM: each E-step plus a conjugate-gradient M-step that raises Q cannot
    lower the log posterior density of the parameters."""
    data = synthetic_crowd(120, 12, 3, 5, seed=8)
    values = []
    for i in range(1, 7):
        fit = glad(data, max_iter=i, tolerance=0.0)
        values.append(glad_map(data, fit.extra["alpha"], fit.extra["log_beta"]))
    assert values[-1] > values[0]
    assert all(b >= a - 1e-9 for a, b in itertools.pairwise(values))


def test_glad_label_prior_shifts_posteriors() -> None:
    data = codes([0, 0], [0, 1], [0, 1], n_labels=2)  # a tie
    flat = glad(data)
    leaning = glad(data, label_prior=[0.2, 0.8])
    assert flat.posterior[0, 1] == pytest.approx(0.5, abs=0.05)
    assert leaning.posterior[0, 1] > 0.7
    # The prior's scale does not matter.
    assert np.allclose(glad(data, label_prior=[2.0, 8.0]).posterior, leaning.posterior)


@pytest.mark.parametrize(
    ("task", "worker", "label", "k"),
    [
        ([0, 1, 2], [0, 0, 0], [0, 1, 1], 2),  # one worker
        ([0, 0, 1, 1], [0, 1, 0, 1], [0, 0, 0, 0], 1),  # one class
        ([0, 1, 2, 3], [0, 1, 2, 3], [1, 0, 2, 1], 3),  # one label per task and per worker
        ([0, 0, 1, 1, 2], [0, 1, 0, 1, 2], [0, 1, 0, 1, 0], 4),  # classes never given
        ([0], [0], [0], 2),  # a single label
    ],
)
def test_degenerate_inputs_are_finite(
    task: list[int], worker: list[int], label: list[int], k: int
) -> None:
    data = codes(task, worker, label, k)
    for fit in (glad(data), mace(data), mace(data, method="em")):
        well_formed(fit, data)
    if k == 1:
        assert np.all(glad(data).posterior == 1.0)


def test_workers_without_labels_keep_their_priors() -> None:
    data = CrowdCodes(
        *codes([0, 0, 1], [0, 1, 0], [1, 1, 0], 2)[:3], n_tasks=2, n_workers=4, n_labels=2
    )
    fit = glad(data)
    well_formed(fit, data)
    assert np.allclose(fit.extra["alpha"][2:], 1.0)  # only the prior pulls on them
    well_formed(mace(data), data)


# ------------------------------------------------------------------------------------ MACE


def test_mace_recovers_the_truth_and_finds_spammers() -> None:
    data = synthetic_crowd(500, 25, 4, 7, seed=11)
    truth = synthetic_truth(500, 4, seed=11)
    for method in ("vb", "em"):
        fit = mace(data, method=method)  # type: ignore[arg-type]
        well_formed(fit, data)
        assert np.mean(fit.labels == truth) > 0.95
        right = np.bincount(data.worker, data.label == truth[data.task], minlength=25)
        accuracy = right / np.bincount(data.worker, minlength=25)
        assert np.corrcoef(accuracy, fit.worker_skill)[0, 1] > 0.9
        assert np.allclose(fit.extra["spamming"], 1 - fit.worker_skill)
        assert fit.extra["strategy"].shape == (25, 4)
        assert np.allclose(fit.extra["strategy"].sum(axis=1), 1.0) == (method == "em")


def test_mace_posterior_by_hand() -> None:
    """The E-step: P(class c) is proportional to the product over the task's rows of
    (1 - theta) xi[label] + theta [label = c]; checked on the fitted parameters."""
    data = synthetic_crowd(30, 6, 3, 4, seed=2)
    fit = mace(data, n_restarts=2, n_iter=4)
    spam, xi = fit.extra["spamming_weights"], fit.extra["strategy"]
    for t in range(data.n_tasks):
        rows = data.task == t
        w, lab = data.worker[rows], data.label[rows]
        like = np.array(
            [np.prod(spam[w, 0] * xi[w, lab] + spam[w, 1] * (lab == c)) for c in range(3)]
        )
        assert np.allclose(fit.posterior[t], like / like.sum(), atol=1e-12)


def test_mace_restarts_never_lower_the_likelihood() -> None:
    data = synthetic_crowd(80, 10, 3, 3, seed=4)
    one = mace(data, n_restarts=1)
    ten = mace(data, n_restarts=10)
    assert ten.log_likelihood is not None and one.log_likelihood is not None
    assert ten.log_likelihood >= one.log_likelihood


def test_mace_is_reproducible_and_seeded() -> None:
    data = synthetic_crowd(80, 10, 3, 3, seed=4)
    a, b = mace(data, n_restarts=3, seed=7), mace(data, n_restarts=3, seed=7)
    assert np.array_equal(a.posterior, b.posterior)
    assert np.array_equal(a.extra["spamming_weights"], b.extra["spamming_weights"])
    c = mace(data, n_restarts=1, n_iter=1, seed=8)
    d = mace(data, n_restarts=1, n_iter=1, seed=7)
    assert not np.array_equal(c.extra["strategy"], d.extra["strategy"])


def test_mace_many_labels_per_task_do_not_underflow() -> None:
    """2,000 labels on one task: a product of probabilities underflows; sums of logs do not."""
    rng = np.random.default_rng(0)
    n = 2000
    task = np.zeros(n, dtype=np.int64)
    worker = np.arange(n, dtype=np.int64) % 40
    label = np.where(rng.random(n) < 0.7, 1, rng.integers(0, 3, n))
    data = CrowdCodes(task, worker, label, 1, 40, 3)
    for fit in (mace(data, n_restarts=2), glad(data)):
        well_formed(fit, data)
        assert fit.labels[0] == 1


@pytest.mark.parametrize(
    ("kernel", "options"),
    [
        (glad, {"max_iter": 0}),
        (glad, {"tolerance": float("nan")}),
        (glad, {"m_step_tolerance": 0.0}),
        (glad, {"label_prior": [0.5, 0.5, 0.0]}),
        (glad, {"label_prior": [-1.0, 2.0]}),
        (glad, {"alpha_prior_mean": [1.0]}),
        (glad, {"log_beta_prior_mean": "x"}),
        (mace, {"method": "gibbs"}),
        (mace, {"n_restarts": 0}),
        (mace, {"n_iter": 1.5}),
        (mace, {"smoothing": 0.0}),
        (mace, {"strategy_prior": -1.0}),
        (mace, {"seed": -1}),
        (mace, {"seed": 2**32}),
    ],
)
def test_bad_options(kernel: object, options: dict[str, object]) -> None:
    data = codes([0, 0, 1], [0, 1, 0], [0, 1, 1], 2)
    with pytest.raises(OptionError):
        kernel(data, **options)  # type: ignore[operator]


def test_synthetic_crowd_shape_and_reproducibility() -> None:
    a = synthetic_crowd(50, 20, 5, 6, seed=1)
    b = synthetic_crowd(50, 20, 5, 6, seed=1)
    assert all(np.array_equal(x, y) for x, y in zip(a[:3], b[:3], strict=True))
    assert a.task.size == 300 and a.n_tasks == 50 and a.n_workers == 20 and a.n_labels == 5
    # Each task's workers are distinct.
    pairs = a.task * 20 + a.worker
    assert np.unique(pairs).size == pairs.size
    assert a.label.min() >= 0 and a.label.max() < 5
    with pytest.raises(OptionError):
        synthetic_crowd(5, 3, 2, 4, seed=0)
