"""Several runs per system (one per training seed): the distribution of each system's scores
over its seeds, and every system against a baseline by Almost Stochastic Order
(:func:`assay.stats.aso`) and by a classical test, with the p-values corrected across the
pairs. :func:`compare_seeds` takes the scores; :func:`compare_seeds_runs` evaluates ranking
runs first. The result, :class:`SeedComparison`, renders itself (a table and a box plot of
the seed scores)."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from functools import partial
from typing import TYPE_CHECKING, Literal, cast

import numpy as np
from numpy.typing import ArrayLike, NDArray

from . import _options as opt
from ._arrays import finite_array
from ._options import Correction, PairedTest
from ._result import provenance
from .errors import InputError, OptionError
from .ranking.seed_comparison import SeedComparison
from .ranking.seed_scores import read_seed_scores
from .stats.pairs import PairResult
from .stats.seeds import seed_distribution

if TYPE_CHECKING:
    from .data import Qrels, Run

__all__ = ["SeedComparison", "compare_seeds", "compare_seeds_runs", "read_seed_scores"]

FloatArray = NDArray[np.float64]

Design = Literal["per-unit", "per-seed"]


def _arrays(scores: Mapping[str, ArrayLike]) -> tuple[dict[str, FloatArray], Design]:
    """Each system's scores as a (seeds,) or (seeds, units) array, all of one design."""
    if not isinstance(scores, Mapping):
        raise InputError("scores must be a mapping of system name to its scores per seed")
    if len(scores) < 2:
        raise InputError(f"a comparison needs at least two systems, got {len(scores)}")
    out: dict[str, FloatArray] = {}
    for key, value in scores.items():
        name = str(key)
        ndim = np.ndim(value)
        if ndim not in (1, 2):
            raise InputError(
                f"scores[{name!r}] must be one score per seed (seeds,) or per-unit scores per "
                f"seed (seeds, units), got {ndim} dimensions"
            )
        arr = finite_array(value, f"scores[{name!r}]", ndim=ndim, where="compare_seeds")
        if arr.shape[0] < 1 or arr.size == 0:
            raise InputError(f"compare_seeds: scores[{name!r}] is empty")
        out[name] = arr
    dims = {a.ndim for a in out.values()}
    if len(dims) > 1:
        raise InputError(
            "compare_seeds: give every system one score per seed, or every system per-unit "
            "scores per seed, not a mix"
        )
    if dims == {2}:
        units = {a.shape[1] for a in out.values()}
        if len(units) > 1:
            raise InputError(
                f"compare_seeds: the systems' per-unit scores cover different numbers of "
                f"units ({sorted(units)}); every seed must score the same units"
            )
        return out, "per-unit"
    return out, "per-seed"


def compare_seeds(
    scores: Mapping[str, ArrayLike],
    *,
    baseline: str | None = None,
    metric: str = "score",
    test: PairedTest = "t",
    correction: Correction = "holm",
    alpha: float = 0.05,
    confidence_level: float = 0.95,
    n_bootstrap: int = 1000,
    n_resamples: int = 10000,
    seed: int = 0,
) -> SeedComparison:
    """Compare systems trained (or run) with several seeds: each system's scores over its
    seeds, and every system against ``baseline`` by ASO and by a classical test.

    Each system's value is either an array of shape (seeds,), one score per seed, or
    (seeds, units), the per-unit scores (per query, per item) of each seed; the number of
    seeds may differ between systems, the units may not. A seed's score is the mean over its
    units.

    - **ASO** (:func:`assay.stats.aso`): ε_min of the system's seed scores over the
      baseline's (and the reverse), with the confidence level Bonferroni-adjusted for the
      number of pairs (systems − 1), as deepsig's ``multi_aso`` does; ``n_bootstrap``
      iterations, ``seed``.
    - **classical test**, the p-values corrected across pairs (:func:`assay.stats.correct`):
      with (seeds, units) scores, a paired ``test`` over the units of the seed-averaged
      scores (:func:`assay.stats.paired_pvalues`: randomization, t, wilcoxon, sign,
      bootstrap; interval: bootstrap of the mean difference; effect size: Cohen's d); with
      (seeds,) scores, Welch's t-test of the seed scores (:func:`assay.stats.welch_ttest`:
      seeds of two systems are not paired), the only test offered there (``test`` must be
      "t").

    Parameters
    ----------
    scores : mapping of str to array_like
        System name -> (seeds,) or (seeds, units) scores, higher is better.
    baseline : str, optional
        The system every other is compared with (default: the first).
    metric : str, default "score"
        What the scores are, for the report.
    test : {"t", "randomization", "wilcoxon", "sign", "bootstrap"}, default "t"
        The classical test (per-unit scores); per-seed scores: "t" (Welch).
    correction : {"holm", "bonferroni", "bh", "none"}, default "holm"
        Correction of the classical p-values across pairs.
    alpha : float, default 0.05
        Significance level of ``significant``.
    confidence_level : float, default 0.95
        ASO's confidence level before the Bonferroni adjustment; also the level of the
        intervals of the differences.
    n_bootstrap : int, default 1000
        ASO's bootstrap iterations.
    n_resamples : int, default 10000
        Resamples of the randomization and bootstrap tests and of the intervals (per-unit).
    seed : int, default 0
        Seed of ASO and of the resampling tests.

    Returns
    -------
    SeedComparison
        Distributions, one :class:`~assay.stats.PairResult` per pair and ASO both ways.

    Examples
    --------
    >>> import numpy as np
    >>> import assay
    >>> rng = np.random.default_rng(0)
    >>> per_query = {"bm25": rng.uniform(0.2, 0.4, (3, 20)),
    ...              "dense": rng.uniform(0.3, 0.5, (3, 20))}
    >>> cmp = assay.compare_seeds(per_query, metric="ndcg@10", test="randomization",
    ...                           n_bootstrap=200, n_resamples=2000)
    >>> cmp.design, cmp.distributions["dense"].n, cmp.pair("dense").n
    ('per-unit', 3, 20)
    >>> cmp.pair("dense").significant, cmp.eps_min("dense") < 0.5
    (True, True)
    """
    from .stats import aso, bootstrap_mean_ci, cohens_d_paired, correct, paired_pvalues
    from .stats.seeds import welch_ttest

    arrays, design = _arrays(scores)
    test = cast(PairedTest, opt.choice(test, PairedTest, "test", where="compare_seeds"))
    correction = cast(
        Correction,
        opt.choice(
            correction,
            Correction,
            "correction",
            aliases=opt.CORRECTION_ALIASES,
            where="compare_seeds",
        ),
    )
    alpha = opt.alpha(alpha, where="compare_seeds")
    level = opt.number(
        confidence_level,
        "confidence_level",
        low=0,
        high=1,
        low_open=True,
        high_open=True,
        where="compare_seeds",
    )
    n_bootstrap = opt.n_resamples(n_bootstrap, name="n_bootstrap", where="compare_seeds")
    n_resamples = opt.n_resamples(n_resamples, where="compare_seeds")
    seed = opt.seed(seed, where="compare_seeds")
    if design == "per-seed" and test != "t":
        raise OptionError(
            f"compare_seeds: with one score per seed the classical test is Welch's t-test "
            f"(test='t'); {test!r} needs per-unit scores per seed, (seeds, units) arrays"
        )
    names = list(arrays)
    base = names[0] if baseline is None else str(baseline)
    if base not in arrays:
        raise InputError(f"baseline {base!r} is not one of the systems ({', '.join(names)})")
    per_seed = {n: a.mean(axis=1) if a.ndim == 2 else a for n, a in arrays.items()}
    for name, values in per_seed.items():
        if design == "per-seed" and values.shape[0] < 2:
            raise InputError(
                f"compare_seeds: system {name!r} has {values.shape[0]} seed; Welch's t-test "
                "needs at least 2 seeds per system"
            )
    others = [n for n in names if n != base]
    m = len(others)
    # one setting for both directions: the level is Bonferroni's over the m pairs
    order = partial(
        aso,
        confidence_level=level,
        num_comparisons=m,
        num_bootstrap_iterations=n_bootstrap,
        seed=seed,
    )
    asos = {n: order(per_seed[n], per_seed[base]) for n in others}
    reverse = {n: order(per_seed[base], per_seed[n]) for n in others}
    if design == "per-unit":
        units = {n: a.mean(axis=0) for n, a in arrays.items()}
        diffs = np.vstack([units[n] - units[base] for n in others])
        pvalues = paired_pvalues(diffs, test=test, n_resamples=n_resamples, seed=seed)
        low, high = bootstrap_mean_ci(diffs, n_resamples=n_resamples, seed=seed, confidence=level)
        effect = np.atleast_1d(
            cohens_d_paired(np.vstack([units[n] for n in others]), np.vstack([units[base]] * m))
        )
        counts = [
            (int((d > 0).sum()), int((d == 0).sum()), int((d < 0).sum()), int(d.shape[0]))
            for d in diffs
        ]
    else:
        welch = [welch_ttest(per_seed[n], per_seed[base], confidence=level) for n in others]
        pvalues = np.array([w.pvalue for w in welch])
        low = np.array([w.ci[0] if w.ci else math.nan for w in welch])
        high = np.array([w.ci[1] if w.ci else math.nan for w in welch])
        effect = np.full(m, math.nan)
        counts = [(0, 0, 0, 0)] * m
    adjusted = correct(pvalues, correction=correction)
    pairs = [
        PairResult(
            system=n,
            baseline=base,
            metric=metric,
            diff=float(per_seed[n].mean() - per_seed[base].mean()),
            ci_low=float(low[i]),
            ci_high=float(high[i]),
            p_value=float(pvalues[i]),
            p_adjusted=float(adjusted[i]),
            significant=bool(adjusted[i] < alpha),
            effect_size=float(effect[i]),
            wins=counts[i][0],
            ties=counts[i][1],
            losses=counts[i][2],
            n=counts[i][3],
        )
        for i, n in enumerate(others)
    ]
    return SeedComparison(
        systems=names,
        baseline=base,
        metric=str(metric),
        design=design,
        test="t" if design == "per-seed" else test,
        correction=correction,
        alpha=alpha,
        confidence_level=level,
        scores=per_seed,
        distributions={n: seed_distribution(per_seed[n], system=n) for n in names},
        pairs=pairs,
        aso=asos,
        aso_reverse=reverse,
        provenance=provenance(
            metric=str(metric),
            baseline=base,
            design=design,
            test="welch" if design == "per-seed" else test,
            correction=correction,
            alpha=alpha,
            confidence_level=level,
            n_bootstrap=n_bootstrap,
            n_resamples=n_resamples,
            seed=seed,
            seeds={n: int(per_seed[n].shape[0]) for n in names},
        ),
    )


def compare_seeds_runs(
    qrels: Qrels | str,
    runs: Mapping[str, Sequence[Run | str]],
    metric: str,
    *,
    baseline: str | None = None,
    test: PairedTest = "t",
    correction: Correction = "holm",
    alpha: float = 0.05,
    confidence_level: float = 0.95,
    n_bootstrap: int = 1000,
    n_resamples: int = 10000,
    seed: int = 0,
) -> SeedComparison:
    """Evaluate several runs per system (one per seed) with ``metric`` and compare the
    systems over their seeds (:func:`compare_seeds` on the per-query values, (seeds,
    queries) per system: the classical test is paired over queries).

    Every run is evaluated with :func:`assay.evaluate` (its defaults: trec_eval's
    conventions, queries without results scored 0); the systems must be scored on the same
    queries.

    Parameters
    ----------
    qrels : Qrels or path
        The relevance judgments.
    runs : mapping of str to sequence of Run or path
        System name -> its runs, one per seed.
    metric : str
        One metric, e.g. "ndcg@10" or trec_eval's "ndcg_cut.10".
    baseline, test, correction, alpha, confidence_level, n_bootstrap, n_resamples, seed
        As :func:`compare_seeds` (``test``: paired over the queries).

    Returns
    -------
    SeedComparison
        As :func:`compare_seeds`, ``metric`` the metric's name.

    Examples
    --------
    >>> import assay
    >>> qrels, runs = assay.datasets.synthetic(n_queries=10, docs_per_query=8, seed=1)
    >>> r = list(runs.values())
    >>> cmp = assay.compare_seeds_runs(qrels, {"a": r[:2], "b": r[2:4]}, "ndcg@10",
    ...                                n_bootstrap=100, n_resamples=500)
    >>> cmp.systems, cmp.distributions["a"].n, cmp.pair("b").n
    (['a', 'b'], 2, 10)
    """
    from .evaluation import evaluate

    if not isinstance(runs, Mapping) or not runs:
        raise InputError("runs must be a mapping of system name to its runs (one per seed)")
    flat: dict[str, Run | str] = {}
    for name, seeds in runs.items():
        if isinstance(seeds, (str, bytes)) or not isinstance(seeds, Sequence) or not seeds:
            raise InputError(f"runs[{name!r}] must be a non-empty sequence of runs, one per seed")
        for i, run in enumerate(seeds):
            flat[f"{name}\x00{i}"] = run
    results = evaluate(qrels, flat, [metric])
    label = results.metric_names[0]
    queries: np.ndarray | None = None
    scores: dict[str, FloatArray] = {}
    for name, seeds in runs.items():
        rows = []
        for i in range(len(seeds)):
            values = results[f"{name}\x00{i}", label]
            if queries is None:
                queries = values.queries
            elif not np.array_equal(values.queries, queries):
                raise InputError(
                    f"run {i + 1} of {name!r} is scored on other queries than the first run; "
                    "every run must be scored on the same queries"
                )
            rows.append(np.asarray(values.values, dtype=np.float64))
        scores[str(name)] = np.vstack(rows)
    return compare_seeds(
        scores,
        baseline=baseline,
        metric=label,
        test=test,
        correction=correction,
        alpha=alpha,
        confidence_level=confidence_level,
        n_bootstrap=n_bootstrap,
        n_resamples=n_resamples,
        seed=seed,
    )
