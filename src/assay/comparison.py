"""``assay.compare``: means with confidence intervals, paired significance tests, multiple
comparison correction and effect sizes, for every run x metric.

With a ``baseline`` every other run is compared with it; without one, all pairs. Tests are
paired over the queries both runs have a value for (all qrels queries under the default
conventions). The family for multiple comparison correction is one metric: all comparisons
made for that metric. Randomised Tukey HSD (``test="tukey"``) controls that family itself, so
no further correction is applied to it.
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import cast

import numpy as np

from . import _options as opt
from ._options import (
    CIMethod,
    CompareTest,
    Correction,
    Missing,
    NoRelevant,
    PairedTest,
    ShortQueries,
    Ties,
)
from ._result import provenance
from .data import QrelsLike, RunLike
from .errors import ConventionError, InputError, MetricError, PowerWarning
from .evaluation import evaluate
from .metrics import Metric, parse_all
from .results import Comparison, MetricValues, PairResult, Results, RiskPair, RunSummary

__all__ = ["Comparison", "PairResult", "RunSummary", "compare", "smallest_pvalue"]


@dataclass
class _Plan:
    """Every mean that needs a CI and every difference that needs a test, in table order."""

    ci_rows: list[np.ndarray] = field(default_factory=list)
    test_rows: list[np.ndarray] = field(default_factory=list)
    runs: list[tuple[str, str, int]] = field(default_factory=list)  # (metric, run, ci row)
    # (metric, (run, baseline), ci row, test row, Tukey p-value or None)
    pairs: list[tuple[str, tuple[str, str], int, int, float | None]] = field(default_factory=list)


def _pairs(names: list[str], baseline: str | None) -> list[tuple[str, str]]:
    if baseline is not None:
        return [(r, baseline) for r in names if r != baseline]
    return [(names[j], names[i]) for i in range(len(names)) for j in range(i + 1, len(names))]


def _paired(a: MetricValues, b: MetricValues) -> np.ndarray:
    """Differences a - b over the queries both have."""
    _common, ia, ib = np.intersect1d(
        a.queries.astype(str), b.queries.astype(str), assume_unique=True, return_indices=True
    )
    return cast(np.ndarray, a.values[ia] - b.values[ib])


def _plan(
    res: Results, pair_list: list[tuple[str, str]], test: str, n_resamples: int, seed: int
) -> _Plan:
    plan = _Plan()
    for m in res.metric_names:
        per_run = {r: res[r, m] for r in res.runs}
        for r in res.runs:
            plan.runs.append((m, r, len(plan.ci_rows)))
            plan.ci_rows.append(per_run[r].values)
        tukey = (
            _tukey_pvalues(per_run, res.runs, pair_list, n_resamples, seed)
            if test == "tukey"
            else None
        )
        for k, (run, base) in enumerate(pair_list):
            d = _paired(per_run[run], per_run[base])
            p = None if tukey is None else tukey[k]
            plan.pairs.append((m, (run, base), len(plan.ci_rows), len(plan.test_rows), p))
            plan.ci_rows.append(d)
            plan.test_rows.append(d)
    return plan


def _tukey_pvalues(
    per_run: Mapping[str, MetricValues],
    names: list[str],
    pair_list: list[tuple[str, str]],
    n_resamples: int,
    seed: int,
) -> list[float]:
    from .stats import tukey_hsd

    hsd = tukey_hsd(_shared_matrix(per_run, names), n_resamples=n_resamples, seed=seed, names=names)
    pmat = np.asarray(hsd.pvalues)
    return [float(pmat[names.index(r), names.index(b)]) for r, b in pair_list]


def _by_length(rows: list[np.ndarray]) -> dict[int, list[int]]:
    """Row indices grouped by row length: each group is resampled as one batch, so the
    resamples are drawn once and shared (common random numbers)."""
    groups: dict[int, list[int]] = {}
    for i, row in enumerate(rows):
        groups.setdefault(len(row), []).append(i)
    return groups


def _pvalues(rows: list[np.ndarray], test: str, n_resamples: int, seed: int) -> np.ndarray:
    from .stats import paired_pvalues

    raw = np.full(len(rows), np.nan)
    for n, idx in _by_length(rows).items():
        if n >= 2:
            stacked = np.vstack([rows[i] for i in idx])
            raw[idx] = paired_pvalues(
                stacked, test=cast(PairedTest, test), n_resamples=n_resamples, seed=seed
            )
    return raw


def _corrected(raw: np.ndarray, plan: _Plan, metrics: list[str], correction: str) -> np.ndarray:
    """p-values corrected within each metric's family of comparisons."""
    from .stats import correct

    adjusted = raw.copy()
    for m in metrics:
        family = [t for metric, _, _, t, _ in plan.pairs if metric == m]
        values = raw[family]
        ok = ~np.isnan(values)
        if ok.any():
            fixed = values.copy()
            fixed[ok] = np.asarray(correct(values[ok], correction=cast(Correction, correction)))
            adjusted[family] = fixed
    return adjusted


def _t_ci(x: np.ndarray, confidence: float) -> tuple[np.ndarray, np.ndarray]:
    """t-based CI of the mean of each row."""
    from scipy import stats

    n = x.shape[1]
    mean = x.mean(axis=1)
    if n < 2:
        return np.full(len(x), np.nan), np.full(len(x), np.nan)
    se = x.std(axis=1, ddof=1) / np.sqrt(n)
    half = stats.t.ppf(0.5 + confidence / 2, n - 1) * se
    return mean - half, mean + half


def _cis(
    rows: list[np.ndarray], ci_method: CIMethod, n_resamples: int, seed: int, confidence: float
) -> tuple[np.ndarray, np.ndarray]:
    from .stats import bootstrap_mean_ci

    low = np.full(len(rows), np.nan)
    high = np.full(len(rows), np.nan)
    for n, idx in _by_length(rows).items():
        if n == 0:
            continue
        x = np.vstack([rows[i] for i in idx])
        if ci_method == "t":
            lo, hi = _t_ci(x, confidence)
        else:
            lo, hi = bootstrap_mean_ci(
                x, n_resamples=n_resamples, seed=seed, ci_method=ci_method, confidence=confidence
            )
        low[idx], high[idx] = np.asarray(lo, dtype=np.float64), np.asarray(hi, dtype=np.float64)
    return low, high


def _check_options(
    test: str,
    correction: str,
    ci_method: str,
    alpha: float,
    confidence: float,
    n_resamples: int,
    seed: int,
) -> tuple[CompareTest, Correction, CIMethod, float, float, int, int]:
    err = ConventionError
    return (
        cast(CompareTest, opt.choice(test, CompareTest, "test", error=err)),
        cast(
            Correction,
            opt.choice(
                correction, Correction, "correction", aliases=opt.CORRECTION_ALIASES, error=err
            ),
        ),
        cast(CIMethod, opt.choice(ci_method, CIMethod, "ci_method", error=err)),
        opt.number(alpha, "alpha", low=0, high=1, low_open=True, high_open=True, error=err),
        opt.number(
            confidence, "confidence", low=0, high=1, low_open=True, high_open=True, error=err
        ),
        opt.integer(n_resamples, "n_resamples", minimum=1, error=err),
        opt.integer(seed, "seed", minimum=0, error=err),
    )


def compare(
    qrels: QrelsLike,
    runs: RunLike | Sequence[RunLike] | Mapping[str, RunLike],
    metrics: str | Metric | Sequence[str | Metric],
    *,
    baseline: str | None = None,
    test: CompareTest = "randomization",
    n_resamples: int = 10000,
    seed: int = 0,
    correction: Correction = "holm",
    alpha: float = 0.05,
    ci_method: CIMethod = "bca",
    confidence: float = 0.95,
    ties: Ties = "docno",
    missing: Missing = "zero",
    no_relevant: NoRelevant = "zero",
    judged_only: bool = False,
    short_queries: ShortQueries = "score",
    depth: int | None = None,
    risk_alpha: float | None = None,
) -> Comparison:
    """Compare runs on metrics with paired significance tests.

    Parameters
    ----------
    qrels : Qrels
        The relevance judgments (or what :func:`assay.evaluate` takes for them).
    runs : sequence or mapping of Run
        Two or more runs (what :func:`assay.evaluate` takes); a dict names them.
    metrics : str, Metric or a sequence of them
        The metrics compared (numbers: not the text ``relstring``).
    baseline : str, optional
        Compare every other run with this one (a run's name); default: all pairs.
    test : {"randomization", "t", "wilcoxon", "sign", "bootstrap", "tukey"}
        The paired test: sign-flip randomisation (Fisher/Pitman; exact when
        2^n <= n_resamples), paired t, Wilcoxon, sign, paired bootstrap, or randomised
        Tukey HSD over all pairs (Carterette 2012; needs no correction).
    n_resamples : int
        Resamples of the randomisation, bootstrap and Tukey tests and of the intervals.
    seed : int
        Seed of every random procedure (same seed, same numbers).
    correction : {"holm", "bonferroni", "bh", "none"}
        Multiple-comparison correction of the p-values, within each metric.
    alpha : float
        Significance level of the marks.
    ci_method : {"bca", "percentile", "basic", "t"}
        Confidence intervals of the means and of the mean differences.
    confidence : float
        Level of the intervals.
    ties, missing, no_relevant, judged_only, short_queries, depth
        The conventions of :func:`assay.evaluate`.
    risk_alpha : float, optional
        Also evaluate every run against the baseline risk-sensitively: URisk and TRisk
        (:func:`assay.stats.trisk`) with losses weighted 1 + risk_alpha (>= 0; TREC's Web
        track used 1, 5 and 10). Needs a ``baseline``.

    Returns
    -------
    Comparison
        Each run's mean per metric with its interval, one :class:`~assay.stats.PairResult`
        per comparison (difference, interval, raw and corrected p, effect size, W/T/L), the
        evaluation and, with ``risk_alpha``, a :class:`~assay.results.RiskPair` per run x
        metric (``cmp.risks``). ``cmp.report()`` is what ``assay compare`` prints and
        ``cmp.html(title=...)`` what its ``--report`` writes.

    Examples
    --------
    >>> import assay
    >>> qrels = {"q1": {"d1": 1}, "q2": {"d2": 1}, "q3": {"d3": 1}}
    >>> good = {"q1": {"d1": 2.0, "x": 1.0}, "q2": {"d2": 2.0, "x": 1.0}, "q3": {"d3": 2.0}}
    >>> bad = {"q1": {"x": 2.0, "d1": 1.0}, "q2": {"x": 2.0, "d2": 1.0}, "q3": {"d3": 2.0}}
    >>> cmp = assay.compare(qrels, {"good": good, "bad": bad}, "P@1", baseline="good",
    ...                     test="t", ci_method="t")
    >>> pair = cmp.pairs[0]
    >>> pair.system, pair.baseline, round(pair.diff, 4), pair.wins, pair.losses
    ('bad', 'good', -0.6667, 0, 2)
    >>> cmp = assay.compare(qrels, {"good": good, "bad": bad}, "P@1", baseline="good",
    ...                     test="t", ci_method="t", risk_alpha=1.0)
    >>> risk = cmp.risks[0]
    >>> round(risk.urisk, 4), round(risk.trisk, 4)
    (-1.3333, -2.0)
    """
    checked = _check_options(test, correction, ci_method, alpha, confidence, n_resamples, seed)
    test, correction, ci_method, alpha, confidence, n_resamples, seed = checked
    risk = _check_risk(risk_alpha, baseline)
    wanted = metrics if isinstance(metrics, str | Metric) else list(metrics)
    text = [str(m) for m in parse_all(wanted) if m.spec.value == "text"]
    if text:
        raise MetricError(
            f"{', '.join(text)} is text, not a number: it has no mean to compare", option="metrics"
        )
    res = evaluate(
        qrels,
        runs,
        metrics,
        ties=ties,
        missing=missing,
        no_relevant=no_relevant,
        judged_only=judged_only,
        short_queries=short_queries,
        depth=depth,
    )
    names = res.runs
    _check_runs(names, baseline, test)
    plan = _plan(res, _pairs(names, baseline), test, n_resamples, seed)
    raw = np.full(len(plan.test_rows), np.nan)
    if test != "tukey":
        raw = _pvalues(plan.test_rows, test, n_resamples, seed)
    adjusted = raw if test == "tukey" else _corrected(raw, plan, res.metric_names, correction)
    low, high = _cis(plan.ci_rows, ci_method, n_resamples, seed, confidence)
    hib = {str(m): m.higher_is_better for m in res.metrics}
    pairs = []
    for m, pair, i, t, tukey in plan.pairs:
        p = (tukey, tukey) if tukey is not None else (float(raw[t]), float(adjusted[t]))
        ci = (float(low[i]), float(high[i]))
        pairs.append(
            PairResult.from_differences(
                pair[0],
                pair[1],
                m,
                plan.ci_rows[i],
                ci=ci,
                p_value=p[0],
                p_adjusted=p[1],
                alpha=alpha,
                higher_is_better=hib[m],
            )
        )
    _warn_if_powerless(pairs, test, n_resamples, correction, alpha)
    settings = provenance(
        test=test,
        n_resamples=n_resamples,
        seed=seed,
        correction=correction,
        correction_family="per metric",
        alpha=alpha,
        ci_method=ci_method,
        confidence=confidence,
        baseline=baseline,
        # Only when asked: the settings of a comparison without risk stay as they were.
        **({} if risk is None else {"risk_alpha": risk}),
        conventions=res.conventions.to_dict(),
    )
    summaries = _summaries(plan, low, high)
    risks = [] if risk is None else _risks(plan, hib, risk, confidence)
    return Comparison(
        names,
        res.metric_names,
        hib,
        baseline,
        test,
        correction,
        alpha,
        summaries,
        pairs,
        res,
        settings,
        risks,
    )


def _check_risk(risk_alpha: float | None, baseline: str | None) -> float | None:
    if risk_alpha is None:
        return None
    value = opt.risk_alpha(risk_alpha, error=ConventionError)
    if baseline is None:
        raise ConventionError(
            "risk_alpha weighs losses against a baseline: name one (baseline=...)",
            option="risk_alpha",
        )
    return value


def _risks(
    plan: _Plan, hib: Mapping[str, bool], risk_alpha: float, confidence: float
) -> list[RiskPair]:
    """URisk and TRisk of every (run, baseline) pair, on the differences the tests used,
    oriented so that a loss is a query where the run is worse by the metric's direction."""
    from .stats import trisk, urisk

    out = []
    for m, (run, base), i, _t, _p in plan.pairs:
        d = plan.ci_rows[i] if hib[m] else -plan.ci_rows[i]
        zero = np.zeros_like(d)
        if len(d) >= 2:
            res = trisk(d, zero, risk_alpha=risk_alpha, confidence=confidence)
            ci, stat, p = res.ci or (np.nan, np.nan), res.statistic, res.pvalue
        else:
            ci, stat, p = (np.nan, np.nan), np.nan, np.nan
        value = float(urisk(d, zero, risk_alpha=risk_alpha)) if len(d) else float("nan")
        wins, ties, losses = int((d > 0).sum()), int((d == 0).sum()), int((d < 0).sum())
        out.append(
            RiskPair(
                run,
                base,
                m,
                risk_alpha,
                value,
                float(ci[0]),
                float(ci[1]),
                float(stat),
                float(p),
                wins,
                ties,
                losses,
                len(d),
            )
        )
    return out


def _check_runs(names: list[str], baseline: str | None, test: str) -> None:
    if len(names) < 2:
        raise InputError("compare needs at least two runs")
    if baseline is not None and baseline not in names:
        raise InputError(f"baseline {baseline!r} is not one of the runs: {', '.join(names)}")
    if test == "tukey" and baseline is not None:
        raise ConventionError(
            "test='tukey' compares all pairs; drop the baseline or pick another test", option="test"
        )


def _summaries(plan: _Plan, low: np.ndarray, high: np.ndarray) -> list[RunSummary]:
    return [
        RunSummary(
            r,
            m,
            float(plan.ci_rows[i].mean()) if len(plan.ci_rows[i]) else float("nan"),
            float(low[i]),
            float(high[i]),
            len(plan.ci_rows[i]),
        )
        for m, r, i in plan.runs
    ]


def smallest_pvalue(test: str, n: int, n_resamples: int) -> float:
    """The smallest p-value ``test`` can give on ``n`` paired values: 2 / 2^n for the exact
    sign-flip, sign and Wilcoxon tests (only the observed signs and their mirror image are as
    extreme), 1 / (N + 1) for a Monte Carlo test of N resamples, 0 for the t-test."""
    if test == "t":
        return 0.0
    exact = 2.0 ** (1 - n) if n >= 1 else 1.0
    if test in ("sign", "wilcoxon"):
        return exact if test == "sign" or n <= 50 else 0.0
    if test == "randomization" and 2**n <= n_resamples:
        return exact
    return max(1.0 / (n_resamples + 1), exact if test == "randomization" else 0.0)


def _warn_if_powerless(
    pairs: list[PairResult], test: str, n_resamples: int, correction: str, alpha: float
) -> None:
    """Warn when a metric's comparisons cannot be significant whatever the data: too few
    queries for the test (3 queries: no two-sided sign-flip p below 0.25)."""
    for metric in dict.fromkeys(p.metric for p in pairs):
        family = [p for p in pairs if p.metric == metric]
        m = len(family) if correction in ("holm", "bonferroni") and test != "tukey" else 1
        n = min(p.n for p in family)
        floor = min(1.0, m * smallest_pvalue(test, n, n_resamples))
        if floor > alpha:
            how = f" after the {correction} correction over {m} comparisons" if m > 1 else ""
            warnings.warn(
                f"{metric}: with {n} queries the {test} test cannot give a p-value below "
                f"{floor:.3g}{how}, so no difference can be significant at alpha={alpha}",
                PowerWarning,
                stacklevel=3,
            )


def _shared_matrix(per_run: Mapping[str, MetricValues], names: list[str]) -> np.ndarray:
    """(queries x runs) values over the queries every run has."""
    common = None
    for r in names:
        q = set(per_run[r].queries.astype(str).tolist())
        common = q if common is None else common & q
    keep = sorted(common or ())
    cols = []
    for r in names:
        values = per_run[r]
        lookup = dict(zip(values.queries.astype(str).tolist(), values.values.tolist(), strict=True))
        cols.append([lookup[q] for q in keep])
    return np.asarray(cols, dtype=np.float64).T
