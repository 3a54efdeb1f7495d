"""Dawid–Skene kernels on coded crowd labels: the multiclass model (one confusion matrix per
worker) and the one-coin model (one accuracy per worker), fitted by EM as crowd-kit 1.4.2
fits them (its ``DawidSkene`` and ``OneCoinDawidSkene``).

**Model** (Dawid & Skene 1979). Task ``t`` has a true class ``z_t`` drawn from the prior
``p``; worker ``w`` answers ``k`` with probability ``π_w[c, k]`` when ``z_t = c``,
independently of everything else. The posterior of a task is

    P(z_t = c | answers) ∝ p_c · Π_{rows r of t} π_{w_r}[c, k_r].

**EM, step by step as crowd-kit does it.**

1. *Start*: the majority-vote shares are the first posterior (gold tasks, if given, are set
   to their known class); ``p`` is the mean posterior and ``π`` comes from an M-step.
2. *M-step*: ``n_w[c, k] = Σ_{rows of w answering k} P(z_t = c)``; every count of a label
   the worker gave is raised to at least ``ε = 1e-10``; ``π_w[c, k] = n_w[c, k] / Σ_k
   n_w[c, k]`` over the labels the worker gave (a label the worker never gave has
   ``π_w[c, k] = 0`` and never enters a product).
3. *E-step*: the log2 of the product above (the prior raised to at least ``ε``), shifted so
   each task's largest term is 0, exponentiated and normalised; gold tasks are reset to
   their known class; then ``p`` is the mean posterior and a new M-step runs.
4. *Stop* after ``max_iter`` E/M rounds or as soon as the objective
   ``L = [Σ_rows Σ_c P(z_t = c) (ln π_w[c, k] + ln p_c) − Σ_t Σ_c q ln q] / n_rows``
   (``q`` the posterior raised to at least ``ε``; note the prior term is counted once per
   label row, as crowd-kit counts it) rises by less than ``tolerance`` over the previous
   round's (a fall stops it too; a negative ``tolerance`` such as -1 lets EM run on to its
   fixed point). ``change`` is that last difference (``inf`` after a single round: the
   first round has nothing to compare with).

The one-coin model replaces step 2 with ``s_w = mean over w's rows of P(z_t = k_r)`` (the
worker's expected accuracy) and ``π_w[c, k] = s_w`` if ``k = c`` else ``(1 − s_w) / (K − 1)``,
clipped to ``[ε, 1 − ε]`` and not renormalised (crowd-kit's construction; Zhang, Chen, Zhou &
Jordan 2016 analyse this model).

**Deliberate differences.** crowd-kit computes its objective in place on its posterior frame,
so its reported posteriors have every value below ``ε`` raised to ``ε`` (rows then sum to
slightly more than 1); these kernels return the normalised posterior (rows sum to 1). The
log-likelihood reported is the true marginal log-likelihood ``Σ_t ln Σ_c p_c Π π`` at the
final parameters (natural log); crowd-kit's objective per round is in
``extra["objective"]``. Labels nobody gave are left out of the fit (crowd-kit has no column
for them) and get posterior and prior 0.

All sums over label rows are sparse-matrix products (``scipy.sparse``): memory is
``O(rows + tasks·K + workers·K²)``, never ``rows × K × K``.

References: A. P. Dawid and A. M. Skene (1979), Maximum likelihood estimation of observer
error-rates using the EM algorithm, *Applied Statistics* 28(1):20–28; Y. Zhang, X. Chen,
D. Zhou and M. I. Jordan (2016), Spectral methods meet EM: a provably optimal algorithm for
crowdsourcing, *JMLR* 17:1–44.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from .. import _options
from ..errors import OptionError
from ._fit import CrowdCodes, CrowdFit, FloatArray, IntArray
from ._voting import KERNELS as VOTING_KERNELS
from ._voting import _Tie, _tie_rule, pick_labels, weighted_vote
from .options import DawidSkeneInit, LabelTies

if TYPE_CHECKING:
    from scipy.sparse import csr_matrix

__all__ = ["KERNELS", "DawidSkeneInit", "dawid_skene", "one_coin_dawid_skene"]

# How Dawid–Skene's EM starts (crowd-kit: majority vote, its only choice): DawidSkeneInit,
# one Literal type for the family, in its options module.

#: crowd-kit's floor for probabilities before a log (``np.float_power(10, -10)``).
EPS = 1e-10


class _Design(NamedTuple):
    """The label rows as a tasks × (worker, label) count matrix, in the fitted label space
    (only the labels given, or named by gold, numbered ``0 … K - 1``)."""

    rows: csr_matrix  # tasks × (workers · K): how often w gave t the label k
    cols: csr_matrix  # its transpose, kept in CSR for the M-step products
    used: np.ndarray  # workers × K: w gave k at least once
    per_task: FloatArray  # label rows per task
    per_worker: FloatArray  # label rows per worker
    k: int
    present: IntArray  # fitted label -> original code
    codes: CrowdCodes  # labels renumbered into the fitted space


def _design(codes: CrowdCodes, gold: IntArray | None) -> _Design:
    from scipy import sparse

    given = np.bincount(codes.label, minlength=codes.n_labels) > 0
    if gold is not None:
        given[gold[gold >= 0]] = True
    present = np.flatnonzero(given).astype(np.int64)
    number = np.cumsum(given) - 1
    k = len(present)
    label = number[codes.label]
    col = codes.worker * k + label
    shape = (codes.n_tasks, codes.n_workers * k)
    rows = sparse.csr_matrix((np.ones(len(col)), (codes.task, col)), shape=shape)
    rows.sum_duplicates()
    per_col = np.bincount(col, minlength=shape[1])
    fitted = CrowdCodes(codes.task, codes.worker, label, codes.n_tasks, codes.n_workers, k)
    return _Design(
        rows=rows,
        cols=rows.T.tocsr(),
        used=(per_col > 0).reshape(codes.n_workers, k),
        per_task=np.bincount(codes.task, minlength=codes.n_tasks).astype(np.float64),
        per_worker=np.bincount(codes.worker, minlength=codes.n_workers).astype(np.float64),
        k=k,
        present=present,
        codes=fitted,
    )


def _soft_counts(d: _Design, posterior: FloatArray) -> FloatArray:
    """``n[w, k, c] = Σ_{rows of w answering k} P(z_t = c)`` (given label before true class)."""
    return np.asarray(d.cols @ posterior).reshape(d.used.shape[0], d.k, d.k)


def _m_step(d: _Design, posterior: FloatArray) -> FloatArray:
    """The confusion matrices, ``err[w, k, c] = P(worker w answers k | true class c)``."""
    counts = np.where(d.used[:, :, None], np.maximum(_soft_counts(d, posterior), EPS), 0.0)
    total = counts.sum(axis=1, keepdims=True)
    # A worker with no label rows has no evidence: uniform answers (never used in a product).
    return np.where(total > 0, counts / np.where(total > 0, total, 1.0), 1.0 / d.k)


def _one_coin_skill(d: _Design, posterior: FloatArray) -> FloatArray:
    """``s_w``: the mean over w's rows of the posterior of the label w gave. Summed row by
    row in input order (as pandas' group mean): ``1 − s_w`` enters the error matrix, and
    when ``s_w`` is within 1e-9 of 1 any other summation order moves it by a visible
    relative amount."""
    c = d.codes
    agree = np.bincount(c.worker, weights=posterior[c.task, c.label], minlength=c.n_workers)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.asarray(agree / d.per_worker, dtype=np.float64)


def _one_coin_errors(d: _Design, skill: FloatArray) -> FloatArray:
    s = np.nan_to_num(skill, nan=1.0 / d.k)[:, None, None]
    if d.k == 1:
        return np.asarray(np.clip(np.broadcast_to(s, (len(skill), 1, 1)), EPS, 1 - EPS))
    eye = np.eye(d.k, dtype=bool)[None]
    return np.asarray(np.clip(np.where(eye, s, (1.0 - s) / (d.k - 1)), EPS, 1 - EPS))


def _log_table(d: _Design, err: FloatArray, log: Callable[[FloatArray], FloatArray]) -> FloatArray:
    """``log err`` at the (worker, label) cells used, 0 elsewhere, as a (w·K) × K matrix."""
    safe = np.where(d.used[:, :, None], err, 1.0)
    return np.where(d.used[:, :, None], log(safe), 0.0).reshape(-1, d.k)


def _e_step(d: _Design, prior: FloatArray, err: FloatArray) -> FloatArray:
    loglik = np.asarray(d.rows @ _log_table(d, err, np.log2)) + np.log2(np.maximum(prior, EPS))
    scaled = np.exp2(loglik - loglik.max(axis=1, keepdims=True))
    return np.asarray(scaled / scaled.sum(axis=1, keepdims=True), dtype=np.float64)


def _objective(
    d: _Design, posterior: FloatArray, prior: FloatArray, err: FloatArray
) -> tuple[float, FloatArray]:
    """crowd-kit's per-row objective, and ``ln Π π`` per task and class (for the marginal
    log-likelihood)."""
    lnpi = np.asarray(d.rows @ _log_table(d, err, np.log))
    joint = float(np.sum(posterior * lnpi))
    joint += float(np.sum(d.per_task[:, None] * posterior * np.log(np.maximum(prior, EPS))))
    q = np.maximum(posterior, EPS)
    entropy = -float(np.sum(np.log(q) * q))
    return (joint + entropy) / max(len(d.codes.task), 1), lnpi


def _marginal_log_likelihood(lnpi: FloatArray, prior: FloatArray) -> float:
    with np.errstate(divide="ignore"):
        terms = lnpi + np.log(prior)
    top = terms.max(axis=1, keepdims=True)
    return float(np.sum(top[:, 0] + np.log(np.exp(terms - top).sum(axis=1))))


def _fix_gold(posterior: FloatArray, gold_rows: IntArray, gold_class: IntArray) -> FloatArray:
    if len(gold_rows):
        posterior[gold_rows] = 0.0
        posterior[gold_rows, gold_class] = 1.0
    return posterior


def _check_gold(codes: CrowdCodes, gold: object) -> IntArray | None:
    if gold is None:
        return None
    truth = np.asarray(gold)
    if truth.shape != (codes.n_tasks,) or not np.issubdtype(truth.dtype, np.integer):
        raise OptionError(
            f"gold must hold one integer label code per task ({codes.n_tasks}), "
            f"got {truth.dtype} of shape {truth.shape}",
            option="gold",
        )
    if (truth >= codes.n_labels).any() or (truth < -1).any():
        raise OptionError(
            f"gold label codes must be -1 (unknown) or from 0 to {codes.n_labels - 1}",
            option="gold",
        )
    return truth.astype(np.int64)


def _run(
    codes: CrowdCodes,
    *,
    one_coin: bool,
    init: object,
    max_iter: object,
    tolerance: object,
    ties: object,
    seed: object,
    gold: object,
) -> CrowdFit:
    rule = _tie_rule(codes, ties, seed)
    _options.choice(init, DawidSkeneInit, "init")
    rounds = _options.integer(max_iter, "max_iter", minimum=0)
    tol = _options.number(tolerance, "tolerance")
    truth = _check_gold(codes, gold)
    d = _design(codes, truth)
    gold_rows = np.zeros(0, dtype=np.int64) if truth is None else np.flatnonzero(truth >= 0)
    gold_class = np.zeros(0, dtype=np.int64)
    if truth is not None:
        gold_class = (np.cumsum(np.bincount(d.present, minlength=codes.n_labels) > 0) - 1)[
            truth[gold_rows]
        ]

    def m_step(post: FloatArray) -> tuple[FloatArray, FloatArray | None]:
        if one_coin:
            skill = _one_coin_skill(d, post)
            return _one_coin_errors(d, skill), skill
        return _m_step(d, post), None

    posterior = _fix_gold(weighted_vote(d.codes), gold_rows, gold_class)
    prior = posterior.mean(axis=0)
    err, skill = m_step(posterior)
    loss, change, converged, history = -math.inf, math.inf, False, []
    lnpi: FloatArray | None = None
    for _ in range(rounds):
        posterior = _fix_gold(_e_step(d, prior, err), gold_rows, gold_class)
        prior = posterior.mean(axis=0)
        err, skill = m_step(posterior)
        new, lnpi = _objective(d, posterior, prior, err)
        history.append(new)
        change = new - loss
        if change < tol:
            converged = True
            break
        loss = new
    if lnpi is None:
        lnpi = np.asarray(d.rows @ _log_table(d, err, np.log))
    return _expand(
        codes,
        d,
        posterior=posterior,
        prior=prior,
        err=err,
        skill=skill,
        rule=rule,
        iterations=len(history),
        converged=converged,
        change=change,
        log_likelihood=_marginal_log_likelihood(lnpi, prior),
        history=np.asarray(history, dtype=np.float64),
    )


def _expand(
    codes: CrowdCodes,
    d: _Design,
    *,
    posterior: FloatArray,
    prior: FloatArray,
    err: FloatArray,
    skill: FloatArray | None,
    rule: _Tie,
    iterations: int,
    converged: bool,
    change: float,
    log_likelihood: float,
    history: FloatArray,
) -> CrowdFit:
    """Back from the fitted label space to all ``n_labels`` codes: labels nobody gave get
    posterior and prior 0 and confusion 0 as answers; a class nobody gave gets, as the
    M-step would give it, uniform answers over the labels the worker gave."""
    n, k_all, at = codes.n_labels, codes.n_labels, d.present
    full_post = np.zeros((codes.n_tasks, n))
    full_post[:, at] = posterior
    full_prior = np.zeros(n)
    full_prior[at] = prior
    given_share = d.used / np.maximum(d.used.sum(axis=1, keepdims=True), 1)
    confusion = np.zeros((codes.n_workers, k_all, k_all))
    confusion[:, :, at] = given_share[:, None, :]
    confusion[np.ix_(np.arange(codes.n_workers), at, at)] = err.transpose(0, 2, 1)
    absent = d.per_worker == 0
    confusion[absent] = 1.0 / k_all
    if skill is None:  # the accuracy the confusion matrix implies, weighted by the prior
        skill = np.einsum("c,wcc->w", full_prior, confusion)
    skill = np.where(absent, np.nan, skill)
    return CrowdFit(
        posterior=full_post,
        labels=pick_labels(full_post, rule),
        worker_skill=np.asarray(skill, dtype=np.float64),
        confusion=confusion,
        prior=full_prior,
        iterations=iterations,
        converged=converged,
        change=change,
        log_likelihood=log_likelihood,
        extra={"objective": history},
    )


def dawid_skene(
    codes: CrowdCodes,
    *,
    init: DawidSkeneInit = "majority_vote",
    max_iter: int = 100,
    tolerance: float = 1e-5,
    ties: LabelTies = "first_seen",
    seed: int | None = None,
    gold: IntArray | None = None,
) -> CrowdFit:
    """Dawid–Skene (1979): one confusion matrix per worker, fitted by EM as crowd-kit's
    ``DawidSkene(n_iter=max_iter, tol=tolerance)`` (see the module docstring for every step).

    ``gold`` (one label code per task, -1 unknown) fixes the posterior of the known tasks to
    their class at the start and after every E-step (crowd-kit's ``fit(data,
    true_labels)``). ``confusion[w, c, k]``: P(w answers k | true class c), rows summing to
    1. ``worker_skill[w] = Σ_c prior[c] · confusion[w, c, c]``, the accuracy the confusion
    matrix implies (crowd-kit's ``DawidSkene`` reports no skill); NaN for a worker without
    labels. ``log_likelihood``: the marginal log-likelihood at the final parameters. Ties
    between labels go by default to the label first seen in the rows (crowd-kit's column
    order, inherited from its majority-vote start).

    Examples
    --------
    >>> import numpy as np
    >>> from assay.judgments._fit import CrowdCodes
    >>> codes = CrowdCodes(np.array([0, 0, 0, 1, 1, 1]), np.array([0, 1, 2, 0, 1, 2]),
    ...                    np.array([1, 1, 0, 0, 0, 1]), 2, 3, 2)
    >>> fit = dawid_skene(codes)
    >>> fit.labels.tolist(), fit.posterior.sum(axis=1).round(12).tolist()
    ([1, 0], [1.0, 1.0])
    """
    return _run(
        codes,
        one_coin=False,
        init=init,
        max_iter=max_iter,
        tolerance=tolerance,
        ties=ties,
        seed=seed,
        gold=gold,
    )


def one_coin_dawid_skene(
    codes: CrowdCodes,
    *,
    init: DawidSkeneInit = "majority_vote",
    max_iter: int = 100,
    tolerance: float = 1e-5,
    ties: LabelTies = "first_seen",
    seed: int | None = None,
    gold: IntArray | None = None,
) -> CrowdFit:
    """One-coin Dawid–Skene: one accuracy ``s_w`` per worker, errors spread evenly over the
    other labels, fitted by EM as crowd-kit's ``OneCoinDawidSkene(n_iter=max_iter,
    tol=tolerance)``. ``worker_skill`` is ``s_w`` from the last M-step (crowd-kit's
    ``skills_``); ``confusion[w]`` is the clipped one-coin matrix. ``gold`` works as in
    :func:`dawid_skene` (an extension: crowd-kit's one-coin model takes no true labels).

    Examples
    --------
    >>> import numpy as np
    >>> from assay.judgments._fit import CrowdCodes
    >>> codes = CrowdCodes(np.array([0, 0, 0, 1, 1, 1]), np.array([0, 1, 2, 0, 1, 2]),
    ...                    np.array([1, 1, 0, 0, 0, 1]), 2, 3, 2)
    >>> one_coin_dawid_skene(codes).labels.tolist()
    [1, 0]
    """
    return _run(
        codes,
        one_coin=True,
        init=init,
        max_iter=max_iter,
        tolerance=tolerance,
        ties=ties,
        seed=seed,
        gold=gold,
    )


#: Every kernel of this module and of :mod:`._voting`, by method name.
KERNELS: dict[str, Callable[..., CrowdFit]] = {
    **VOTING_KERNELS,
    "dawid_skene": dawid_skene,
    "one_coin_dawid_skene": one_coin_dawid_skene,
}
