"""Voting kernels on coded crowd labels: majority vote, Wawa, Zero-Based Skill (ZBS) and
gold-question accuracy, each computed as crowd-kit 1.4.2 computes it (its ``MajorityVote``,
``Wawa``, ``ZeroBasedSkill`` and the ``get_accuracy`` helper behind their ``skills_``).

Every kernel takes :class:`~assay.judgments._fit.CrowdCodes` and returns a
:class:`~assay.judgments._fit.CrowdFit`; the work is a few ``np.bincount`` passes over the
label rows (no Python loop over rows, tasks or workers).

Conventions shared with crowd-kit:

- **Accuracy** of a worker against reference labels (``get_accuracy``): the share of the
  worker's *distinct* ``(task, label)`` answers on tasks with a reference label that equal
  it. A worker who gave the same task the same label twice counts once there, although the
  vote counts both rows.
- **Ties.** crowd-kit picks a label with ``DataFrame.idxmax`` over its label columns, so a
  tie goes to the column that comes first, and the column order differs by method: the
  plain vote (``MajorityVote`` without skills, hence also the start of Dawid–Skene) builds
  its columns from ``value_counts``, in the order the labels *first occur in the rows*; the
  skill-weighted vote (Wawa, ZBS) builds them from a sorted ``groupby``, in *label order*.
  Each kernel's default ``ties`` is its crowd-kit rule: ``"first_seen"`` (majority vote,
  Dawid–Skene) or ``"lowest"`` (the lowest label code; crowd-kit's rule when codes number
  the labels in sorted order, as the public encoder does) for Wawa and ZBS. ``ties="random"``
  draws uniformly among the exactly tied labels with ``numpy.random.default_rng(seed)``.
  ``ties`` decides the labels returned; the intermediate votes inside Wawa and ZBS keep
  crowd-kit's rule whatever it says.
- **Labels nobody gave** keep posterior 0 (crowd-kit has no column for them).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

import numpy as np

from .. import _options
from ..errors import OptionError
from ._fit import CrowdCodes, CrowdFit, FloatArray, IntArray
from .options import LabelTies

__all__ = [
    "KERNELS",
    "LabelTies",
    "accuracy",
    "gold_accuracy",
    "majority_vote",
    "pick_labels",
    "wawa",
    "weighted_vote",
    "zbs",
]

# How a label is chosen among labels of equal largest posterior: one Literal type for the
# family, in its options module (first_seen, lowest, random).


class _Tie(NamedTuple):
    order: IntArray | None  # label codes in order of preference; None: lowest code first
    rng: np.random.Generator | None


def _first_seen(codes: CrowdCodes) -> IntArray:
    """Label codes in the order they first occur in the rows (codes never given last)."""
    n = len(codes.label)
    first = np.full(codes.n_labels, n, dtype=np.int64)
    np.minimum.at(first, codes.label, np.arange(n, dtype=np.int64))
    return np.asarray(np.argsort(first, kind="stable"), dtype=np.int64)


def _tie_rule(codes: CrowdCodes, ties: object, seed: object) -> _Tie:
    choice = _options.choice(ties, LabelTies, "ties")
    if choice == "random":
        return _Tie(None, np.random.default_rng(None if seed is None else _options.seed(seed)))
    return _Tie(_first_seen(codes) if choice == "first_seen" else None, None)


def pick_labels(posterior: FloatArray, rule: _Tie | None = None) -> IntArray:
    """The label code of each row's largest posterior. Among exactly tied codes: the lowest
    (``rule`` None or ``order`` None), the earliest in ``rule.order``, or a uniform draw with
    ``rule.rng``."""
    if posterior.shape[0] == 0:
        return np.zeros(0, dtype=np.int64)
    if rule is not None and rule.rng is not None:
        tied = posterior == posterior.max(axis=1, keepdims=True)
        # One uniform key per cell; the tied cell with the largest key wins, so each tied
        # label is equally likely whatever its position.
        keys = np.where(tied, rule.rng.random(posterior.shape), -1.0)
        return np.asarray(np.argmax(keys, axis=1), dtype=np.int64)
    if rule is not None and rule.order is not None:
        return np.asarray(rule.order[np.argmax(posterior[:, rule.order], axis=1)], dtype=np.int64)
    return np.asarray(np.argmax(posterior, axis=1), dtype=np.int64)


def weighted_vote(codes: CrowdCodes, weight: FloatArray | None = None) -> FloatArray:
    """Vote shares per task: ``posterior[t, c] = Σ w_r [task_r = t, label_r = c] /
    Σ w_r [task_r = t]`` with ``w_r = 1`` (majority vote) or the row weights given.

    A task whose weights sum to 0 (every worker on it has skill 0: crowd-kit would divide
    0 by 0) gets the uniform distribution over the labels given to it, so no NaN escapes.
    """
    n_tasks, k = codes.n_tasks, codes.n_labels
    cell = codes.task * k + codes.label
    scores = np.bincount(cell, weights=weight, minlength=n_tasks * k).reshape(n_tasks, k)
    total = scores.sum(axis=1, keepdims=True)
    empty = total[:, 0] <= 0.0
    if empty.any():
        given = np.bincount(cell, minlength=n_tasks * k).reshape(n_tasks, k)[empty] > 0
        scores[empty] = given
        total[empty, 0] = given.sum(axis=1)
    return np.asarray(scores / total, dtype=np.float64)


def _distinct_rows(codes: CrowdCodes) -> IntArray:
    """Positions of the first row of each distinct ``(task, worker, label)``."""
    n = len(codes.task)
    if n == 0:
        return np.zeros(0, dtype=np.int64)
    span = float(codes.n_tasks) * codes.n_workers * codes.n_labels
    if span < 2.0**62:
        key = (codes.task * codes.n_workers + codes.worker) * codes.n_labels + codes.label
        ordered = np.sort(key)
        if not (ordered[1:] == ordered[:-1]).any():  # the usual case: no repeated answer
            return np.arange(n, dtype=np.int64)
        _, first = np.unique(key, return_index=True)
    else:  # the composite key would overflow int64: sort the three columns instead
        order = np.lexsort((codes.label, codes.worker, codes.task))
        t, w, lab = codes.task[order], codes.worker[order], codes.label[order]
        new = np.ones(n, dtype=bool)
        new[1:] = (t[1:] != t[:-1]) | (w[1:] != w[:-1]) | (lab[1:] != lab[:-1])
        first = order[new]
    return np.asarray(first, dtype=np.int64)


class _Answers(NamedTuple):
    """The distinct ``(task, worker, label)`` rows, which accuracies count."""

    task: IntArray
    worker: IntArray
    label: IntArray
    n_workers: int


def _answers(codes: CrowdCodes) -> _Answers:
    rows = _distinct_rows(codes)
    if len(rows) == len(codes.task):
        return _Answers(codes.task, codes.worker, codes.label, codes.n_workers)
    return _Answers(codes.task[rows], codes.worker[rows], codes.label[rows], codes.n_workers)


def accuracy(codes: CrowdCodes | _Answers, truth: IntArray) -> FloatArray:
    """Each worker's accuracy against ``truth`` (one label code per task, -1 unknown):
    ``Σ [label = truth] / Σ 1`` over the worker's distinct ``(task, worker, label)`` rows
    whose task has a known truth; NaN for a worker with no such row (crowd-kit's
    ``get_accuracy(..., by="worker")``, which leaves such workers out)."""
    a = codes if isinstance(codes, _Answers) else _answers(codes)
    reference = truth[a.task]
    known = reference >= 0
    worker, label = a.worker, a.label
    if not known.all():
        worker, label, reference = worker[known], label[known], reference[known]
    hits = np.bincount(worker, weights=label == reference, minlength=a.n_workers)
    seen = np.bincount(worker, minlength=a.n_workers).astype(np.float64)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.asarray(np.where(seen > 0, hits / seen, np.nan), dtype=np.float64)


def gold_accuracy(codes: CrowdCodes, gold: IntArray) -> FloatArray:
    """Each worker's accuracy on the gold questions: ``gold[t]`` is task ``t``'s true label
    code, -1 where unknown. A worker's distinct answers on gold tasks are scored right or
    wrong (crowd-kit's ``GoldMajorityVote.fit`` skills); NaN for a worker who answered no
    gold task.

    Examples
    --------
    >>> import numpy as np
    >>> from assay.judgments._fit import CrowdCodes
    >>> codes = CrowdCodes(np.array([0, 0, 1]), np.array([0, 1, 0]), np.array([1, 0, 1]), 2, 3, 2)
    >>> gold_accuracy(codes, np.array([1, -1])).tolist()
    [1.0, 0.0, nan]
    """
    truth = np.asarray(gold, dtype=np.int64)
    if truth.shape != (codes.n_tasks,):
        raise OptionError(
            f"gold must hold one label code per task ({codes.n_tasks}), got shape {truth.shape}",
            option="gold",
        )
    if (truth >= codes.n_labels).any() or (truth < -1).any():
        raise OptionError(
            f"gold label codes must be -1 (unknown) or from 0 to {codes.n_labels - 1}",
            option="gold",
        )
    return accuracy(codes, truth)


def majority_vote(
    codes: CrowdCodes, *, ties: LabelTies = "first_seen", seed: int | None = None
) -> CrowdFit:
    """Majority vote: ``posterior[t, c]`` is the share of task ``t``'s label rows that say
    ``c``; the label is the most frequent one (ties: by default the label that occurs first
    in the rows, crowd-kit's ``MajorityVote`` rule; see the module docstring). ``worker_skill`` is each worker's
    accuracy against the majority labels (crowd-kit's ``skills_``), NaN for a worker without
    labels.

    Examples
    --------
    >>> import numpy as np
    >>> from assay.judgments._fit import CrowdCodes
    >>> codes = CrowdCodes(np.array([0, 0, 0, 1, 1]), np.array([0, 1, 2, 0, 1]),
    ...                    np.array([1, 1, 0, 0, 1]), 2, 3, 2)
    >>> fit = majority_vote(codes)
    >>> fit.labels.tolist(), fit.worker_skill.tolist()
    ([1, 0], [1.0, 0.5, 0.0])
    """
    rule = _tie_rule(codes, ties, seed)
    posterior = weighted_vote(codes)
    labels = pick_labels(posterior, rule)
    return CrowdFit(posterior=posterior, labels=labels, worker_skill=accuracy(codes, labels))


def wawa(codes: CrowdCodes, *, ties: LabelTies = "lowest", seed: int | None = None) -> CrowdFit:
    """Worker Agreement with Aggregate (Wawa): a majority vote, each worker's skill as their
    accuracy against it, then a vote weighted by those skills: ``posterior[t, c] ∝
    Σ_{rows of t saying c} skill[worker]``. As crowd-kit's ``Wawa``: the majority vote
    inside breaks ties by the label first seen, the weighted vote by ``ties`` (default: the
    lowest code).

    Examples
    --------
    >>> import numpy as np
    >>> from assay.judgments._fit import CrowdCodes
    >>> codes = CrowdCodes(np.array([0, 0, 0, 1, 1]), np.array([0, 1, 2, 0, 2]),
    ...                    np.array([1, 1, 0, 0, 1]), 2, 3, 2)
    >>> wawa(codes).labels.tolist()
    [1, 0]
    """
    rule = _tie_rule(codes, ties, seed)
    first = pick_labels(weighted_vote(codes), _Tie(_first_seen(codes), None))
    skill = accuracy(codes, first)
    posterior = weighted_vote(codes, skill[codes.worker])
    return CrowdFit(posterior=posterior, labels=pick_labels(posterior, rule), worker_skill=skill)


def zbs(
    codes: CrowdCodes,
    *,
    max_iter: int = 100,
    tolerance: float | None = None,
    learning_rate: float = 1.0,
    lr_steps_to_reduce: int = 20,
    lr_reduce_factor: float = 0.5,
    eps: float = 1e-5,
    ties: LabelTies = "lowest",
    seed: int | None = None,
) -> CrowdFit:
    """Zero-Based Skill (ZBS): a skill-weighted vote whose weights move towards each
    worker's accuracy against the current aggregate, as crowd-kit's ``ZeroBasedSkill``.

    Skills start at ``1 / L + eps`` (``L`` the number of distinct labels given). Step
    ``i = 1 … max_iter``: if ``i`` is a multiple of ``lr_steps_to_reduce`` the rate is
    multiplied by ``lr_reduce_factor``; the weighted vote with the current skills gives
    labels ``ŷ`` (ties: the lowest code); ``skill ← skill + rate · (accuracy(ŷ) − skill)``. The result is the vote
    weighted by the final skills. crowd-kit runs all ``max_iter`` steps (its ``eps`` only
    offsets the start); so does ``tolerance=None`` (the default). A number stops early once
    the largest skill change is below it. ``change`` is the last step's largest skill
    change; ``converged`` says whether it fell below ``tolerance`` (with ``tolerance=None``:
    whether the last step left the labels unchanged).

    Examples
    --------
    >>> import numpy as np
    >>> from assay.judgments._fit import CrowdCodes
    >>> codes = CrowdCodes(np.array([0, 0, 0, 1, 1]), np.array([0, 1, 2, 0, 2]),
    ...                    np.array([1, 1, 0, 0, 1]), 2, 3, 2)
    >>> zbs(codes).labels.tolist()
    [1, 0]
    """
    rule = _tie_rule(codes, ties, seed)
    max_iter = _options.integer(max_iter, "max_iter", minimum=0)
    stop = None if tolerance is None else _options.number(tolerance, "tolerance", low=0.0)
    rate = _options.number(learning_rate, "learning_rate", low=0.0, low_open=True)
    every = _options.integer(lr_steps_to_reduce, "lr_steps_to_reduce", minimum=1)
    factor = _options.number(lr_reduce_factor, "lr_reduce_factor", low=0.0, low_open=True)
    eps = _options.number(eps, "eps", low=0.0)

    n_given = int(np.count_nonzero(np.bincount(codes.label, minlength=codes.n_labels)))
    skill = np.full(codes.n_workers, 1.0 / max(n_given, 1) + eps)
    labels: IntArray | None = None
    answers = _answers(codes)
    change, stable, done = 0.0, True, 0
    for step in range(1, max_iter + 1):
        if step % every == 0:
            rate *= factor
        current = pick_labels(weighted_vote(codes, skill[codes.worker]))
        stable = labels is not None and bool(np.array_equal(current, labels))
        labels = current
        target = accuracy(answers, labels)
        # A worker with no labels has no accuracy: keep the starting skill, as they never vote.
        target = np.where(np.isnan(target), skill, target)
        new = skill + rate * (target - skill)
        change = float(np.max(np.abs(new - skill))) if new.size else 0.0
        skill, done = new, step
        if stop is not None and change < stop:
            break
    posterior = weighted_vote(codes, skill[codes.worker])
    present = np.bincount(codes.worker, minlength=codes.n_workers) > 0
    converged = (change < stop) if stop is not None else (stable or done == 0)
    return CrowdFit(
        posterior=posterior,
        labels=pick_labels(posterior, rule),
        worker_skill=np.where(present, skill, np.nan),
        iterations=done,
        converged=bool(converged),
        change=change,
    )


#: The voting kernels by method name.
KERNELS: dict[str, Callable[..., CrowdFit]] = {
    "majority_vote": majority_vote,
    "wawa": wawa,
    "zbs": zbs,
}
