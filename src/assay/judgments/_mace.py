"""MACE (Hovy et al. 2013): multi-annotator competence estimation, on coded crowd labels.

The model: task ``t``'s true label is uniform over the ``K`` classes; on each task worker
``w`` either knows (probability ``theta_w``) and gives the true label, or spams and gives
label ``k`` with probability ``xi_w[k]`` (the worker's strategy). Fitted as crowd-kit 1.4.2
fits it (the reference this kernel is tested against): ``n_restarts`` runs of ``n_iter``
iterations each (no convergence test), every run started from random ``theta`` and ``xi``
and scored by its log marginal likelihood, the best run kept; the M-step is variational
Bayes (``"vb"``: Beta(0.5, 0.5) prior on ``theta``, symmetric Dirichlet(10) prior on ``xi``,
``exp(digamma)`` normalisation) or EM (``"em"``: fractional counts plus a smoothing constant).

Every step is a pass over the label rows with :func:`numpy.bincount`, in log space: a task's
likelihood of class ``c`` is a product over its rows of ``(1 - theta) xi[label] +
theta [label = c]``, which crowd-kit multiplies out (and loses to underflow on tasks with
many labels) and this kernel sums as logarithms.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
from scipy.special import digamma, logsumexp

from .. import _options
from ._fit import CrowdCodes, CrowdFit, FloatArray, IntArray
from ._glad import KERNELS as GLAD_KERNELS
from .options import MaceMethod

__all__ = ["KERNELS", "mace"]

# The largest seed numpy's legacy RandomState (crowd-kit's first draw) accepts.
_MAX_SEED = 2**32 - 1
_TINY = np.finfo(np.float64).tiny


def mace(
    codes: CrowdCodes,
    *,
    n_restarts: int = 10,
    n_iter: int = 50,
    method: MaceMethod = "vb",
    smoothing: float | None = None,
    default_noise: float = 0.5,
    spamming_prior: float = 0.5,
    competence_prior: float = 0.5,
    strategy_prior: float = 10.0,
    seed: int = 0,
) -> CrowdFit:
    """MACE fitted to ``codes`` (crowd-kit 1.4.2's algorithm and defaults).

    Each run starts from ``theta`` and ``xi`` drawn uniform on ``[1, 2 + default_noise)``
    and normalised per worker, then alternates ``n_iter`` times an M-step (``method``) and
    an E-step; the run with the largest log marginal likelihood is kept (the first on a
    tie) and a last E-step gives the posteriors. ``method="vb"``: the spamming/knowing
    counts get a Beta(``spamming_prior``, ``competence_prior``) prior and the strategy
    counts a symmetric Dirichlet(``strategy_prior``) prior (crowd-kit's ``alpha``, ``beta``
    and its fixed 10); ``method="em"``: counts plus ``smoothing`` (default ``0.01 / K``,
    the value crowd-kit uses whatever its ``smoothing`` says), normalised.

    Deliberate differences from crowd-kit. Its random draws: run 0 draws exactly as
    crowd-kit does (``numpy.random.RandomState(seed)``, once for ``theta`` and again, from
    the same seed, for ``xi``), so with ``n_restarts=1`` the fit is crowd-kit's; crowd-kit
    reseeds every restart with the same seed, so all its restarts are that one run, while
    runs 1, 2, ... here draw afresh from ``numpy.random.default_rng(seed)`` (the best of
    ``n_restarts`` distinct starts, never worse than crowd-kit's). Runs are compared by
    the exact log marginal likelihood (crowd-kit adds 1e-8 to each task's likelihood).
    Likelihoods are summed as logarithms (crowd-kit's products underflow to NaN on tasks
    with many labels). ``K`` is ``codes.n_labels`` (crowd-kit counts the labels that
    occur), and codes are kept apart consistently (crowd-kit's M-step reads its strategy
    counts in sorted worker and label order but its E-step in order of first appearance,
    so it mixes workers and labels up unless the two orders agree).

    Parameters
    ----------
    codes
        The crowd labels as codes.
    n_restarts, n_iter
        The number of runs and of iterations per run.
    method
        ``"vb"`` (variational Bayes) or ``"em"``.
    smoothing
        Added to the counts by the ``"em"`` M-step; None: ``0.01 / K``.
    default_noise
        The random starts' spread.
    spamming_prior, competence_prior, strategy_prior
        The ``"vb"`` priors (crowd-kit's ``alpha``, ``beta`` and its fixed 10).
    seed
        The random starts' seed (0 to 2**32 - 1, numpy's legacy generator's range).

    Returns
    -------
    CrowdFit
        ``posterior``, ``labels`` (lowest code on a tie), ``worker_skill`` = the worker's
        competence ``theta`` (``knowing / (spamming + knowing)`` of the fitted weights:
        under ``"vb"`` they are ``exp(E[log])`` values that do not sum to 1),
        ``extra["spamming"]`` = ``1 - worker_skill``, ``extra["spamming_weights"]``
        (workers x 2: crowd-kit's ``spamming_``, spamming then knowing),
        ``extra["strategy"]`` (workers x K: crowd-kit's ``thetas_``, ``xi``),
        ``log_likelihood`` (log marginal likelihood of the kept run), ``iterations`` =
        ``n_iter``, ``converged`` = True (the method's stopping rule is the iteration count)
        and ``change`` (the log marginal likelihood's change over the kept run's last
        iteration, to judge whether ``n_iter`` was enough).

    Examples
    --------
    >>> import numpy as np
    >>> from assay.judgments._fit import CrowdCodes
    >>> codes = CrowdCodes(np.array([0, 0, 0, 1, 1]), np.array([0, 1, 2, 0, 2]),
    ...                    np.array([1, 1, 0, 0, 0]), n_tasks=2, n_workers=3, n_labels=2)
    >>> mace(codes).labels.tolist()
    [1, 0]
    """
    n_restarts = _options.integer(n_restarts, "n_restarts", minimum=1)
    n_iter = _options.integer(n_iter, "n_iter", minimum=1)
    method = _options.choice(method, MaceMethod, "method")
    n_labels = codes.n_labels
    smoothing = (
        0.01 / n_labels
        if smoothing is None
        else _options.number(smoothing, "smoothing", low=0.0, low_open=True)
    )
    default_noise = _options.number(default_noise, "default_noise", low=-1.0, low_open=True)
    beta_prior = np.array(
        [
            _options.number(spamming_prior, "spamming_prior", low=0.0, low_open=True),
            _options.number(competence_prior, "competence_prior", low=0.0, low_open=True),
        ]
    )
    strategy_prior = _options.number(strategy_prior, "strategy_prior", low=0.0, low_open=True)
    seed = _options.integer(seed, "seed", minimum=0, maximum=_MAX_SEED)
    rows = _Rows(codes)
    n_workers = codes.n_workers

    def m_step(counts: FloatArray, prior: float | FloatArray) -> FloatArray:
        return _normalise_em(counts, smoothing) if method == "em" else _normalise_vb(counts, prior)

    rng = np.random.default_rng(seed)
    best: tuple[float, float, FloatArray, FloatArray] | None = None
    for run in range(n_restarts):
        spam, strategy = _start(run, seed, rng, n_workers, n_labels, default_noise)
        ll, _, strategy_counts, know_counts = rows.e_step(spam, strategy)
        previous = ll
        for _ in range(n_iter):
            spam, strategy = (
                m_step(know_counts, beta_prior),
                m_step(strategy_counts, strategy_prior),
            )
            previous = ll
            ll, _, strategy_counts, know_counts = rows.e_step(spam, strategy)
        if best is None or ll > best[0]:
            best = (ll, ll - previous, spam, strategy)
    assert best is not None  # n_restarts >= 1
    ll, change, spam, strategy = best
    _, posterior, _, _ = rows.e_step(spam, strategy)
    total = spam.sum(axis=1)
    skill = np.divide(spam[:, 1], total, out=np.full(n_workers, 0.5), where=total > 0)
    return CrowdFit(
        posterior=posterior,
        labels=np.argmax(posterior, axis=1).astype(np.int64),
        worker_skill=skill,
        iterations=n_iter,
        converged=True,
        change=float(change),
        log_likelihood=float(ll),
        extra={"spamming": 1.0 - skill, "spamming_weights": spam, "strategy": strategy},
    )


class _Rows:
    """The label rows as the E-step reads them."""

    def __init__(self, codes: CrowdCodes) -> None:
        self.task: IntArray = np.asarray(codes.task, dtype=np.int64)
        self.worker: IntArray = np.asarray(codes.worker, dtype=np.int64)
        self.label: IntArray = np.asarray(codes.label, dtype=np.int64)
        self.n_tasks, self.n_workers, self.n_labels = codes.n_tasks, codes.n_workers, codes.n_labels
        self.task_cell = self.task * self.n_labels + self.label
        self.worker_cell = self.worker * self.n_labels + self.label

    def e_step(
        self, spam: FloatArray, strategy: FloatArray
    ) -> tuple[float, FloatArray, FloatArray, FloatArray]:
        """Log marginal likelihood, posteriors, strategy counts (workers x K) and
        spamming/knowing counts (workers x 2)."""
        t, k, w = self.n_tasks, self.n_labels, self.n_workers
        # The priors keep every weight positive; a floor keeps the logarithm finite when a
        # tiny prior's exp(digamma) underflows all the same.
        other = np.maximum(spam[self.worker, 0] * strategy[self.worker, self.label], _TINY)
        same = other + spam[self.worker, 1]  # class == label
        log_other = np.log(other)
        scores = np.zeros((t, k))
        scores += np.bincount(self.task, weights=log_other, minlength=t)[:, None]
        scores += np.bincount(
            self.task_cell, weights=np.log(same) - log_other, minlength=t * k
        ).reshape(t, k)
        scores -= math.log(k)
        log_instance = logsumexp(scores, axis=1)
        posterior: FloatArray = np.exp(scores - log_instance[:, None])
        p = posterior[self.task, self.label]
        spammed = (1.0 - p) + p * other / same
        knew = p * spam[self.worker, 1] / same
        strategy_counts: FloatArray = np.bincount(
            self.worker_cell, weights=spammed, minlength=w * k
        ).astype(np.float64)
        know_counts: FloatArray = np.column_stack(
            [
                np.bincount(self.worker, weights=spammed, minlength=w),
                np.bincount(self.worker, weights=knew, minlength=w),
            ]
        )
        return float(log_instance.sum()), posterior, strategy_counts.reshape(w, k), know_counts


#: GLAD and MACE by name, as the family's front end looks kernels up.
KERNELS: dict[str, Callable[..., CrowdFit]] = {**GLAD_KERNELS, "mace": mace}


def _normalise_em(counts: FloatArray, smoothing: float) -> FloatArray:
    """Rows of ``counts + smoothing`` divided by their sums (zero where a sum is ~0)."""
    x = counts + smoothing
    total = x.sum(axis=1, keepdims=True)
    out: FloatArray = np.divide(x, total, out=np.zeros_like(x), where=~np.isclose(total, 0.0))
    return out


def _normalise_vb(counts: FloatArray, prior: float | FloatArray) -> FloatArray:
    """The variational update ``exp(digamma(counts + prior)) / exp(digamma(row sum))``
    (zero where the denominator is ~0)."""
    x = counts + prior
    total = np.exp(digamma(x.sum(axis=1, keepdims=True)))
    out: FloatArray = np.divide(
        np.exp(digamma(x)), total, out=np.zeros_like(x), where=~np.isclose(total, 0.0)
    )
    return out


def _start(
    run: int,
    seed: int,
    rng: np.random.Generator,
    n_workers: int,
    n_labels: int,
    default_noise: float,
) -> tuple[FloatArray, FloatArray]:
    """Run ``run``'s starting spamming weights (workers x 2) and strategies (workers x K)."""
    if run == 0:  # crowd-kit's draws: scipy.stats.uniform(1, 1 + noise) from a fresh seed, twice
        spam = np.random.RandomState(seed).uniform(size=(n_workers, 2)) * (1 + default_noise) + 1
        strategy = (
            np.random.RandomState(seed).uniform(size=(n_workers, n_labels)) * (1 + default_noise)
            + 1
        )
    else:
        spam = rng.uniform(size=(n_workers, 2)) * (1 + default_noise) + 1
        strategy = rng.uniform(size=(n_workers, n_labels)) * (1 + default_noise) + 1
    return spam / spam.sum(axis=1, keepdims=True), strategy / strategy.sum(axis=1, keepdims=True)
