"""Seeded synthetic crowd labels, for benchmarks and tests: workers of varied quality label
tasks whose true labels are known.

The truth of task ``t`` is uniform over the classes. Workers come in three kinds: 70 % good
(accuracy uniform in [0.6, 0.95)), 20 % mediocre (uniform in [1/K, 0.6)) and 10 % spammers
(accuracy 1/K: every label equally likely). A worker who is wrong gives one of the other
labels, uniformly. Each task is labelled by ``labels_per_task`` distinct workers, taken at a
random start and stride through the workers (the stride prime to their number, so the
workers of a task are distinct and every worker is about equally busy).
"""

from __future__ import annotations

import numpy as np

from .. import _options
from ._fit import CrowdCodes, IntArray

__all__ = ["synthetic_crowd", "synthetic_truth"]


def synthetic_crowd(
    n_tasks: int, n_workers: int, n_labels: int, labels_per_task: int, seed: int
) -> CrowdCodes:
    """``n_tasks x labels_per_task`` crowd label rows (ordered by task) from the model above;
    :func:`synthetic_truth` with the same ``n_tasks``, ``n_labels`` and ``seed`` gives the
    true labels."""
    n_tasks = _options.integer(n_tasks, "n_tasks", minimum=1)
    n_workers = _options.integer(n_workers, "n_workers", minimum=1)
    n_labels = _options.integer(n_labels, "n_labels", minimum=1)
    labels_per_task = _options.integer(
        labels_per_task, "labels_per_task", minimum=1, maximum=n_workers
    )
    seed = _options.seed(seed)
    rng = np.random.default_rng(seed)
    truth = rng.integers(0, n_labels, n_tasks)
    kind = rng.random(n_workers)
    chance = 1.0 / n_labels
    accuracy = np.where(
        kind < 0.7,
        rng.uniform(0.6, 0.95, n_workers),
        np.where(kind < 0.9, rng.uniform(min(chance, 0.6), 0.6, n_workers), chance),
    )
    strides = np.flatnonzero(np.gcd(np.arange(n_workers), n_workers) == 1)
    start = rng.integers(0, n_workers, n_tasks)
    stride = strides[rng.integers(0, strides.size, n_tasks)]
    worker = (start[:, None] + np.arange(labels_per_task) * stride[:, None]) % n_workers
    task = np.repeat(np.arange(n_tasks), labels_per_task)
    worker = worker.reshape(-1)
    given = truth[task]
    if n_labels > 1:
        wrong = rng.random(task.size) >= accuracy[worker]
        shift = rng.integers(1, n_labels, task.size)
        given = np.where(wrong, (given + shift) % n_labels, given)
    return CrowdCodes(
        task=task.astype(np.int64),
        worker=worker.astype(np.int64),
        label=given.astype(np.int64),
        n_tasks=n_tasks,
        n_workers=n_workers,
        n_labels=n_labels,
    )


def synthetic_truth(n_tasks: int, n_labels: int, seed: int) -> IntArray:
    """The true labels behind :func:`synthetic_crowd` (its first draw)."""
    truth: IntArray = np.random.default_rng(seed).integers(0, n_labels, n_tasks).astype(np.int64)
    return truth
