"""What the judgments kernels return: :class:`CrowdFit` (a label aggregation method fitted to
coded crowd labels) and :class:`PairwiseFit` (item scores from pairwise comparison counts).

The kernels work on integer codes only (tasks, workers, labels and items numbered from 0);
the public functions encode the user's ids, call a kernel and wrap its fit in a result.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np
from numpy.typing import NDArray

__all__ = ["CrowdCodes", "CrowdFit", "PairwiseFit"]

IntArray = NDArray[np.int64]
FloatArray = NDArray[np.float64]


class CrowdCodes(NamedTuple):
    """Crowd labels as codes: row ``i`` says worker ``worker[i]`` gave task ``task[i]`` the
    label ``label[i]``; codes run from 0 to ``n_tasks - 1`` (``n_workers - 1``,
    ``n_labels - 1``), and every task has at least one label."""

    task: IntArray
    worker: IntArray
    label: IntArray
    n_tasks: int
    n_workers: int
    n_labels: int


@dataclass(frozen=True)
class CrowdFit:
    """A label aggregation method fitted to :class:`CrowdCodes`.

    ``posterior[t, c]``: the probability (for voting methods, the normalised weighted vote
    share) that task ``t``'s true label is ``c``; rows sum to 1. ``labels[t]``: the aggregated
    label code. ``worker_skill[w]``: one number per worker in [0, 1] (accuracy, reliability
    or agreement, as the method defines it). Optional, by method: ``confusion`` (workers x
    true x given, rows summing to 1: Dawid–Skene), ``prior`` (the class prior), ``difficulty``
    (one number per task: GLAD's β, larger is easier). ``iterations``, ``converged`` and
    ``change`` (the last step's change, compared with the tolerance) describe an iterative
    fit (0, True, 0.0 for closed forms); ``log_likelihood`` is the final objective where the
    method has one; ``extra`` holds any other fitted arrays by name (MACE's spamming
    probabilities ...).
    """

    posterior: FloatArray
    labels: IntArray
    worker_skill: FloatArray
    confusion: FloatArray | None = None
    prior: FloatArray | None = None
    difficulty: FloatArray | None = None
    iterations: int = 0
    converged: bool = True
    change: float = 0.0
    log_likelihood: float | None = None
    extra: dict[str, FloatArray] = field(default_factory=dict)


@dataclass(frozen=True)
class PairwiseFit:
    """Item scores from pairwise comparisons: ``scores[..., i]`` for item ``i`` (a leading
    batch axis when the kernel was given stacked count matrices); ``iterations``,
    ``converged`` and ``change`` as :class:`CrowdFit`'s (0, True, 0.0 for closed forms;
    for a batch: the most iterations any member took, whether every member converged, the
    largest last change). ``extra`` holds other fitted arrays by name: ``"iterations"`` per
    batch member of an iterative kernel, the tie parameter (``"v"`` for Newman's method,
    ``"nu"`` for Davidson's model), one value per batch member."""

    scores: FloatArray
    iterations: int = 0
    converged: bool = True
    change: float = 0.0
    extra: dict[str, FloatArray] = field(default_factory=dict)
