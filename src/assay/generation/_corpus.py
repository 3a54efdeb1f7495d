"""Corpus and sentence scores of one system: BLEU, chrF/chrF++ and TER through sacrebleu,
ROUGE through rouge-score, each with per-item values and provenance."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, cast

import numpy as np
from numpy.typing import NDArray

from .. import _options as opt
from .._options import BootstrapMethod
from .._result import Result, provenance
from ..errors import InputError
from ..report.reported import Reported
from ._scorers import (
    GenerationMetric,
    Scorer,
    Streams,
    as_hypotheses,
    as_streams,
    build,
    make_rouge_scorer,
    rouge_items,
)
from ._scorers import metric as make_metric
from .options import GENERATION_METRIC_ALIASES, BleuSmoothing, BleuTokenize, RougeType

if TYPE_CHECKING:
    from ..report.output import Report

FloatArray = NDArray[np.float64]


@dataclass(frozen=True, eq=False, repr=False)
class GenerationScore(Result, Reported):
    """One metric on one system: the corpus ``score`` (sacrebleu's scale for BLEU, chrF and
    TER: 0-100; rouge-score's for ROUGE: 0-1), the per-item ``items`` (each item scored
    alone with the same options, as ``sentence_*``), sacrebleu's or rouge-score's
    ``signature``, ``details`` (BLEU: counts, totals, precisions, bp, lengths and
    sacrebleu's text; TER: edits, reference length; ...). ``float()`` is the score.

    ``records()``: one row ``{metric, item: "all", value}``; with ``per_item=True`` the
    per-item rows first (``item`` counts from 0). ``report()``: that row, captioned with
    the signature.
    """

    family = "generation"

    metric: str
    name: str
    score: float
    items: FloatArray
    signature: str
    higher_is_better: bool
    details: Mapping[str, Any] = field(default_factory=dict)
    provenance: Mapping[str, Any] = field(default_factory=dict)

    def __float__(self) -> float:
        return float(self.score)

    def records(self, *, per_item: bool = False) -> list[dict[str, Any]]:
        rows: list[dict[str, Any]] = []
        if per_item:
            rows += [
                {"metric": self.metric, "item": i, "value": v}
                for i, v in enumerate(self.items.tolist())
            ]
        rows.append({"metric": self.metric, "item": "all", "value": float(self.score)})
        return rows

    def report(self) -> Report:
        from .report import records_report

        return records_report(self.records(), self.provenance, caption=self.signature)


def item_values(scorer: Scorer, stats: list[list[Any]]) -> FloatArray:
    """Each item's score from its own statistics (a copy: BLEU's add-k smoothing edits the
    counts it is given)."""
    return np.array([float(scorer.score(list(s))) for s in stats], dtype=np.float64)


def score_system(
    scorer: Scorer, hypotheses: list[str], stats: list[list[Any]] | None = None
) -> GenerationScore:
    """A :class:`GenerationScore` of ``hypotheses`` with a built scorer."""
    stats = scorer.statistics(hypotheses) if stats is None else stats
    value, details = scorer.corpus(stats)
    spec = scorer.metric
    return GenerationScore(
        metric=str(spec),
        name=scorer.name(),
        score=value,
        items=item_values(scorer, stats),
        signature=scorer.signature(),
        higher_is_better=spec.higher_is_better,
        details=details,
        provenance=provenance(
            metric=str(spec),
            options=spec.kwargs(),
            backend=spec.backend,
            backend_version=scorer.version(),
            signature=scorer.signature(),
            n_items=len(hypotheses),
        ),
    )


def score(
    hypotheses: Sequence[str],
    references: Sequence[str] | Sequence[Sequence[str | None]],
    *,
    metric: str | GenerationMetric = "bleu",
) -> GenerationScore:
    """``metric`` of a system's ``hypotheses`` against ``references``.

    The order of the two data arguments is kept from before the naming rule (references
    first); pass them by keyword to read the same as :func:`compare_systems`.

    Parameters
    ----------
    hypotheses
        The system's output, one string per item.
    references
        One stream (a sequence of strings, one per item) or several reference streams
        (sacrebleu's layout: ``references[j][i]`` the j-th reference of item i; ``None``
        where an item has fewer references).
    metric
        A name (``bleu``, ``chrf``, ``chrf++``, ``ter``, ``rouge1``, ``rouge2``, ``rougeL``,
        ``rougeLsum``) or a :func:`~assay.generation.metric` with options.

    Returns
    -------
    GenerationScore
        The corpus score (``float()`` of it), per-item values, signature and details.

    Examples
    --------
    >>> from assay.generation import score
    >>> s = score(references=["the cat sat on the mat"], hypotheses=["the cat sat on a mat"],
    ...           metric="chrf")
    >>> round(float(s), 2), s.name
    (65.98, 'chrF2')
    """
    hyps = as_hypotheses(hypotheses)
    streams = as_streams(references, len(hyps))
    spec = make_metric(metric)
    return score_system(build(spec, streams), hyps)


def bleu(
    hypotheses: Sequence[str],
    references: Sequence[str] | Sequence[Sequence[str | None]],
    *,
    lowercase: bool = False,
    tokenize: BleuTokenize = "13a",
    smooth_method: BleuSmoothing = "exp",
    smooth_value: float | None = None,
    max_ngram_order: int = 4,
    effective_order: bool = False,
) -> GenerationScore:
    """Corpus BLEU (Papineni et al. 2002) as sacrebleu's ``corpus_bleu``: n-gram precisions
    up to ``max_ngram_order`` from counts summed over the corpus, brevity penalty from the
    summed lengths (closest reference length per item), ``tokenize`` (13a by default, as
    mteval-v13a) and ``smooth_method`` (Chen & Cherry 2014: exp, floor, add-k, none).

    Parameters
    ----------
    hypotheses, references
        As :func:`score` (pass them by keyword to read references first).
    lowercase, tokenize, smooth_method, smooth_value, max_ngram_order, effective_order
        sacrebleu's options of the same names.

    Returns
    -------
    GenerationScore
        The corpus BLEU (0-100), per-item BLEU, sacrebleu's signature and its details
        (counts, totals, precisions, brevity penalty, lengths).

    Examples
    --------
    >>> from assay.generation import bleu
    >>> b = bleu(references=["the cat is on the mat"], hypotheses=["the cat is on the mat"])
    >>> round(float(b), 6), b.details["bp"]
    (100.0, 1.0)
    """
    spec = make_metric(
        "bleu",
        lowercase=lowercase,
        tokenize=tokenize,
        smooth_method=smooth_method,
        smooth_value=smooth_value,
        max_ngram_order=max_ngram_order,
        effective_order=effective_order,
    )
    return score(hypotheses, references, metric=spec)


def chrf(
    hypotheses: Sequence[str],
    references: Sequence[str] | Sequence[Sequence[str | None]],
    *,
    char_order: int = 6,
    word_order: int = 0,
    beta: int = 2,
    lowercase: bool = False,
    whitespace: bool = False,
    eps_smoothing: bool = False,
) -> GenerationScore:
    """Corpus chrF (Popović 2015) as sacrebleu's ``corpus_chrf``: character n-gram F-β score
    (β = 2) up to ``char_order``; ``word_order=2`` gives chrF++ (Popović 2017).

    Parameters
    ----------
    hypotheses, references
        As :func:`score` (pass them by keyword to read references first).
    char_order, word_order, beta, lowercase, whitespace, eps_smoothing
        sacrebleu's options of the same names.

    Returns
    -------
    GenerationScore
        The corpus chrF (0-100), per-item chrF and sacrebleu's signature.

    Examples
    --------
    >>> from assay.generation import chrf
    >>> s = chrf(references=["the cat sat on the mat"], hypotheses=["the cat sat on a mat"])
    >>> round(float(s), 2)
    65.98
    """
    spec = make_metric(
        "chrf",
        char_order=char_order,
        word_order=word_order,
        beta=beta,
        lowercase=lowercase,
        whitespace=whitespace,
        eps_smoothing=eps_smoothing,
    )
    return score(hypotheses, references, metric=spec)


def ter(
    hypotheses: Sequence[str],
    references: Sequence[str] | Sequence[Sequence[str | None]],
    *,
    normalized: bool = False,
    no_punct: bool = False,
    asian_support: bool = False,
    case_sensitive: bool = False,
) -> GenerationScore:
    """Corpus TER (Snover et al. 2006) as sacrebleu's ``corpus_ter``: edits (insertions,
    deletions, substitutions, shifts) over average reference words, summed over the corpus;
    lower is better.

    Parameters
    ----------
    hypotheses, references
        As :func:`score` (pass them by keyword to read references first).
    normalized, no_punct, asian_support, case_sensitive
        sacrebleu's options of the same names.

    Returns
    -------
    GenerationScore
        The corpus TER (in percent), per-item TER, the edits and reference length.

    Examples
    --------
    >>> from assay.generation import ter
    >>> s = ter(references=["the cat sat on the mat"], hypotheses=["the cat sat on a mat"])
    >>> round(float(s), 2)
    16.67
    """
    spec = make_metric(
        "ter",
        normalized=normalized,
        no_punct=no_punct,
        asian_support=asian_support,
        case_sensitive=case_sensitive,
    )
    return score(hypotheses, references, metric=spec)


def _sentence(
    hypothesis: str, references: Sequence[str], spec: GenerationMetric
) -> GenerationScore:
    if not isinstance(hypothesis, str):
        raise InputError(f"hypothesis must be a string, got {type(hypothesis).__name__}")
    refs = as_hypotheses(references, "references")
    return score([hypothesis], [[r] for r in refs], metric=spec)


def sentence_bleu(
    hypothesis: str,
    references: Sequence[str],
    *,
    lowercase: bool = False,
    tokenize: BleuTokenize = "13a",
    smooth_method: BleuSmoothing = "exp",
    smooth_value: float | None = None,
    max_ngram_order: int = 4,
    effective_order: bool = True,
) -> GenerationScore:
    """BLEU of one hypothesis against its references, as sacrebleu's ``sentence_bleu``
    (``effective_order=True`` by default, as there).

    Parameters
    ----------
    hypothesis
        One output string.
    references
        Its references.
    lowercase, tokenize, smooth_method, smooth_value, max_ngram_order, effective_order
        As :func:`bleu` (``effective_order`` True by default).

    Returns
    -------
    GenerationScore
        The score (one item).

    Examples
    --------
    >>> from assay.generation import sentence_bleu
    >>> round(float(sentence_bleu("the cat sat on a mat", ["the cat sat on the mat"])), 2)
    53.73
    """
    spec = make_metric(
        "bleu",
        lowercase=lowercase,
        tokenize=tokenize,
        smooth_method=smooth_method,
        smooth_value=smooth_value,
        max_ngram_order=max_ngram_order,
        effective_order=effective_order,
    )
    return _sentence(hypothesis, references, spec)


def sentence_chrf(
    hypothesis: str,
    references: Sequence[str],
    *,
    char_order: int = 6,
    word_order: int = 0,
    beta: int = 2,
    lowercase: bool = False,
    whitespace: bool = False,
    eps_smoothing: bool = False,
) -> GenerationScore:
    """chrF of one hypothesis against its references, as sacrebleu's ``sentence_chrf``.

    Parameters
    ----------
    hypothesis
        One output string.
    references
        Its references.
    char_order, word_order, beta, lowercase, whitespace, eps_smoothing
        As :func:`chrf`.

    Returns
    -------
    GenerationScore
        The score (one item).

    Examples
    --------
    >>> from assay.generation import sentence_chrf
    >>> round(float(sentence_chrf("the cat sat on a mat", ["the cat sat on the mat"])), 2)
    65.98
    """
    spec = make_metric(
        "chrf",
        char_order=char_order,
        word_order=word_order,
        beta=beta,
        lowercase=lowercase,
        whitespace=whitespace,
        eps_smoothing=eps_smoothing,
    )
    return _sentence(hypothesis, references, spec)


def sentence_ter(
    hypothesis: str,
    references: Sequence[str],
    *,
    normalized: bool = False,
    no_punct: bool = False,
    asian_support: bool = False,
    case_sensitive: bool = False,
) -> GenerationScore:
    """TER of one hypothesis against its references, as sacrebleu's ``sentence_ter``.

    Parameters
    ----------
    hypothesis
        One output string.
    references
        Its references.
    normalized, no_punct, asian_support, case_sensitive
        As :func:`ter`.

    Returns
    -------
    GenerationScore
        The score (one item).

    Examples
    --------
    >>> from assay.generation import sentence_ter
    >>> round(float(sentence_ter("the cat sat on a mat", ["the cat sat on the mat"])), 2)
    16.67
    """
    spec = make_metric(
        "ter",
        normalized=normalized,
        no_punct=no_punct,
        asian_support=asian_support,
        case_sensitive=case_sensitive,
    )
    return _sentence(hypothesis, references, spec)


# ---------------------------------------------------------------- ROUGE

ROUGE_MEASURES = ("precision", "recall", "fmeasure")


@dataclass(frozen=True, eq=False, repr=False)
class RougeScores(Result, Reported):
    """ROUGE of one system: for every type, per-item precision, recall and F-measure
    (``items[type]``, an (n, 3) array in that order), their means over the items (the
    corpus score, as rouge-score's aggregators) and, when asked for, bootstrap confidence
    intervals of the means. ``scores[type]["fmeasure"]`` is a mean; ``records()`` has one
    row per type and measure, as ``report()``."""

    family = "generation"

    types: list[str]
    items: Mapping[str, FloatArray]
    scores: Mapping[str, Mapping[str, float]]
    intervals: Mapping[str, Mapping[str, tuple[float, float]]]
    provenance: Mapping[str, Any] = field(default_factory=dict)

    def __getitem__(self, rouge_type: str) -> Mapping[str, float]:
        return self.scores[rouge_type]

    def records(self) -> list[dict[str, Any]]:
        rows = []
        for t in self.types:
            for m in ROUGE_MEASURES:
                low, high = self.intervals.get(t, {}).get(m, (math.nan, math.nan))
                rows.append(
                    {
                        "rouge_type": t,
                        "measure": m,
                        "value": self.scores[t][m],
                        "ci_low": low,
                        "ci_high": high,
                    }
                )
        return rows

    def report(self) -> Report:
        from .report import records_report

        return records_report(self.records(), self.provenance)


def _rouge_types(rouge_types: Any) -> list[str]:
    if isinstance(rouge_types, str):
        rouge_types = [rouge_types]
    types = [
        cast(
            str,
            opt.choice(
                t, RougeType, "rouge_types", aliases=GENERATION_METRIC_ALIASES, ignore_case=True
            ),
        )
        for t in rouge_types
    ]
    if not types:
        raise InputError("rouge_types is empty")
    return list(dict.fromkeys(types))


def rouge(
    hypotheses: Sequence[str],
    references: Sequence[str] | Sequence[Sequence[str | None]],
    *,
    rouge_types: Sequence[RougeType] = ("rouge1", "rouge2", "rougeL", "rougeLsum"),
    use_stemmer: bool = False,
    split_summaries: bool = False,
    confidence: float | None = None,
    ci_method: BootstrapMethod = "percentile",
    n_resamples: int = 1000,
    seed: int = 0,
) -> RougeScores:
    """ROUGE-N and ROUGE-L/Lsum (Lin 2004) precision, recall and F-measure of every item, by
    rouge-score's ``RougeScorer`` (its tokenizer: lower-cased, non-alphanumerics replaced by
    spaces, optional Porter stemming; ``rougeLsum`` splits summaries at newlines, or with
    nltk's sentence splitter if ``split_summaries``). With several references an item is
    scored by ``score_multi`` (the reference with the highest F-measure, per type).

    Corpus scores are the means over the items. With ``confidence`` (e.g. 0.95), each mean
    gets a bootstrap interval (:func:`assay.stats.bootstrap_mean_ci`: ``ci_method``,
    ``n_resamples``, ``seed``). rouge-score's ``BootstrapAggregator`` draws from NumPy's
    global random state and reports percentiles of the resampled means; the default
    percentile method is the same estimator, seeded and reproducible.

    Parameters
    ----------
    hypotheses, references
        As :func:`score` (pass them by keyword to read references first).
    rouge_types
        The ROUGE types scored.
    use_stemmer, split_summaries
        rouge-score's options.
    confidence, ci_method, n_resamples, seed
        The bootstrap intervals of the means (none when ``confidence`` is None).

    Returns
    -------
    RougeScores
        Per-item and mean precision, recall and F-measure of every type.

    Examples
    --------
    >>> from assay.generation import rouge
    >>> r = rouge(references=["a b c d"], hypotheses=["a b c e"], rouge_types=["rouge1"])
    >>> r["rouge1"]["fmeasure"]
    0.75
    """
    from ..stats import bootstrap_mean_ci

    hyps = as_hypotheses(hypotheses)
    streams = as_streams(references, len(hyps))
    types = _rouge_types(rouge_types)
    use_stemmer = opt.flag(use_stemmer, "use_stemmer")
    split_summaries = opt.flag(split_summaries, "split_summaries")
    confidence = None if confidence is None else opt.confidence(confidence)
    ci_method = cast(BootstrapMethod, opt.choice(ci_method, BootstrapMethod, "ci_method"))
    n_resamples = opt.n_resamples(n_resamples)
    seed = opt.seed(seed)
    scorer = make_rouge_scorer(types, use_stemmer=use_stemmer, split_summaries=split_summaries)
    items = _rouge_matrix(scorer, hyps, streams, types)
    scores = {
        t: dict(zip(ROUGE_MEASURES, items[t].mean(axis=0).tolist(), strict=True)) for t in types
    }
    intervals: dict[str, dict[str, tuple[float, float]]] = {}
    if confidence is not None and len(hyps) > 1:
        for t in types:
            low, high = bootstrap_mean_ci(
                items[t].T,
                n_resamples=n_resamples,
                seed=seed,
                ci_method=ci_method,
                confidence=confidence,
            )
            intervals[t] = {
                m: (float(low[k]), float(high[k])) for k, m in enumerate(ROUGE_MEASURES)
            }
    return RougeScores(
        types=types,
        items=items,
        scores=scores,
        intervals=intervals,
        provenance=provenance(
            backend="rouge-score",
            rouge_types=types,
            use_stemmer=use_stemmer,
            split_summaries=split_summaries,
            confidence=confidence,
            ci_method=ci_method if confidence is not None else None,
            n_resamples=n_resamples if confidence is not None else None,
            seed=seed if confidence is not None else None,
            n_items=len(hyps),
            n_references=len(streams),
        ),
    )


def _rouge_matrix(
    scorer: Any, hyps: list[str], streams: Streams, types: list[str]
) -> dict[str, FloatArray]:
    """(n, 3) arrays of precision, recall and F-measure, per type."""
    rows = rouge_items(scorer, hyps, streams)
    return {t: np.array([tuple(r[t]) for r in rows], dtype=np.float64) for t in types}
