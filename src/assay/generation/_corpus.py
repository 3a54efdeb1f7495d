"""Corpus and sentence scores of one system: BLEU, chrF/chrF++ and TER through sacrebleu,
each with per-item values and provenance (ROUGE: :func:`assay.generation.rouge`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import NDArray

from .._result import Result, provenance
from ..errors import InputError
from ..report.reported import Reported
from ._scorers import (
    GenerationMetric,
    Scorer,
    as_hypotheses,
    as_streams,
    build,
)
from ._scorers import metric as make_metric
from .options import BleuSmoothing, BleuTokenize

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
