"""``assay.compare``: means with confidence intervals, paired significance tests, multiple
comparison correction and effect sizes, for every run x metric.

With a ``baseline`` every other run is compared with it; without one, all pairs. Tests are
paired over the queries both runs have a value for (all qrels queries under the default
conventions). The family for multiple comparison correction is one metric: all comparisons
made for that metric. Randomised Tukey HSD (``test="tukey"``) controls that family itself, so
no further correction is applied to it.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from .data import Qrels, Run
from .errors import ConventionError, InputError
from .metrics import Metric

if TYPE_CHECKING:
    import pandas as pd

    from .evaluation import Results

TESTS = ("randomization", "t", "wilcoxon", "sign", "bootstrap", "tukey")
CORRECTIONS = ("holm", "bonferroni", "bh", "none")
CI_METHODS = ("bca", "percentile", "basic", "t")


@dataclass(frozen=True)
class RunSummary:
    """One run x metric: the mean over queries and its confidence interval."""

    run: str
    metric: str
    mean: float
    ci_low: float
    ci_high: float
    n: int


@dataclass(frozen=True)
class PairResult:
    """One comparison: ``run`` against ``baseline`` on ``metric`` (diff = run - baseline)."""

    run: str
    baseline: str
    metric: str
    diff: float
    ci_low: float
    ci_high: float
    p_value: float
    p_adjusted: float
    effect_size: float
    wins: int
    ties: int
    losses: int
    n: int
    significant: bool

    @property
    def direction(self) -> int:
        """+1 if ``run`` is significantly better than ``baseline``, -1 if worse, 0 if neither."""
        return 0 if not self.significant else (1 if self.diff > 0 else -1)


@dataclass
class Comparison:
    """Everything :func:`compare` found, with the settings that produced it."""

    runs: list[str]
    metrics: list[str]
    higher_is_better: dict[str, bool]
    baseline: str | None
    test: str
    correction: str
    alpha: float
    summaries: list[RunSummary]
    pairs: list[PairResult]
    results: Results
    settings: dict[str, Any] = field(default_factory=dict)

    def summary(self, run: str, metric: str) -> RunSummary:
        for s in self.summaries:
            if s.run == run and s.metric == metric:
                return s
        raise KeyError((run, metric))

    def pair(self, run: str, baseline: str, metric: str) -> PairResult:
        for p in self.pairs:
            if p.metric == metric and {p.run, p.baseline} == {run, baseline}:
                return p
        raise KeyError((run, baseline, metric))

    def letters(self) -> dict[str, str]:
        """Run -> its marker letter (a, b, c, ...) in all-pairs tables."""
        return {r: _letter(i) for i, r in enumerate(self.runs)}

    def markers(self, run: str, metric: str) -> str:
        """Compact significance markers for tables.

        With a baseline: ``▲`` significantly better than the baseline, ``▼`` significantly
        worse (direction from the metric's declaration). Without one: the letters of the runs
        this run is significantly better than.
        """
        better_high = self.higher_is_better.get(metric, True)
        if self.baseline is not None:
            for p in self.pairs:
                if p.run == run and p.metric == metric and p.significant:
                    return "▲" if (p.diff > 0) == better_high else "▼"
            return ""
        letters = self.letters()
        out = []
        for p in self.pairs:
            if p.metric != metric or not p.significant:
                continue
            run_better = (p.diff > 0) == better_high
            if p.run == run and run_better:
                out.append(letters[p.baseline])
            elif p.baseline == run and not run_better:
                out.append(letters[p.run])
        return "".join(sorted(out))

    def records(self) -> Iterator[dict[str, Any]]:
        """Machine-readable rows: one per run x metric (``baseline`` None, ``value`` the mean)
        and one per comparison (``value`` the mean difference run - baseline)."""
        for s in self.summaries:
            yield {
                "run": s.run,
                "metric": s.metric,
                "query": "all",
                "value": s.mean,
                "ci_low": s.ci_low,
                "ci_high": s.ci_high,
                "n": s.n,
                "baseline": None,
                "p_value": None,
                "p_adjusted": None,
            }
        for p in self.pairs:
            yield {
                "run": p.run,
                "metric": p.metric,
                "query": "all",
                "value": p.diff,
                "ci_low": p.ci_low,
                "ci_high": p.ci_high,
                "n": p.n,
                "baseline": p.baseline,
                "p_value": p.p_value,
                "p_adjusted": p.p_adjusted,
                "effect_size": p.effect_size,
                "wins": p.wins,
                "ties": p.ties,
                "losses": p.losses,
                "significant": p.significant,
            }

    def to_pandas(self) -> pd.DataFrame:
        from ._optional import require

        pd_ = require("pandas")
        return pd_.DataFrame(list(self.records()))

    def __repr__(self) -> str:
        head = (
            f"Comparison({len(self.runs)} runs x {len(self.metrics)} metrics, test={self.test}, "
            f"correction={self.correction}, alpha={self.alpha}, "
            f"{'baseline=' + repr(self.baseline) if self.baseline else 'all pairs'})"
        )
        lines = [head]
        for m in self.metrics:
            for r in self.runs:
                s = self.summary(r, m)
                lines.append(
                    f"  {m:>14} {r}: {s.mean:.4f} [{s.ci_low:.4f}, {s.ci_high:.4f}] "
                    f"{self.markers(r, m)}"
                )
        return "\n".join(lines)


def _letter(i: int) -> str:
    out = ""
    i += 1
    while i:
        i, rem = divmod(i - 1, 26)
        out = chr(ord("a") + rem) + out
    return out


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


def _mean_cis(
    x: np.ndarray, method: str, n_resamples: int, seed: int, confidence: float
) -> tuple[np.ndarray, np.ndarray]:
    if x.shape[1] == 0:
        return np.full(len(x), np.nan), np.full(len(x), np.nan)
    if method == "t":
        return _t_ci(x, confidence)
    from .stats import bootstrap_mean_ci

    low, high = bootstrap_mean_ci(
        x, n_resamples=n_resamples, seed=seed, method=method, confidence=confidence
    )
    return np.asarray(low, dtype=np.float64), np.asarray(high, dtype=np.float64)


def compare(
    qrels: Qrels,
    runs: Run | Sequence[Run] | Mapping[str, Run],
    metrics: str | Metric | Sequence[str | Metric],
    baseline: str | None = None,
    test: str = "randomization",
    n_resamples: int = 10000,
    seed: int = 0,
    correction: str = "holm",
    alpha: float = 0.05,
    ci: str = "bca",
    confidence: float = 0.95,
    **conventions: Any,
) -> Comparison:
    """Compare runs on metrics with paired significance tests.

    ``test``: "randomization" (paired sign-flip, Fisher/Pitman; exact when 2^n <= n_resamples),
    "t" (paired t), "wilcoxon", "sign", "bootstrap" (paired bootstrap), or "tukey" (randomised
    Tukey HSD over all pairs, Carterette 2012). ``correction``: "holm", "bonferroni", "bh",
    "none", within each metric. ``ci``: "bca", "percentile", "basic" (bootstrap) or "t", for
    means and mean differences. ``conventions`` as :func:`assay.evaluate`.
    """
    from .evaluation import evaluate
    from .stats import cohens_d_paired, correct, paired_pvalues

    if test not in TESTS:
        raise ConventionError(f"test={test!r} is not one of {', '.join(TESTS)}")
    if correction not in CORRECTIONS:
        raise ConventionError(f"correction={correction!r} is not one of {', '.join(CORRECTIONS)}")
    if ci not in CI_METHODS:
        raise ConventionError(f"ci={ci!r} is not one of {', '.join(CI_METHODS)}")
    if not 0 < alpha < 1:
        raise ConventionError(f"alpha must lie in (0, 1), got {alpha!r}")
    if not 0 < confidence < 1:
        raise ConventionError(f"confidence must lie in (0, 1), got {confidence!r}")
    if isinstance(n_resamples, bool) or not isinstance(n_resamples, int) or n_resamples < 1:
        raise ConventionError(f"n_resamples must be a positive integer, got {n_resamples!r}")
    res = evaluate(qrels, runs, metrics, **conventions)
    names = res.runs
    if len(names) < 2:
        raise InputError("compare needs at least two runs")
    if baseline is not None and baseline not in names:
        raise InputError(f"baseline {baseline!r} is not one of the runs: {', '.join(names)}")
    if test == "tukey" and baseline is not None:
        raise ConventionError(
            "test='tukey' compares all pairs; drop the baseline or pick another test"
        )
    if baseline is not None:
        pair_list = [(r, baseline) for r in names if r != baseline]
    else:
        pair_list = [
            (names[j], names[i]) for i in range(len(names)) for j in range(i + 1, len(names))
        ]

    hib = {str(m): m.higher_is_better for m in res.metrics}
    # Every mean that needs a confidence interval (each run's and each pair's difference, for
    # every metric) is collected first and bootstrapped in one batch per query count: the
    # resamples are drawn once and shared (common random numbers), which is also what makes
    # the intervals of different metrics comparable.
    ci_rows: list[np.ndarray] = []
    test_rows: list[np.ndarray] = []
    plan: list[tuple[str, str, Any, Any]] = []  # (kind, metric, key, payload)
    for m in res.metric_names:
        per_run = {r: res[r, m] for r in names}
        for r in names:
            plan.append(("run", m, r, len(ci_rows)))
            ci_rows.append(per_run[r].values)
        # Paired differences over the queries both runs have.
        diffs: list[np.ndarray] = []
        for run, base in pair_list:
            a, b = per_run[run], per_run[base]
            _common, ia, ib = np.intersect1d(
                a.queries.astype(str),
                b.queries.astype(str),
                assume_unique=True,
                return_indices=True,
            )
            diffs.append(a.values[ia] - b.values[ib])
        if test == "tukey":
            from .stats import tukey_hsd

            hsd = tukey_hsd(
                _shared_matrix(per_run, names), n_resamples=n_resamples, seed=seed, names=names
            )
            pmat = np.asarray(hsd.pvalues)
            tukey_p = [float(pmat[names.index(r), names.index(bs)]) for r, bs in pair_list]
        for k, ((run, base), d) in enumerate(zip(pair_list, diffs, strict=True)):
            plan.append(
                (
                    "pair",
                    m,
                    (run, base),
                    (len(ci_rows), d, len(test_rows), tukey_p[k] if test == "tukey" else None),
                )
            )
            ci_rows.append(d)
            test_rows.append(d)
    # p-values: one batch per query count, so the resamples are drawn once for all metrics.
    raw_p = np.full(len(test_rows), np.nan)
    if test != "tukey":
        groups: dict[int, list[int]] = {}
        for i, row in enumerate(test_rows):
            groups.setdefault(len(row), []).append(i)
        for n, idx in groups.items():
            if n < 2:
                continue
            raw_p[idx] = paired_pvalues(
                np.vstack([test_rows[i] for i in idx]),
                test=test,
                n_resamples=n_resamples,
                seed=seed,
            )
    # Multiple-comparison correction within each metric's family.
    adj_p = raw_p.copy()
    if test != "tukey":
        for m in res.metric_names:
            fam = [e[3][2] for e in plan if e[0] == "pair" and e[1] == m]
            vals = raw_p[fam]
            ok = ~np.isnan(vals)
            if ok.any():
                fixed = vals.copy()
                fixed[ok] = np.asarray(correct(vals[ok], method=correction))
                adj_p[fam] = fixed
    low = np.full(len(ci_rows), np.nan)
    high = np.full(len(ci_rows), np.nan)
    by_n: dict[int, list[int]] = {}
    for i, row in enumerate(ci_rows):
        by_n.setdefault(len(row), []).append(i)
    for n, idx in by_n.items():
        if n == 0:
            continue
        lo, hi = _mean_cis(np.vstack([ci_rows[i] for i in idx]), ci, n_resamples, seed, confidence)
        low[idx], high[idx] = lo, hi
    summaries: list[RunSummary] = []
    pairs: list[PairResult] = []
    for kind, m, key, payload in plan:
        if kind == "run":
            v = ci_rows[payload]
            summaries.append(
                RunSummary(
                    key,
                    m,
                    float(v.mean()) if len(v) else float("nan"),
                    float(low[payload]),
                    float(high[payload]),
                    len(v),
                )
            )
            continue
        i, d, t, tukey = payload
        p_raw = tukey if tukey is not None else float(raw_p[t])
        p_adj = tukey if tukey is not None else float(adj_p[t])
        pairs.append(
            PairResult(
                run=key[0],
                baseline=key[1],
                metric=m,
                diff=float(d.mean()) if len(d) else float("nan"),
                ci_low=float(low[i]),
                ci_high=float(high[i]),
                p_value=p_raw,
                p_adjusted=p_adj,
                effect_size=float(cohens_d_paired(d, np.zeros_like(d)))
                if len(d) > 1
                else float("nan"),
                wins=int((d > 0).sum()),
                ties=int((d == 0).sum()),
                losses=int((d < 0).sum()),
                n=len(d),
                significant=bool(p_adj < alpha),
            )
        )
    settings = {
        "test": test,
        "n_resamples": n_resamples,
        "seed": seed,
        "correction": correction,
        "correction_family": "per metric",
        "alpha": alpha,
        "ci": ci,
        "confidence": confidence,
        "baseline": baseline,
        "conventions": res.conventions.to_dict(),
        "assay_version": res.provenance.get("assay_version"),
    }
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
    )


def _shared_matrix(per_run: Mapping[str, Any], names: list[str]) -> np.ndarray:
    """(queries x runs) values over the queries every run has."""
    common = None
    for r in names:
        q = set(per_run[r].queries.astype(str).tolist())
        common = q if common is None else common & q
    keep = sorted(common or ())
    cols = []
    for r in names:
        lookup = dict(
            zip(per_run[r].queries.astype(str).tolist(), per_run[r].values.tolist(), strict=True)
        )
        cols.append([lookup[q] for q in keep])
    return np.asarray(cols, dtype=np.float64).T
