"""GLAD (Whitehill et al. 2009): labels, worker abilities and task difficulties by EM, on
coded crowd labels.

The model: task ``t`` has a true label ``z_t`` with prior ``p``; worker ``w`` answers it
correctly with probability ``a = sigmoid(alpha_w * beta_t)`` and gives each of the other
``K - 1`` labels with probability ``(1 - a) / (K - 1)``. ``alpha_w`` is the worker's ability
(negative: adversarial), ``beta_t > 0`` the task's inverse difficulty (larger is easier).
Like crowd-kit 1.4.2 (the reference this kernel is tested against), the parameters are
``alpha`` and ``log beta``, each with a unit-variance normal prior (means 1 and 1), both
start at 1, and the M-step is scipy's conjugate gradient (``method="CG"``, ``tol=1e-2``,
25 iterations) on the expected complete-data log-likelihood plus the log prior densities.

Every step is a pass over the label rows with :func:`numpy.bincount`: the E-step adds each
row's log-probability to its task's score of every class (one weight per row for the
"wrong" classes, plus one more for the label it gave), and the gradient sums
``P(z_t = label) - a`` per worker and per task (the sum over classes of
``posterior * (delta - a)`` that crowd-kit forms on a table of rows x classes).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np
from scipy.optimize import minimize
from scipy.special import expit, logsumexp

from .. import _options
from ..errors import OptionError
from ._fit import CrowdCodes, CrowdFit, FloatArray

__all__ = ["KERNELS", "glad"]

_HALF_LOG_2PI = 0.5 * math.log(2.0 * math.pi)


def glad(
    codes: CrowdCodes,
    *,
    max_iter: int = 100,
    tolerance: float = 1e-5,
    label_prior: Any = None,  # Any: an array-like of K class probabilities, or None
    alpha_prior_mean: Any = 1.0,  # Any: a number or an array-like, one per worker
    log_beta_prior_mean: Any = 1.0,  # Any: a number or an array-like, one per task
    m_step_max_iter: int = 25,
    m_step_tolerance: float = 1e-2,
) -> CrowdFit:
    """GLAD fitted to ``codes`` by EM (crowd-kit 1.4.2's algorithm and defaults).

    Each EM iteration runs the E-step (posterior of the true label per task), then the M-step
    (``scipy.optimize.minimize(method="CG")`` on ``alpha`` and ``log beta``); the fit stops
    when the objective, divided by ``rows x K``, rises by less than ``tolerance`` (a fall
    stops it too), or after ``max_iter`` iterations. As in crowd-kit, the first iteration
    compares that per-row objective with the undivided one of the start, so it never stops
    there; and ``posterior`` is the last E-step's, before the last M-step.

    ``K`` is ``codes.n_labels`` (crowd-kit counts the labels that occur). With ``K = 1``
    there is no wrong answer: the rows' "wrong" term is left out (crowd-kit gives NaN).

    Parameters
    ----------
    codes
        The crowd labels as codes.
    max_iter, tolerance
        The EM iteration cap and stopping tolerance (crowd-kit's ``n_iter`` and ``tol``).
    label_prior
        The class prior (K non-negative numbers, scaled to sum 1); None: uniform.
    alpha_prior_mean, log_beta_prior_mean
        The means of the unit-variance normal priors on ``alpha`` (one number, or one per
        worker) and on ``log beta`` (one, or one per task); crowd-kit's
        ``alphas_priors_mean`` and ``betas_priors_mean``.
    m_step_max_iter, m_step_tolerance
        The conjugate gradient's iteration cap and ``tol`` in each M-step.

    Returns
    -------
    CrowdFit
        ``posterior``, ``labels`` (the most probable class, the lowest code on a tie),
        ``difficulty`` = ``beta`` (``exp`` of crowd-kit's ``betas_``, which holds
        ``log beta``), ``worker_skill`` = ``sigmoid(alpha_w * mean(beta))`` (the probability
        that the worker answers a task of average ``beta`` correctly), ``extra["alpha"]`` and
        ``extra["log_beta"]`` (crowd-kit's ``alphas_`` and ``betas_``), ``log_likelihood``
        (the final objective: expected complete-data log-likelihood plus log prior
        densities, not divided), ``iterations``, ``converged`` and ``change`` (the last
        change of the per-row objective).

    Examples
    --------
    >>> import numpy as np
    >>> from assay.judgments._fit import CrowdCodes
    >>> codes = CrowdCodes(np.array([0, 0, 0, 1, 1]), np.array([0, 1, 2, 0, 2]),
    ...                    np.array([1, 1, 0, 0, 0]), n_tasks=2, n_workers=3, n_labels=2)
    >>> glad(codes).labels.tolist()
    [1, 0]
    """
    max_iter = _options.integer(max_iter, "max_iter", minimum=1)
    tolerance = _options.number(tolerance, "tolerance", low=0.0)
    m_step_max_iter = _options.integer(m_step_max_iter, "m_step_max_iter", minimum=1)
    m_step_tolerance = _options.number(m_step_tolerance, "m_step_tolerance", low=0.0, low_open=True)
    n_tasks, n_workers, n_labels = codes.n_tasks, codes.n_workers, codes.n_labels
    task = np.asarray(codes.task, dtype=np.int64)
    worker = np.asarray(codes.worker, dtype=np.int64)
    label = np.asarray(codes.label, dtype=np.int64)
    log_prior = _log_prior(label_prior, n_labels)
    alpha_mean = _prior_mean(alpha_prior_mean, n_workers, "alpha_prior_mean")
    beta_mean = _prior_mean(log_beta_prior_mean, n_tasks, "log_beta_prior_mean")
    # The "wrong" classes share 1 - a; with a single class there are none.
    log_wrong = math.log(n_labels - 1) if n_labels > 1 else None
    cell = task * n_labels + label

    def e_step(alpha: FloatArray, log_beta: FloatArray) -> FloatArray:
        x = alpha[worker] * np.exp(log_beta[task])
        log_right = _log_sigmoid(x)
        scores = np.zeros((n_tasks, n_labels))
        if log_wrong is not None:
            # log(1 - a) = log(a) - x: a wrong class's term, and the given label's gain over it.
            scores += np.bincount(task, weights=log_right - x, minlength=n_tasks)[:, None]
            scores -= np.bincount(task, minlength=n_tasks)[:, None] * log_wrong
            gain = x + log_wrong
        else:
            gain = log_right
        scores += np.bincount(cell, weights=gain, minlength=n_tasks * n_labels).reshape(
            n_tasks, n_labels
        )
        scores += log_prior
        posterior: FloatArray = np.exp(scores - logsumexp(scores, axis=1, keepdims=True))
        return posterior

    def objective(
        point: FloatArray, p_given: FloatArray
    ) -> tuple[float, FloatArray]:  # -Q and its gradient, for minimize(jac=True)
        alpha, log_beta = point[:n_workers], point[n_workers:]
        beta = np.exp(log_beta)
        x = alpha[worker] * beta[task]
        log_right = _log_sigmoid(x)
        # Sums of products, not `@`: BLAS's threaded dot costs milliseconds on a busy machine.
        q = float((p_given * log_right).sum())
        if log_wrong is not None:
            p_wrong = 1.0 - p_given
            q += float((p_wrong * (log_right - x)).sum()) - log_wrong * float(p_wrong.sum())
        da, db = alpha - alpha_mean, log_beta - beta_mean
        q -= 0.5 * float((da * da).sum() + (db * db).sum()) + _HALF_LOG_2PI * point.size
        # d/dx of the row's expected log-probability is P(z = label) - sigmoid(x).
        g = p_given - np.exp(log_right)
        grad = np.empty_like(point)
        grad[:n_workers] = np.bincount(worker, weights=g * beta[task], minlength=n_workers) - da
        grad[n_workers:] = np.bincount(task, weights=g * x, minlength=n_tasks) - db
        return -q, -grad

    point = np.ones(n_workers + n_tasks)
    n_cells = label.size * n_labels  # crowd-kit divides by its rows x classes table's length
    posterior = e_step(point[:n_workers], point[n_workers:])
    # crowd-kit's quirk, kept: the start's objective is not divided, so iteration 1 goes on.
    last = -objective(point, posterior[task, label])[0]
    iterations, converged, change, q = 0, False, math.inf, last
    for step in range(1, max_iter + 1):
        iterations = step
        posterior = e_step(point[:n_workers], point[n_workers:])
        p_given = posterior[task, label]
        found = minimize(
            objective,
            point,
            args=(p_given,),
            method="CG",
            jac=True,
            tol=m_step_tolerance,
            options={"maxiter": m_step_max_iter},
        )
        point = np.asarray(found.x, dtype=np.float64)
        q = -objective(point, p_given)[0]
        change, last = q / n_cells - last, q / n_cells
        if change < tolerance:
            converged = True
            break
    alpha, log_beta = point[:n_workers].copy(), point[n_workers:].copy()
    beta = np.exp(log_beta)
    return CrowdFit(
        posterior=posterior,
        labels=np.argmax(posterior, axis=1).astype(np.int64),
        worker_skill=expit(alpha * beta.mean()) if n_tasks else np.full(n_workers, 0.5),
        difficulty=beta,
        iterations=iterations,
        converged=converged,
        change=float(change),
        log_likelihood=float(q),
        extra={"alpha": alpha, "log_beta": log_beta},
    )


def _log_sigmoid(x: FloatArray) -> FloatArray:
    """``log(sigmoid(x))`` without overflow, in a few cheap passes (``np.logaddexp`` is
    several times slower)."""
    out: FloatArray = np.minimum(x, 0.0) - np.log1p(np.exp(-np.abs(x)))
    return out


def _log_prior(label_prior: Any, n_labels: int) -> FloatArray:  # Any: see glad()
    if label_prior is None:
        return np.full(n_labels, -math.log(n_labels))
    prior = np.asarray(label_prior, dtype=np.float64)
    if (
        prior.shape != (n_labels,)
        or not np.all(np.isfinite(prior))
        or np.any(prior < 0)
        or prior.sum() <= 0
    ):
        raise OptionError(
            f"label_prior must be {n_labels} non-negative finite numbers with a positive sum, "
            f"got {label_prior!r}",
            option="label_prior",
        )
    with np.errstate(divide="ignore"):
        log_prior: FloatArray = np.log(prior / prior.sum())
    return log_prior


def _prior_mean(value: Any, n: int, name: str) -> FloatArray:  # Any: see glad()
    if np.ndim(value) == 0:
        return np.full(n, _options.number(value, name))
    mean = np.asarray(value, dtype=np.float64)
    if mean.shape != (n,) or not np.all(np.isfinite(mean)):
        raise OptionError(
            f"{name} must be a finite number or {n} finite numbers, got {value!r}", option=name
        )
    return mean


#: GLAD by name, as the family's front end looks kernels up.
KERNELS: dict[str, Callable[..., CrowdFit]] = {"glad": glad}
