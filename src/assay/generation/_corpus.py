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
    keyword_data,
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
    the signature. Made by :func:`score`, :func:`bleu`, :func:`chrf`, :func:`ter` and the
    ``sentence_*`` functions.

    Parameters
    ----------
    metric : str
        The metric with its changed options, as ``str()`` of a
        :class:`GenerationMetric` (``bleu(tokenize='intl')``).
    name : str
        The score's name in the backend (sacrebleu's ``BLEU``, ``chrF2``, ``chrF2++``,
        ``TER``; the ROUGE type).
    score : float
        The corpus score.
    items : ndarray of float
        Each item's score, scored alone with the same options.
    signature : str
        sacrebleu's signature (rouge-score's settings for ROUGE).
    higher_is_better : bool
        False for TER.
    details : mapping of str to any, optional
        The backend's details (BLEU: counts, totals, precisions, bp, sys_len, ref_len,
        text; TER: num_edits, ref_length; chrF: char_order, word_order, beta).
    provenance : mapping of str to any, optional
        assay's and Python's versions, the metric, its options and backend, the signature
        and the number of items.

    Examples
    --------
    >>> from assay.generation import bleu
    >>> s = bleu(
    ...     references=["the cat is on the mat", "a dog barks loudly"],
    ...     hypotheses=["the cat is on the mat", "a dog barked loudly"],
    ... )
    >>> s.name, round(float(s), 2), s.items.round(2).tolist(), s.details["counts"]
    ('BLEU', 76.22, [100.0, 35.36], [9, 6, 4, 3])
    >>> [r["item"] for r in s.records(per_item=True)]
    [0, 1, 'all']
    """

    family = "generation"

    metric: str
    name: str
    score: float
    items: FloatArray
    signature: str
    higher_is_better: bool
    details: Mapping[str, Any] = field(default_factory=dict)  # Any: each backend's own values
    provenance: Mapping[str, Any] = field(default_factory=dict)  # Any: settings of every type

    def __float__(self) -> float:
        return float(self.score)

    def records(self, *, per_item: bool = False) -> list[dict[str, Any]]:
        """One row ``{metric, item: "all", value}``, after the per-item rows with
        ``per_item=True``."""
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


@keyword_data("references", "hypotheses")
def score(
    *,
    references: Sequence[str] | Sequence[Sequence[str | None]],
    hypotheses: Sequence[str],
    metric: str | GenerationMetric = "bleu",
) -> GenerationScore:
    """``metric`` of a system's ``hypotheses`` against ``references``.

    The data is keyword-only, in assay's order (gold first, then predicted: see
    docs/parameters.md): a positional call, such as sacrebleu's ``(hypotheses,
    references)``, raises a ``TypeError`` rather than score the data swapped.

    Parameters
    ----------
    references
        One stream (a sequence of strings, one per item) or several reference streams
        (sacrebleu's layout: ``references[j][i]`` the j-th reference of item i; ``None``
        where an item has fewer references).
    hypotheses
        The system's output, one string per item.
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


@keyword_data("references", "hypotheses")
def bleu(
    *,
    references: Sequence[str] | Sequence[Sequence[str | None]],
    hypotheses: Sequence[str],
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
    references, hypotheses
        As :func:`score` (keyword-only).
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
    return score(references=references, hypotheses=hypotheses, metric=spec)


@keyword_data("references", "hypotheses")
def chrf(
    *,
    references: Sequence[str] | Sequence[Sequence[str | None]],
    hypotheses: Sequence[str],
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
    references, hypotheses
        As :func:`score` (keyword-only).
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
    return score(references=references, hypotheses=hypotheses, metric=spec)


@keyword_data("references", "hypotheses")
def ter(
    *,
    references: Sequence[str] | Sequence[Sequence[str | None]],
    hypotheses: Sequence[str],
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
    references, hypotheses
        As :func:`score` (keyword-only).
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
    return score(references=references, hypotheses=hypotheses, metric=spec)


def _sentence(
    references: Sequence[str], hypothesis: str, spec: GenerationMetric
) -> GenerationScore:
    if not isinstance(hypothesis, str):
        raise InputError(f"hypothesis must be a string, got {type(hypothesis).__name__}")
    refs = as_hypotheses(references, "references")
    return score(references=[[r] for r in refs], hypotheses=[hypothesis], metric=spec)


@keyword_data("references", "hypothesis")
def sentence_bleu(
    *,
    references: Sequence[str],
    hypothesis: str,
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
    references
        The hypothesis's references (keyword-only, as ``hypothesis``).
    hypothesis
        One output string.
    lowercase, tokenize, smooth_method, smooth_value, max_ngram_order, effective_order
        As :func:`bleu` (``effective_order`` True by default).

    Returns
    -------
    GenerationScore
        The score (one item).

    Examples
    --------
    >>> from assay.generation import sentence_bleu
    >>> s = sentence_bleu(references=["the cat sat on the mat"], hypothesis="the cat sat on a mat")
    >>> round(float(s), 2)
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
    return _sentence(references, hypothesis, spec)


@keyword_data("references", "hypothesis")
def sentence_chrf(
    *,
    references: Sequence[str],
    hypothesis: str,
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
    references
        The hypothesis's references (keyword-only, as ``hypothesis``).
    hypothesis
        One output string.
    char_order, word_order, beta, lowercase, whitespace, eps_smoothing
        As :func:`chrf`.

    Returns
    -------
    GenerationScore
        The score (one item).

    Examples
    --------
    >>> from assay.generation import sentence_chrf
    >>> s = sentence_chrf(references=["the cat sat on the mat"], hypothesis="the cat sat on a mat")
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
    return _sentence(references, hypothesis, spec)


@keyword_data("references", "hypothesis")
def sentence_ter(
    *,
    references: Sequence[str],
    hypothesis: str,
    normalized: bool = False,
    no_punct: bool = False,
    asian_support: bool = False,
    case_sensitive: bool = False,
) -> GenerationScore:
    """TER of one hypothesis against its references, as sacrebleu's ``sentence_ter``.

    Parameters
    ----------
    references
        The hypothesis's references (keyword-only, as ``hypothesis``).
    hypothesis
        One output string.
    normalized, no_punct, asian_support, case_sensitive
        As :func:`ter`.

    Returns
    -------
    GenerationScore
        The score (one item).

    Examples
    --------
    >>> from assay.generation import sentence_ter
    >>> s = sentence_ter(references=["the cat sat on the mat"], hypothesis="the cat sat on a mat")
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
    return _sentence(references, hypothesis, spec)
