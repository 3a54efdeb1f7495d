"""Several embeddings of the same items against a baseline: :func:`compare` scores every
embedding's queries as :func:`~assay.embeddings.retrieval_metrics` does (same labels, same
measures, same search) and tests each against the baseline query by query, giving a
:class:`~assay.report.PairedComparison` (family ``"embeddings"``, unit ``"queries"``).

The retrieval measures have one value per query (Precision@1, R-Precision, MAP@R, ...),
and a system's score is their mean, so the comparison is over per-query differences
d_q = value_system(q) − value_baseline(q), as regression's and ranking's are:

- the p-values are :func:`assay.stats.paired_pvalues` of the differences (``randomization``:
  sign flips of the mean, ``t``, ``wilcoxon``, ``sign``, ``bootstrap``), two-sided, one seed
  shared by all pairs, corrected together within each metric (``correction``);
- the interval of the mean difference and of each system's mean are bootstrap intervals of
  means (:func:`assay.stats.bootstrap_mean_ci`, ``ci_method``);
- the effect size is the paired Cohen's d_z (:func:`assay.stats.cohens_d_paired`), and wins,
  ties and losses count the queries where the system's value is higher, equal, lower.

Queries left out of the means (R = 0: no other reference of their class) are left out of the
comparison too; they are the same for every embedding, since R depends on the labels only.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, cast

import numpy as np
from numpy.typing import ArrayLike

from .. import _options as opt
from .._options import BootstrapMethod, Correction, PairedTest
from .._result import provenance
from ..errors import InputError
from ..report.paired import PairedComparison
from ..stats.pairs import PairResult
from .knn import Backend, Distance
from .result import RetrievalMetrics, resolve_metrics

if TYPE_CHECKING:
    from ..metrics.registry import Metric

__all__ = ["compare"]

Embeddings = Mapping[str, ArrayLike] | Sequence[ArrayLike]


def compare(
    query_embeddings: Embeddings,
    query_labels: ArrayLike,
    reference_embeddings: Embeddings | None = None,
    reference_labels: ArrayLike | None = None,
    *,
    baseline: str | None = None,
    metrics: str | Metric | Sequence[str | Metric] | None = None,
    k: int | None = None,
    distance: Distance = "euclidean",
    exclude_self: bool | None = None,
    backend: Backend = "auto",
    block_size: int | None = None,
    test: PairedTest = "randomization",
    n_resamples: int = 10000,
    seed: int = 0,
    correction: Correction = "holm",
    alpha: float = 0.05,
    confidence: float = 0.95,
    ci_method: BootstrapMethod = "bca",
) -> PairedComparison:
    """Compare embeddings of the same queries by their retrieval measures, each against
    ``baseline``, paired over queries (see the module documentation).

    Parameters
    ----------
    query_embeddings : mapping of str to array_like, or sequence of array_like
        Each system's query embeddings (n × d_s; the dimension may differ between systems),
        rows aligned with ``query_labels`` (a sequence: systems named ``system1``, ...).
    query_labels : array_like
        The class of each query, shared by the systems.
    reference_embeddings : mapping or sequence of array_like, optional
        Each system's reference embeddings (the same names, or the same order), searched
        instead of the queries (leave-one-out).
    reference_labels : array_like, optional
        The class of each reference, shared by the systems.
    baseline : str, optional
        The system every other is tested against (default: the first).
    metrics, k, distance, exclude_self, backend, block_size
        As :func:`~assay.embeddings.retrieval_metrics` (default metrics:
        :data:`~assay.embeddings.DEFAULT_METRICS`); ``k`` defaults to the largest R, the same
        for every system.
    test : {"randomization", "t", "wilcoxon", "sign", "bootstrap"}
        The paired test of the per-query differences.
    n_resamples, seed
        Resamples and seed of the test and the intervals.
    correction : str
        Multiple-comparison correction within each metric (``holm``, ``bonferroni``, ``bh``,
        ``none``).
    alpha : float
        ``significant`` is ``p_adjusted < alpha``.
    confidence, ci_method
        Level and bootstrap method of the intervals.

    Returns
    -------
    PairedComparison
        Each system's mean with its interval and a :class:`~assay.stats.PairResult` per
        system but the baseline and metric (wins, ties, losses over the queries).

    Examples
    --------
    >>> import numpy as np
    >>> from assay.embeddings import compare
    >>> labels = ["a", "a", "a", "b", "b", "b"]
    >>> tight = np.array([[0.0, 0], [0.1, 0], [0.2, 0], [5, 5], [5.1, 5], [5.2, 5]])
    >>> mixed = np.array([[0.0, 0], [5.1, 5], [0.2, 0], [5, 5], [0.1, 0], [5.2, 5]])
    >>> cmp = compare({"mixed": mixed, "tight": tight}, labels, metrics=["map@r"],
    ...               backend="numpy", n_resamples=200)
    >>> cmp.scores["map_at_r"]["tight"], cmp.pair("tight").wins, cmp.n
    (1.0, 6, 6)
    """
    from ..stats import bootstrap_mean_ci, correct, paired_pvalues
    from .measures import DEFAULT_METRICS
    from .retrieval import retrieval_metrics

    test = cast(PairedTest, opt.choice(test, PairedTest, "test"))
    correction = cast(
        Correction,
        opt.choice(correction, Correction, "correction", aliases=opt.CORRECTION_ALIASES),
    )
    alpha = opt.alpha(alpha)
    confidence = opt.confidence(confidence)
    ci_method = cast(BootstrapMethod, opt.choice(ci_method, BootstrapMethod, "ci_method"))
    n_resamples, seed = opt.n_resamples(n_resamples), opt.seed(seed)
    queries = _named(query_embeddings, "query_embeddings")
    references = _references(reference_embeddings, queries)
    names = list(queries)
    base = names[0] if baseline is None else baseline
    if base not in queries:
        raise InputError(f"baseline {base!r} is not one of the systems ({', '.join(names)})")
    results = {
        name: retrieval_metrics(
            queries[name],
            query_labels,
            None if references is None else references[name],
            reference_labels,
            metrics=list(DEFAULT_METRICS) if metrics is None else metrics,
            k=k,
            distance=distance,
            exclude_self=exclude_self,
            backend=backend,
            block_size=block_size,
        )
        for name in names
    }
    _check_results(results)
    first = results[base]
    kept = ~first.lone
    n = int(np.count_nonzero(kept))
    if n < 2:
        raise InputError(f"a paired comparison needs at least 2 evaluated queries, got {n}")
    others = [s for s in names if s != base]
    scores: dict[str, dict[str, float]] = {}
    intervals: dict[str, dict[str, tuple[float, float]]] = {}
    better: dict[str, bool] = {}
    pairs: list[PairResult] = []
    for metric in first.metrics:
        values = np.vstack([results[s].values[metric][kept] for s in names])
        better[metric] = _higher_is_better(metric, first.k)
        low, high = bootstrap_mean_ci(
            values, n_resamples=n_resamples, seed=seed, ci_method=ci_method, confidence=confidence
        )
        scores[metric] = {s: float(values[i].mean()) for i, s in enumerate(names)}
        intervals[metric] = {s: (float(low[i]), float(high[i])) for i, s in enumerate(names)}
        own = np.vstack([values[names.index(s)] for s in others])
        ref = np.broadcast_to(values[names.index(base)], own.shape)
        diffs = own - ref
        pvalues = paired_pvalues(diffs, test=test, n_resamples=n_resamples, seed=seed)
        adjusted = correct(pvalues, correction=correction)
        d_low, d_high = bootstrap_mean_ci(
            diffs, n_resamples=n_resamples, seed=seed, ci_method=ci_method, confidence=confidence
        )
        for i, s in enumerate(others):
            pairs.append(
                PairResult.from_differences(
                    s,
                    base,
                    metric,
                    diffs[i],
                    ci=(float(d_low[i]), float(d_high[i])),
                    p_value=float(pvalues[i]),
                    p_adjusted=float(adjusted[i]),
                    alpha=alpha,
                    higher_is_better=better[metric],
                )
            )
    n_lone = first.n_lone
    notes = (
        (f"{n_lone} of {first.n_queries} queries left out (no other reference of their class)",)
        if n_lone
        else ()
    )
    return PairedComparison(
        family="embeddings",
        unit="queries",
        systems=tuple(names),
        baseline=base,
        metrics=tuple(first.metrics),
        scores=scores,
        intervals=intervals,
        pairs=tuple(pairs),
        test=test,
        correction=correction,
        alpha=alpha,
        confidence=confidence,
        n=n,
        higher_is_better=better,
        notes=notes,
        provenance=provenance(
            measure="embeddings.compare",
            test=test,
            n_resamples=n_resamples,
            seed=seed,
            correction=correction,
            alpha=alpha,
            confidence=confidence,
            ci_method=ci_method,
            baseline=base,
            retrieval={s: dict(r.provenance) for s, r in results.items()},
        ),
    )


def _named(embeddings: Any, name: str) -> dict[str, Any]:  # Any: array-likes of any kind
    """``{system: embeddings}`` from a mapping or a sequence; at least two systems."""
    if isinstance(embeddings, Mapping):
        out = {str(k): v for k, v in embeddings.items()}
    elif isinstance(embeddings, np.ndarray) or not isinstance(embeddings, Sequence):
        raise InputError(
            f"{name} must be a mapping of system names to embeddings, or a list of embeddings "
            f"(got {type(embeddings).__name__}); for one system use evaluate()"
        )
    else:
        out = {f"system{i + 1}": v for i, v in enumerate(embeddings)}
    if len(out) < 2:
        raise InputError(f"a comparison needs at least two embeddings, got {len(out)}")
    return out


def _references(
    references: Any, queries: Mapping[str, Any]
) -> dict[str, Any] | None:  # Any: array-likes of any kind
    """Each system's reference embeddings, by the systems' names (or in their order)."""
    if references is None:
        return None
    if isinstance(references, Mapping):
        got = {str(k): v for k, v in references.items()}
        if set(got) != set(queries):
            raise InputError(
                "reference_embeddings must name the same systems as query_embeddings "
                f"({', '.join(queries)}); got {', '.join(got)}"
            )
        return got
    seq = list(references) if isinstance(references, Sequence) else []
    if isinstance(references, np.ndarray) or len(seq) != len(queries):
        raise InputError(
            f"reference_embeddings must give one reference set per system ({len(queries)})"
        )
    return dict(zip(queries, seq, strict=True))


def _higher_is_better(metric: str, k: int) -> bool:
    found = resolve_metrics(metric, k)
    return bool(found[0].higher_is_better) if found else True


def _check_results(results: Mapping[str, RetrievalMetrics]) -> None:
    """Every system's queries were scored on the same measures and left out alike."""
    first = next(iter(results.values()))
    for name, res in results.items():
        if res.metrics != first.metrics or not np.array_equal(res.lone, first.lone):
            raise InputError(f"system {name!r} was not scored on the same queries and measures")
