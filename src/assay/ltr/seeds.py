"""Several seeds per model in an LTR experiment: the seeds of the fits (:func:`fit_seeds`),
each model's spread over them (:class:`SeedSpread`) and, per metric, the comparison of the
models' seed distributions (:func:`assay.compare_seeds`: ASO and the paired test)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import cast

import numpy as np

from .._options import Correction, PairedTest, integer
from .._options import seed as check_seed
from ..errors import OptionError
from ..evaluation import Results
from ..ranking.seed_comparison import SeedComparison

__all__ = ["MAX_SEEDS", "SeedSpread", "fit_seeds", "seed_comparisons", "spread"]


@dataclass(frozen=True)
class SeedSpread:
    """One model's scores for one metric over seeds: mean, standard deviation, min, max.

    One entry of :attr:`Experiment.spread` (per model and metric).

    Parameters
    ----------
    model : str
        The model's name.
    metric : str
        The metric.
    n : int
        The number of seeds.
    mean, std : float
        The mean over seeds of the model's mean score, and its sample standard deviation.
    minimum, maximum : float
        The lowest and the highest of those means.

    Examples
    --------
    >>> from assay import ltr
    >>> splits = ltr.mslr_like_splits(40, n_features=8, informative=2, seed=1)
    >>> exp = ltr.run_experiment(splits, ["linear", "random"], seeds=2, metrics=["ndcg@10"],
    ...                          n_resamples=200)
    >>> [(s.model, s.metric, s.n, round(s.mean, 4)) for s in exp.spread]
    [('linear', 'ndcg@10', 2, 0.4936), ('random', 'ndcg@10', 2, 0.304)]
    """

    model: str
    metric: str
    n: int
    mean: float
    std: float
    minimum: float
    maximum: float


#: The most fits of each model ``run_experiment`` makes for its spread (``seeds``).
MAX_SEEDS = 1000


def fit_seeds(seeds: int | Sequence[int], seed: int = 0) -> list[int]:
    """The seeds of the fits: ``seeds`` consecutive ones from ``seed``, or ``seeds`` as given.

    Parameters
    ----------
    seeds : int or sequence of int
        A count (1 to :data:`MAX_SEEDS`) or distinct non-negative seeds.
    seed : int
        The first seed of a count.

    Returns
    -------
    list of int
        The seeds, in order.

    Examples
    --------
    >>> from assay.ltr import fit_seeds
    >>> fit_seeds(3, 10), fit_seeds([1, 2, 5])
    ([10, 11, 12], [1, 2, 5])
    """
    if isinstance(seeds, Sequence) and not isinstance(seeds, str):
        listed = [check_seed(s, where="seeds") for s in seeds]
        if not 1 <= len(listed) <= MAX_SEEDS:
            raise OptionError(
                f"seeds must list 1 to {MAX_SEEDS:,} seeds, got {len(listed)}", option="seeds"
            )
        if len(set(listed)) < len(listed):
            repeated = next(s for s in listed if listed.count(s) > 1)
            raise OptionError(f"seeds lists seed {repeated} twice", option="seeds")
        return listed
    count = integer(seeds, "seeds", minimum=1, maximum=MAX_SEEDS)
    return [seed + i for i in range(count)]


def spread(results: Results, names: Mapping[str, list[str]]) -> list[SeedSpread]:
    out = []
    for model, runs in names.items():
        for m in results.metric_names:
            v = np.array([results.aggregate(r, m) for r in runs])
            std = float(v.std(ddof=1)) if len(v) > 1 else 0.0
            out.append(
                SeedSpread(model, m, len(v), float(v.mean()), std, float(v.min()), float(v.max()))
            )
    return out


def seed_comparisons(
    per_seed: Results,
    by_model: Mapping[str, list[str]],
    test: str,
    n_resamples: int,
    correction: str,
    alpha: float,
    seed: int,
    baseline: str,
) -> dict[str, SeedComparison]:
    """Per metric, the models' per-query scores of every seed compared against the baseline
    (ASO over the seeds' means; the test over the queries of the seed-averaged scores;
    the randomised Tukey HSD has no pairwise form there, so it becomes the randomisation
    test)."""
    from ..seeds import compare_seeds

    paired = "randomization" if test == "tukey" else test
    out = {}
    for m in per_seed.metric_names:
        scores = {
            name: np.vstack([per_seed.data[(run, m)].values for run in runs])
            for name, runs in by_model.items()
        }
        out[m] = compare_seeds(
            scores,
            baseline=baseline,
            metric=m,
            test=cast(PairedTest, paired),
            correction=cast(Correction, correction),
            alpha=alpha,
            n_resamples=n_resamples,
            seed=seed,
        )
    return out
