"""Generation metrics declared in the metric registry (family ``generation``): BLEU, chrF,
chrF++ and TER as sacrebleu computes them, ROUGE-1/2/L/Lsum as rouge-score does.

Every measure takes the ``references`` (one stream: a sequence of strings, one per item; or
several streams in sacrebleu's layout, ``references[j][i]`` the j-th reference of item i,
``None`` where an item has fewer) and the system's ``hypotheses`` (one string per item)
positionally, its options keyword-only, and returns the corpus score as a float; the
registry gives each as a :class:`~assay.metrics.Metric` with its options bound
(``assay.metrics.parse("bleu(tokenize='intl')", family="generation")``):

>>> from assay.generation.measures import bleu
>>> round(bleu(["the cat sat on the mat"], ["the cat sat on the mat"]), 6)
100.0

The results with per-item values, sacrebleu's signature and details are
:func:`assay.generation.score` and its kin; the options are sacrebleu's and rouge-score's
(:func:`assay.generation.metric`). sacrebleu and rouge-score (the ``nlp`` extra) are
imported when a measure is computed, never when the declarations load.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

from .._options import flag, number
from ..errors import MetricError
from ..metrics.registry import (
    FROM_SIGNATURE,
    Param,
    Peer,
    measure,
    nonneg_int,
    one_of,
    positive_int,
)
from .options import BleuSmoothing, BleuTokenize

__all__ = [
    "bleu",
    "chrf",
    "chrfpp",
    "rouge1",
    "rouge2",
    "rougeL",
    "rougeLsum",
    "ter",
]

FAMILY = "generation"
#: The data every generation measure takes.
INPUT = "references and hypotheses"

References = Sequence[str] | Sequence[Sequence[str | None]]


def _boolean(what: str) -> Any:
    return functools.partial(flag, name=what, error=MetricError)


def _smooth_value(value: Any) -> float | None:
    return None if value is None else number(value, "smooth_value", low=0, error=MetricError)


def _flag(name: str, doc: str) -> Param:
    return Param(name, FROM_SIGNATURE, _boolean(name), doc)


_LOWERCASE = _flag("lowercase", "compare lower-cased text")
_BLEU = (
    _LOWERCASE,
    Param(
        "tokenize",
        FROM_SIGNATURE,
        one_of("tokenize", BleuTokenize),
        "sacrebleu's tokeniser: 13a (mteval-v13a), none, intl, char, zh, ja-mecab, ko-mecab, "
        "spm, flores101, flores200, spBLEU-1K",
    ),
    Param(
        "smooth_method",
        FROM_SIGNATURE,
        one_of("smooth_method", BleuSmoothing),
        "smoothing of zero n-gram counts (Chen & Cherry 2014): exp, floor, add-k, none",
    ),
    Param("smooth_value", FROM_SIGNATURE, _smooth_value, "value of floor and add-k (>= 0)"),
    Param("max_ngram_order", FROM_SIGNATURE, positive_int("max_ngram_order"), "largest n"),
    _flag("effective_order", "leave out the orders without any n-gram (sentence BLEU)"),
)


def _chrf(word_order: int) -> tuple[Param, ...]:
    return (
        Param("char_order", FROM_SIGNATURE, positive_int("char_order"), "largest character n"),
        Param(
            "word_order",
            word_order,
            nonneg_int("word_order"),
            "largest word n (0: chrF, 2: chrF++)",
        ),
        Param("beta", FROM_SIGNATURE, nonneg_int("beta"), "weight of recall (F-β)"),
        _LOWERCASE,
        _flag("whitespace", "count white space in the character n-grams"),
        _flag("eps_smoothing", "smooth zero precisions with a small epsilon (chrF++.py's)"),
    )


_TER = (
    _flag("normalized", "normalise punctuation and tokenise as in the Asian-language tools"),
    _flag("no_punct", "remove punctuation"),
    _flag("asian_support", "tokenise Asian (CJK) characters"),
    _flag("case_sensitive", "compare case-sensitively"),
)
_ROUGE = (
    _flag("use_stemmer", "Porter-stem the tokens"),
    _flag("split_summaries", "rougeLsum: split summaries into sentences with nltk"),
)

_sacrebleu_measure = functools.partial(measure, family=FAMILY, input=INPUT, bounds=(0.0, 100.0))
_rouge_measure = functools.partial(measure, family=FAMILY, input=INPUT, bounds=(0.0, 1.0))


def _corpus(name: str, references: References, hypotheses: Sequence[str], **options: Any) -> float:
    from ._corpus import score
    from ._scorers import metric

    spec = metric(name, **options)
    return float(score(references=references, hypotheses=hypotheses, metric=spec).score)


@_sacrebleu_measure(
    "bleu",
    params=_BLEU,
    aliases=("sacrebleu",),
    peers=(Peer("sacrebleu", "sacrebleu.corpus_bleu"),),
)
def bleu(
    references: References,
    hypotheses: Sequence[str],
    *,
    lowercase: bool = False,
    tokenize: BleuTokenize = "13a",
    smooth_method: BleuSmoothing = "exp",
    smooth_value: float | None = None,
    max_ngram_order: int = 4,
    effective_order: bool = False,
) -> float:
    """Corpus BLEU (sacrebleu's ``corpus_bleu``), 0-100.

    BLEU = BP · exp(Σ_n (1/N) log p_n), n = 1..N (``max_ngram_order``), where p_n is the
    clipped n-gram precision from counts summed over the corpus and
    BP = min(1, exp(1 - r/c)) the brevity penalty of the summed hypothesis length c against
    the summed closest reference lengths r.

    Reference: Papineni, Roukos, Ward & Zhu (2002), "BLEU: a Method for Automatic Evaluation
    of Machine Translation", ACL; Post (2018), "A Call for Clarity in Reporting BLEU Scores",
    WMT.
    """
    return _corpus(
        "bleu",
        references,
        hypotheses,
        lowercase=lowercase,
        tokenize=tokenize,
        smooth_method=smooth_method,
        smooth_value=smooth_value,
        max_ngram_order=max_ngram_order,
        effective_order=effective_order,
    )


@_sacrebleu_measure(
    "chrf", params=_chrf(0), aliases=("chrf2",), peers=(Peer("sacrebleu", "sacrebleu.corpus_chrf"),)
)
def chrf(
    references: References,
    hypotheses: Sequence[str],
    *,
    char_order: int = 6,
    word_order: int = 0,
    beta: int = 2,
    lowercase: bool = False,
    whitespace: bool = False,
    eps_smoothing: bool = False,
) -> float:
    """Corpus chrF (sacrebleu's ``corpus_chrf``), 0-100.

    chrF_β = 100 · (1 + β²) · chrP · chrR / (β² · chrP + chrR), chrP and chrR the character
    n-gram precision and recall averaged over n = 1..``char_order`` (and word n-grams up to
    ``word_order``), from counts summed over the corpus; β = 2.

    Reference: Popović (2015), "chrF: character n-gram F-score for automatic MT evaluation",
    WMT.
    """
    return _corpus(
        "chrf",
        references,
        hypotheses,
        char_order=char_order,
        word_order=word_order,
        beta=beta,
        lowercase=lowercase,
        whitespace=whitespace,
        eps_smoothing=eps_smoothing,
    )


@_sacrebleu_measure(
    "chrfpp",
    params=_chrf(2),
    aliases=("chrf2pp",),
    peers=(Peer("sacrebleu", "sacrebleu.corpus_chrf(word_order=2)"),),
)
def chrfpp(
    references: References,
    hypotheses: Sequence[str],
    *,
    char_order: int = 6,
    word_order: int = 2,
    beta: int = 2,
    lowercase: bool = False,
    whitespace: bool = False,
    eps_smoothing: bool = False,
) -> float:
    """Corpus chrF++ (sacrebleu's ``corpus_chrf`` with ``word_order=2``), 0-100.

    chrF (see ``chrf``) whose precision and recall also average word unigrams and bigrams.

    Reference: Popović (2017), "chrF++: words helping character n-grams", WMT.
    """
    return _corpus(
        "chrf++",
        references,
        hypotheses,
        char_order=char_order,
        word_order=word_order,
        beta=beta,
        lowercase=lowercase,
        whitespace=whitespace,
        eps_smoothing=eps_smoothing,
    )


@measure(
    "ter",
    family=FAMILY,
    input=INPUT,
    params=_TER,
    bounds=(0.0, None),
    higher_is_better=False,
    peers=(Peer("sacrebleu", "sacrebleu.corpus_ter"),),
)
def ter(
    references: References,
    hypotheses: Sequence[str],
    *,
    normalized: bool = False,
    no_punct: bool = False,
    asian_support: bool = False,
    case_sensitive: bool = False,
) -> float:
    """Corpus TER (sacrebleu's ``corpus_ter``), in percent; lower is better.

    TER = 100 · Σ edits / Σ average reference length, the edits (insertions, deletions,
    substitutions and shifts of word sequences) of each hypothesis against its closest
    reference, summed over the corpus.

    Reference: Snover, Dorr, Schwartz, Micciulla & Makhoul (2006), "A Study of Translation
    Edit Rate with Targeted Human Annotation", AMTA.
    """
    return _corpus(
        "ter",
        references,
        hypotheses,
        normalized=normalized,
        no_punct=no_punct,
        asian_support=asian_support,
        case_sensitive=case_sensitive,
    )


def _rouge(
    name: str,
    references: References,
    hypotheses: Sequence[str],
    use_stemmer: bool,
    split_summaries: bool,
) -> float:
    return _corpus(
        name, references, hypotheses, use_stemmer=use_stemmer, split_summaries=split_summaries
    )


@_rouge_measure(
    "rouge1",
    params=_ROUGE,
    peers=(
        Peer(
            "rouge-score",
            "rouge_score.rouge_scorer.RougeScorer(['rouge1'])",
            "Scores one item at a time; assay's value is the mean of their F-measures.",
        ),
    ),
)
def rouge1(
    references: References,
    hypotheses: Sequence[str],
    *,
    use_stemmer: bool = False,
    split_summaries: bool = False,
) -> float:
    """ROUGE-1 F-measure (rouge-score's), the mean over the items.

    F = 2PR / (P + R) of each item, P and R the unigram overlap over the hypothesis's and
    the reference's unigram counts (the best reference of an item with several).

    Reference: Lin (2004), "ROUGE: A Package for Automatic Evaluation of Summaries", Text
    Summarization Branches Out.
    """
    return _rouge("rouge1", references, hypotheses, use_stemmer, split_summaries)


@_rouge_measure(
    "rouge2",
    params=_ROUGE,
    peers=(
        Peer(
            "rouge-score",
            "rouge_score.rouge_scorer.RougeScorer(['rouge2'])",
            "Scores one item at a time; assay's value is the mean of their F-measures.",
        ),
    ),
)
def rouge2(
    references: References,
    hypotheses: Sequence[str],
    *,
    use_stemmer: bool = False,
    split_summaries: bool = False,
) -> float:
    """ROUGE-2 F-measure (rouge-score's), the mean over the items.

    As ROUGE-1 with bigrams: F = 2PR / (P + R) of each item, P and R the bigram overlap over
    the hypothesis's and the reference's bigram counts.

    Reference: Lin (2004), "ROUGE: A Package for Automatic Evaluation of Summaries", Text
    Summarization Branches Out.
    """
    return _rouge("rouge2", references, hypotheses, use_stemmer, split_summaries)


@_rouge_measure(
    "rougeL",
    params=_ROUGE,
    peers=(
        Peer(
            "rouge-score",
            "rouge_score.rouge_scorer.RougeScorer(['rougeL'])",
            "Scores one item at a time; assay's value is the mean of their F-measures.",
        ),
    ),
)
def rougeL(
    references: References,
    hypotheses: Sequence[str],
    *,
    use_stemmer: bool = False,
    split_summaries: bool = False,
) -> float:
    """ROUGE-L F-measure (rouge-score's), the mean over the items.

    P = LCS / |hypothesis|, R = LCS / |reference|, F = 2PR / (P + R), LCS the length of the
    longest common token subsequence.

    Reference: Lin (2004), "ROUGE: A Package for Automatic Evaluation of Summaries", Text
    Summarization Branches Out.
    """
    return _rouge("rougeL", references, hypotheses, use_stemmer, split_summaries)


@_rouge_measure(
    "rougeLsum",
    params=_ROUGE,
    peers=(
        Peer(
            "rouge-score",
            "rouge_score.rouge_scorer.RougeScorer(['rougeLsum'])",
            "Scores one item at a time; assay's value is the mean of their F-measures.",
        ),
    ),
)
def rougeLsum(
    references: References,
    hypotheses: Sequence[str],
    *,
    use_stemmer: bool = False,
    split_summaries: bool = False,
) -> float:
    """ROUGE-Lsum F-measure (rouge-score's), the mean over the items.

    ROUGE-L over sentences (split at newlines, or by nltk with ``split_summaries``):
    P = Σ_i LCS∪(r_i, H) / |H|, R = Σ_i LCS∪(r_i, H) / |reference|, F = 2PR / (P + R), with
    LCS∪(r_i, H) the union LCS of the reference sentence r_i with the hypothesis's sentences
    H (lengths in tokens).

    Reference: Lin (2004), "ROUGE: A Package for Automatic Evaluation of Summaries", Text
    Summarization Branches Out.
    """
    return _rouge("rougeLsum", references, hypotheses, use_stemmer, split_summaries)
