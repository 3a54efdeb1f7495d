"""Several systems on the same references: corpus scores with bootstrap confidence
intervals, and every system against a baseline by sacrebleu's paired tests.

The procedures are sacrebleu's (``sacrebleu/significance.py``, ``--paired-bs`` and
``--paired-ar``), applied to the per-item sufficient statistics of each metric, so that for
the same seed and number of resamples the p-values, bootstrap means and intervals are
sacrebleu's to the last bit (tested against sacrebleu itself). With n items and N resamples:

- **paired bootstrap resampling** (Koehn 2004; ``test="bootstrap"``, N = 1000 by default):
  one index matrix ``numpy.random.default_rng(seed).choice(n, (N, n))`` is drawn and reused
  for every system and metric; each row is a resampled corpus whose score is computed from
  its summed statistics (summed in float32, as sacrebleu). For system S and baseline B,
  with δ_b = |S*_b - B*_b| and Δ = |S - B| (the actual scores),
  p = (#{b : δ_b - mean(δ) > Δ} + 1) / (N + 1).
- **paired approximate randomisation** (Riezler & Maxwell 2005; ``test="randomization"``,
  N = 10000 by default): for each system, ``default_rng(seed).integers(2, (N, n))`` decides
  which items swap their outputs between S and B; p = (#{|A_b - B_b| > Δ} + 1) / (N + 1)
  over the two shuffled pseudo-systems A_b, B_b.

Intervals: the bootstrap scores of each system (the test's draws with ``"bootstrap"``, 1000
draws from the same seed with ``"randomization"``), their mean (sacrebleu's "μ") and the
order statistics at ⌊N(1 - c)/2⌋ and N - 1 - that (sacrebleu's 95 % interval for c = 0.95;
sacrebleu prints half their distance as "± CI"). ROUGE metrics go through the same
procedures with their per-item F-measures as statistics (their corpus score is the mean).

Differences from sacrebleu, both deliberate: ``seed`` is an argument (sacrebleu reads the
``SACREBLEU_SEED`` environment variable, default 12345, which is also the default here) and
``seed=0`` is the seed 0 (sacrebleu treats 0 as "no seed"); the p-values of the systems are
also corrected for multiple comparisons (Holm by default) for the significance markers.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, cast

import numpy as np

from .. import _options as opt
from .._options import Correction
from .._result import Result, provenance
from ..errors import InputError
from ..report.reported import Reported
from ..stats.pairs import PairResult
from ._corpus import GenerationScore, score_system
from ._scorers import GenerationMetric, Scorer, as_hypotheses, as_streams, build, metric
from .options import GenerationTest

if TYPE_CHECKING:
    from ..report.document import Document
    from ..report.output import Report

#: sacrebleu's defaults: resamples per test, and the seed (SACREBLEU_SEED).
DEFAULT_RESAMPLES = {"bootstrap": 1000, "randomization": 10000}
SACREBLEU_SEED = 12345
#: Bootstrap draws for the intervals of the randomisation test (sacrebleu's bootstrap default).
CI_RESAMPLES = 1000


@dataclass(frozen=True)
class SystemScore:
    """One system and metric: the corpus ``score``, the bootstrap ``mean`` and interval
    (``ci_low``, ``ci_high``), and ``pair``: the system against the baseline (a
    :class:`~assay.stats.PairResult`: the difference of the scores, the test's p-value, the
    corrected p-value and whether it is significant, p_adjusted < alpha; ``None`` for the
    baseline itself). ``pvalue``, ``p_adjusted``, ``significant``, ``better`` and
    ``direction`` read the pair. The rows of a :class:`SystemComparison`.

    Parameters
    ----------
    system : str
        The system's name.
    metric : str
        The metric, as ``str()`` of a :class:`GenerationMetric`.
    score : float
        The corpus score.
    mean : float
        The mean of the bootstrap scores.
    ci_low, ci_high : float
        The bootstrap interval of the score.
    pair : PairResult, optional
        The system against the baseline; None for the baseline.

    Examples
    --------
    >>> from assay.generation import compare_systems
    >>> refs = ["the cat sat on the mat", "a dog ran in the park", "it is raining today"]
    >>> cmp = compare_systems(
    ...     refs,
    ...     {"base": ["the cat sat", "a dog ran", "it rains"], "new": refs},
    ...     metrics=["chrf"],
    ...     n_resamples=100,
    ... )
    >>> row = cmp["new", "chrf"]
    >>> row.score, row.better, row.significant, row.direction, cmp["base", "chrf"].pair
    (100.0, True, True, 1, None)
    """

    system: str
    metric: str
    score: float
    mean: float
    ci_low: float
    ci_high: float
    pair: PairResult | None = None

    @property
    def pvalue(self) -> float | None:
        """The test's p-value against the baseline (None for the baseline)."""
        return None if self.pair is None else self.pair.p_value

    @property
    def p_adjusted(self) -> float | None:
        """The corrected p-value (None for the baseline)."""
        return None if self.pair is None else self.pair.p_adjusted

    @property
    def significant(self) -> bool:
        """Whether ``p_adjusted < alpha`` (False for the baseline)."""
        return self.pair is not None and self.pair.significant

    @property
    def better(self) -> bool | None:
        """Whether the score is better than the baseline's by the metric's direction (None
        if equal, and for the baseline)."""
        return None if self.pair is None else self.pair.better

    @property
    def halfwidth(self) -> float:
        """Half the interval's width (sacrebleu's "± CI")."""
        return 0.5 * (self.ci_high - self.ci_low)

    @property
    def direction(self) -> int:
        """+1 if significantly better than the baseline, -1 if worse, 0 otherwise."""
        return 0 if self.pair is None else self.pair.direction


@dataclass(frozen=True, eq=False, repr=False)
class SystemComparison(Result, Reported):
    """Scores of several systems on the same references with intervals and paired tests
    against ``baseline`` (see the module docstring). ``rows`` holds one :class:`SystemScore`
    per system and metric (systems in input order, metrics in the order asked);
    ``scores[(system, metric)]`` the :class:`GenerationScore` with per-item values;
    ``signatures[metric]`` sacrebleu's signature with the test's settings (rouge-score's
    settings for ROUGE). ``pairs``: every system but the baseline against it, per metric
    (:class:`~assay.stats.PairResult`). ``records()``: one row per system and metric.

    :meth:`report` is the table ``assay generation`` prints and :meth:`html` the page its
    ``--report`` writes (for the same title). Made by :func:`compare_systems`.

    Parameters
    ----------
    systems : list of str
        The systems' names, in input order.
    metrics : list of str
        The metrics, as ``str()`` of :class:`GenerationMetric`, in the order asked.
    baseline : str
        The system every other is tested against.
    test : str
        ``bootstrap`` or ``randomization``.
    correction : str
        The correction of each metric's p-values (holm, bonferroni, bh, none).
    alpha : float
        The significance level.
    rows : list of SystemScore
        One per system and metric (metrics in the order asked, then systems).
    scores : mapping of (str, str) to GenerationScore
        Per (system, metric), the score with per-item values.
    signatures : mapping of str to str
        Per metric, sacrebleu's signature with the test's settings (rouge-score's settings
        for ROUGE).
    provenance : mapping of str to any, optional
        assay's and Python's versions, the test's settings, the metrics and backends.

    Examples
    --------
    >>> from assay.generation import compare_systems
    >>> refs = ["the cat sat on the mat", "a dog ran in the park", "it is raining today"]
    >>> cmp = compare_systems(
    ...     refs,
    ...     {"base": ["the cat sat", "a dog ran", "it rains"], "new": refs},
    ...     metrics=["chrf"],
    ...     n_resamples=100,
    ... )
    >>> cmp.baseline, cmp.systems, cmp.metrics
    ('base', ['base', 'new'], ['chrf'])
    >>> repr(cmp).splitlines()[1:]
    ['  base chrf: 35.34', '  new chrf: 100 (diff +64.66, p_adjusted 0.009901▲)']
    >>> [(r["system"], r["significant"]) for r in cmp.records()]
    [('base', False), ('new', True)]
    """

    family = "generation"

    systems: list[str]
    metrics: list[str]
    baseline: str
    test: str
    correction: str
    alpha: float
    rows: list[SystemScore]
    scores: Mapping[tuple[str, str], GenerationScore]
    signatures: Mapping[str, str]
    provenance: Mapping[str, Any] = field(default_factory=dict)  # Any: settings of every type

    def __getitem__(self, key: tuple[str, str]) -> SystemScore:
        for row in self.rows:
            if (row.system, row.metric) == key:
                return row
        raise KeyError(key)

    @property
    def pairs(self) -> list[PairResult]:
        """Every system but the baseline against it, per metric (metrics in the order asked,
        then systems in input order)."""
        return [row.pair for row in self.rows if row.pair is not None]

    def pair(self, system: str, metric: str) -> PairResult:
        """``system`` against the baseline on ``metric``."""
        found = self[system, metric].pair
        if found is None:
            raise KeyError(f"{system!r} is the baseline")
        return found

    def __repr__(self) -> str:
        """One line per system and metric: the score and, against the baseline, the
        difference and the corrected p-value (one screen at most)."""
        from .._result import REPR_LIMIT

        lines = [
            f"SystemComparison(baseline={self.baseline!r}, test={self.test!r}, "
            f"correction={self.correction!r}, alpha={self.alpha}, {len(self.systems)} systems, "
            f"{len(self.metrics)} metrics)"
        ]
        for row in self.rows:
            text = f"  {row.system} {row.metric}: {row.score:.4g}"
            if row.pair is not None:
                mark = self.marker(row.system, row.metric)
                text += f" (diff {row.pair.diff:+.4g}, p_adjusted {row.pair.p_adjusted:.4g}{mark})"
            lines.append(text)
        shown = "\n".join(lines)
        return shown if len(shown) <= REPR_LIMIT else shown[: REPR_LIMIT - 1] + "…"

    def marker(self, system: str, metric: str) -> str:
        """``▲`` significantly better than the baseline, ``▼`` significantly worse, else ""."""
        return {1: "▲", -1: "▼", 0: ""}[self[system, metric].direction]

    def records(self) -> list[dict[str, Any]]:
        """One row per system and metric: the score, the interval, the p-values against the
        baseline (NaN for the baseline) and whether the difference is significant."""
        return [
            {
                "system": r.system,
                "metric": r.metric,
                "baseline": r.system == self.baseline,
                "score": r.score,
                "mean": r.mean,
                "ci_low": r.ci_low,
                "ci_high": r.ci_high,
                "pvalue": math.nan if r.pvalue is None else r.pvalue,
                "p_adjusted": math.nan if r.p_adjusted is None else r.p_adjusted,
                "significant": r.significant,
            }
            for r in self.rows
        ]

    def report(self) -> Report:
        """Systems x metrics (see :func:`~assay.generation.generation_report`)."""
        from .report import generation_report

        return generation_report(self)

    def document(self) -> Document:
        from ..report.sections_tasks import tables_document

        return tables_document("Generation", self.family, self.report())


# ---------------------------------------------------------------- resampling


def bootstrap_indices(n: int, n_resamples: int, seed: int) -> np.ndarray:
    """sacrebleu's resample indices: ``default_rng(seed).choice(n, (N, n), replace=True)``."""
    rng = np.random.default_rng(seed)
    return rng.choice(n, size=(n_resamples, n), replace=True)


def bootstrap_scores(scorer: Scorer, stats: list[list[Any]], idxs: np.ndarray) -> np.ndarray:
    """The score of every resampled corpus (statistics summed in the scorer's bootstrap
    dtype, row by row, as sacrebleu)."""
    arr = np.array(stats, dtype=scorer.bootstrap_dtype)
    return np.array([scorer.score(arr[row].sum(0)) for row in idxs])


def interval(boot: np.ndarray, confidence: float) -> tuple[float, float, float]:
    """Mean and the order-statistic interval of bootstrap scores (sacrebleu's estimate_ci
    for confidence 0.95: indices N // 40 and N - N // 40 - 1)."""
    srt = np.sort(boot)
    n = srt.shape[0]
    lower = min(math.floor(n * (1.0 - confidence) / 2.0 + 1e-9), n - 1)
    upper = max(n - lower - 1, lower)
    return float(srt.mean()), float(srt[lower]), float(srt[upper])


def bootstrap_pvalue(sys_boot: np.ndarray, base_boot: np.ndarray, delta: float) -> float:
    diffs = np.abs(sys_boot - base_boot)
    centred = diffs - diffs.mean()
    return cast(float, (int(np.sum(centred > delta)) + 1) / (centred.shape[0] + 1))


def randomization_pvalue(
    scorer: Scorer,
    base_stats: list[list[Any]],
    sys_stats: list[list[Any]],
    delta: float,
    n_resamples: int,
    seed: int,
) -> float:
    """sacrebleu's paired approximate randomisation p-value of one system."""
    rng = np.random.default_rng(seed)
    pos = rng.integers(2, size=(n_resamples, len(sys_stats)), dtype=bool)
    neg = ~pos
    base, system = np.asarray(base_stats), np.asarray(sys_stats)
    shuf_a = pos @ base + neg @ system
    shuf_b = neg @ base + pos @ system
    scores_a = np.array([scorer.score(x) for x in shuf_a])
    scores_b = np.array([scorer.score(x) for x in shuf_b])
    stat = np.abs(scores_a - scores_b)
    return cast(float, (int(np.sum(stat > delta)) + 1) / (stat.shape[0] + 1))


# ---------------------------------------------------------------- compare


def _named_systems(systems: Any) -> dict[str, list[str]]:
    if isinstance(systems, Mapping):
        items = [(str(k), v) for k, v in systems.items()]
    elif isinstance(systems, str) or not isinstance(systems, Sequence):
        raise InputError("systems must be a mapping name -> hypotheses, or a list of them")
    else:
        items = [(f"system{i + 1}", v) for i, v in enumerate(systems)]
    if not items:
        raise InputError("no system given")
    return {name: as_hypotheses(h, f"hypotheses of {name!r}") for name, h in items}


def _check(
    test: Any, n_resamples: Any, seed: Any, confidence: Any, correction: Any, alpha: Any
) -> tuple[GenerationTest, int, int, float, Correction, float]:
    test = cast(GenerationTest, opt.choice(test, GenerationTest, "test"))
    n = DEFAULT_RESAMPLES[test] if n_resamples is None else opt.n_resamples(n_resamples)
    corr = opt.choice(correction, Correction, "correction", aliases=opt.CORRECTION_ALIASES)
    return (
        test,
        n,
        opt.seed(seed),
        opt.confidence(confidence),
        cast(Correction, corr),
        opt.alpha(alpha),
    )


def _metric_rows(
    spec: GenerationMetric,
    named: dict[str, list[str]],
    streams: Any,
    base: str,
    settings: tuple[str, int, int, float],
) -> tuple[list[SystemScore], dict[str, GenerationScore], str, list[float]]:
    """Scores, intervals and raw p-values of every system on one metric (p-values in the
    order of the non-baseline systems)."""
    test, n_resamples, seed, confidence = settings
    scorer = build(spec, streams)
    stats = {name: scorer.statistics(h) for name, h in named.items()}
    scores = {name: score_system(scorer, named[name], stats[name]) for name in named}
    n = len(next(iter(named.values())))
    idxs = bootstrap_indices(n, n_resamples if test == "bootstrap" else CI_RESAMPLES, seed)
    boots = {name: bootstrap_scores(scorer, stats[name], idxs) for name in named}
    pvalues: dict[str, float] = {}
    for name in named:
        if name == base:
            continue
        delta = abs(scores[base].score - scores[name].score)
        if test == "bootstrap":
            pvalues[name] = bootstrap_pvalue(boots[name], boots[base], delta)
        else:
            pvalues[name] = randomization_pvalue(
                scorer, stats[base], stats[name], delta, n_resamples, seed
            )
    rows = []
    for name in named:
        mean, low, high = interval(boots[name], confidence)
        rows.append(SystemScore(name, str(spec), scores[name].score, mean, low, high))
    key = "bs" if test == "bootstrap" else "ar"
    signature = scorer.signature(seed=seed, **{key: n_resamples})
    return rows, scores, signature, [pvalues[m] for m in named if m != base]


def compare_systems(
    references: Sequence[str] | Sequence[Sequence[str | None]],
    systems: Mapping[str, Sequence[str]] | Sequence[Sequence[str]],
    *,
    metrics: str | GenerationMetric | Sequence[str | GenerationMetric] = ("bleu", "chrf"),
    baseline: str | None = None,
    test: GenerationTest = "bootstrap",
    n_resamples: int | None = None,
    seed: int = SACREBLEU_SEED,
    confidence: float = 0.95,
    correction: Correction = "holm",
    alpha: float = 0.05,
) -> SystemComparison:
    """Score several systems' outputs (``systems``: name -> hypotheses, or a list named
    system1, system2, ...) against the same ``references`` (one stream or several) with
    each of ``metrics`` (names or :func:`metric` objects), with bootstrap intervals and a
    paired test of every system against ``baseline`` (default: the first system).

    ``test``: ``"bootstrap"`` (sacrebleu's ``--paired-bs``) or ``"randomization"``
    (``--paired-ar``); ``n_resamples`` defaults to sacrebleu's 1000 and 10000; ``seed`` to
    sacrebleu's 12345. For each metric the p-values of the systems are corrected together
    (``correction``: holm, bonferroni, bh, none); ``significant`` is p_adjusted < ``alpha``.
    See the module docstring for the exact procedures.

    Parameters
    ----------
    references
        One stream (a sequence of strings, one per item) or several (sacrebleu's layout).
    systems
        name -> hypotheses (one string per item), or a list of them.
    metrics
        Names or :func:`metric` objects (default: BLEU and chrF).
    baseline
        The system every other is tested against (default: the first).
    test, n_resamples, seed, confidence, correction, alpha
        The paired test, its resamples and seed, the intervals' confidence, the correction
        of the p-values and the significance level.

    Returns
    -------
    SystemComparison
        Scores, intervals and every system against the baseline
        (:class:`~assay.stats.PairResult`); ``report()`` and ``html()`` are what ``assay
        generation`` prints and writes.

    Examples
    --------
    >>> from assay.generation import compare_systems
    >>> refs = ["the cat sat on the mat", "a dog ran in the park", "it is raining today"]
    >>> cmp = compare_systems(
    ...     references=refs,
    ...     systems={"base": ["the cat sat", "a dog ran", "it rains"], "new": refs},
    ...     metrics=["chrf"],
    ...     n_resamples=100,
    ... )
    >>> [(p.system, p.baseline, p.diff > 0) for p in cmp.pairs]
    [('new', 'base', True)]
    """
    named = _named_systems(systems)
    n = len(next(iter(named.values())))
    for name, hyps in named.items():
        if len(hyps) != n:
            first = next(iter(named))
            raise InputError(f"system {name!r} has {len(hyps)} segments but {first!r} has {n}")
    streams = as_streams(references, n)
    specs = [
        metric(m) for m in ([metrics] if isinstance(metrics, str | GenerationMetric) else metrics)
    ]
    if not specs:
        raise InputError("no metric given")
    test, n_resamples, seed, confidence, correction, alpha = _check(
        test, n_resamples, seed, confidence, correction, alpha
    )
    base = next(iter(named)) if baseline is None else baseline
    if base not in named:
        raise InputError(f"baseline {base!r} is not one of the systems ({', '.join(named)})")
    return _compare(
        named, streams, specs, base, (test, n_resamples, seed, confidence), correction, alpha
    )


def _compare(
    named: dict[str, list[str]],
    streams: Any,
    specs: list[GenerationMetric],
    base: str,
    settings: tuple[str, int, int, float],
    correction: str,
    alpha: float,
) -> SystemComparison:
    from ..stats import correct

    rows: list[SystemScore] = []
    scores: dict[tuple[str, str], GenerationScore] = {}
    signatures: dict[str, str] = {}
    for spec in dict.fromkeys(specs):
        metric_rows, metric_scores, signature, raw = _metric_rows(
            spec, named, streams, base, settings
        )
        adjusted = iter(
            correct(np.array(raw), correction=cast(Correction, correction)).tolist() if raw else []
        )
        p_values = iter(raw)
        base_score = metric_scores[base].score
        for row in metric_rows:
            if row.system != base:
                p_adj = float(next(adjusted))
                pair = PairResult(
                    system=row.system,
                    baseline=base,
                    metric=row.metric,
                    diff=row.score - base_score,
                    ci_low=math.nan,
                    ci_high=math.nan,
                    p_value=next(p_values),
                    p_adjusted=p_adj,
                    significant=p_adj < alpha,
                    higher_is_better=spec.higher_is_better,
                )
                row = replace(row, pair=pair)
            rows.append(row)
        scores.update({(name, str(spec)): s for name, s in metric_scores.items()})
        signatures[str(spec)] = signature
    test, n_resamples, seed, confidence = settings
    return SystemComparison(
        systems=list(named),
        metrics=[str(s) for s in dict.fromkeys(specs)],
        baseline=base,
        test=test,
        correction=correction,
        alpha=alpha,
        rows=rows,
        scores=scores,
        signatures=signatures,
        provenance=provenance(
            test=test,
            n_resamples=n_resamples,
            seed=seed,
            confidence=confidence,
            correction=correction,
            alpha=alpha,
            baseline=base,
            ci_resamples=n_resamples if test == "bootstrap" else CI_RESAMPLES,
            metrics={str(s): s.kwargs() for s in specs},
            signatures=signatures,
            n_items=len(next(iter(named.values()))),
            n_references=len(streams),
        ),
    )
