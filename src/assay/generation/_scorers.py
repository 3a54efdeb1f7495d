"""Generation metrics as configured objects, and the adapters that compute them with the
reference implementations: sacrebleu (BLEU, chrF/chrF++, TER) and rouge-score (ROUGE).

Every metric is computed from per-item *sufficient statistics*: a corpus score is a function
of their sum (BLEU: n-gram matches and totals, lengths; chrF: character and word n-gram
counts; TER: edits and reference length; ROUGE: the item's F-measure and a count of 1, so
the corpus score is the mean). This is how sacrebleu computes corpus scores and runs its
significance tests, and it lets the tests resample items without scoring any text again.
sacrebleu's statistics and scores come from its own methods (``_extract_corpus_statistics``,
``_compute_score_from_stats``, ``_aggregate_and_compute``: the ones its ``significance``
module uses), so every number is sacrebleu's.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar, cast

import numpy as np

from .. import _options as opt
from .._optional import require
from ..errors import EmptyInputError, InputError, MissingExtraError, OptionError
from .options import GENERATION_METRIC_ALIASES, BleuSmoothing, BleuTokenize, GenerationMetricName

Streams = list[list[str | None]]

# ---------------------------------------------------------------- metric specifications


def _flag(name: str) -> Callable[[Any], Any]:
    return functools.partial(opt.flag, name=name)


def _int(name: str, minimum: int) -> Callable[[Any], Any]:
    return functools.partial(opt.integer, name=name, minimum=minimum)


def _smooth_value(value: Any) -> Any:
    return None if value is None else opt.number(value, "smooth_value", low=0)


_Options = dict[str, tuple[Any, Callable[[Any], Any]]]

_BLEU: _Options = {
    "lowercase": (False, _flag("lowercase")),
    "tokenize": ("13a", functools.partial(opt.choice, kind=BleuTokenize, name="tokenize")),
    "smooth_method": (
        "exp",
        functools.partial(opt.choice, kind=BleuSmoothing, name="smooth_method"),
    ),
    "smooth_value": (None, _smooth_value),
    "max_ngram_order": (4, _int("max_ngram_order", 1)),
    "effective_order": (False, _flag("effective_order")),
}
_CHRF: _Options = {
    "char_order": (6, _int("char_order", 1)),
    "word_order": (0, _int("word_order", 0)),
    "beta": (2, _int("beta", 0)),
    "lowercase": (False, _flag("lowercase")),
    "whitespace": (False, _flag("whitespace")),
    "eps_smoothing": (False, _flag("eps_smoothing")),
}
_TER: _Options = {
    "normalized": (False, _flag("normalized")),
    "no_punct": (False, _flag("no_punct")),
    "asian_support": (False, _flag("asian_support")),
    "case_sensitive": (False, _flag("case_sensitive")),
}
_ROUGE: _Options = {
    "use_stemmer": (False, _flag("use_stemmer")),
    "split_summaries": (False, _flag("split_summaries")),
}
#: The options of each metric: name -> (default, validator).
OPTIONS: Mapping[str, Mapping[str, tuple[Any, Callable[[Any], Any]]]] = {
    "bleu": _BLEU,
    "chrf": _CHRF,
    "chrf++": {**_CHRF, "word_order": (2, _int("word_order", 0))},
    "ter": _TER,
    "rouge1": _ROUGE,
    "rouge2": _ROUGE,
    "rougeL": _ROUGE,
    "rougeLsum": _ROUGE,
}
SACREBLEU = ("bleu", "chrf", "chrf++", "ter")


@dataclass(frozen=True)
class GenerationMetric:
    """A generation metric with its options bound (made by :func:`metric`, which validates
    them). Hashable; ``str()`` is its name followed by the options that differ from the
    defaults, e.g. ``bleu(tokenize='intl')``; ``backend`` is ``"sacrebleu"`` or
    ``"rouge-score"``.

    Parameters
    ----------
    name : str
        The metric: ``bleu``, ``chrf``, ``chrf++``, ``ter``, ``rouge1``, ``rouge2``,
        ``rougeL`` or ``rougeLsum``.
    options : tuple of (str, object) pairs
        Every option of the metric with its value, in the metric's order.

    Examples
    --------
    >>> from assay.generation import metric
    >>> m = metric("chrf", word_order=2)
    >>> str(m), m.backend, m.higher_is_better, m.kwargs()["word_order"]
    ('chrf(word_order=2)', 'sacrebleu', True, 2)
    """

    name: str
    options: tuple[tuple[str, object], ...]

    def kwargs(self) -> dict[str, Any]:
        """The options as keyword arguments of the backend."""
        return dict(self.options)

    @property
    def higher_is_better(self) -> bool:
        """False for TER (an error rate), True for the others."""
        return self.name != "ter"

    @property
    def backend(self) -> str:
        """The package that computes the metric: ``sacrebleu`` or ``rouge-score``."""
        return "sacrebleu" if self.name in SACREBLEU else "rouge-score"

    def __str__(self) -> str:
        defaults = OPTIONS[self.name]
        changed = [f"{k}={v!r}" for k, v in self.options if v != defaults[k][0]]
        return self.name + (f"({', '.join(changed)})" if changed else "")


def metric(name: str | GenerationMetric, **options: object) -> GenerationMetric:
    """A generation metric: ``bleu``, ``chrf``, ``chrf++``, ``ter`` (sacrebleu) or
    ``rouge1``, ``rouge2``, ``rougeL``, ``rougeLsum`` (rouge-score, F-measure), with options
    (names as sacrebleu's and rouge-score's, each validated; an unknown one is an
    :class:`~assay.errors.OptionError`):

    - bleu: ``lowercase``, ``tokenize`` (13a, none, intl, char, zh, ja-mecab, ko-mecab, spm,
      flores101, flores200, spBLEU-1K), ``smooth_method`` (exp, floor, add-k, none),
      ``smooth_value``, ``max_ngram_order``, ``effective_order``;
    - chrf / chrf++: ``char_order``, ``word_order`` (0 for chrF, 2 for chrF++), ``beta``,
      ``lowercase``, ``whitespace``, ``eps_smoothing``;
    - ter: ``normalized``, ``no_punct``, ``asian_support``, ``case_sensitive``;
    - rouge*: ``use_stemmer``, ``split_summaries``.

    Parameters
    ----------
    name
        The metric's name (any case, or an alias: ``rouge-l``, ``chrf2``, ...), or a
        metric whose options ``options`` update.
    **options
        The metric's options (each metric has its own, of its own types, validated here).

    Returns
    -------
    GenerationMetric
        Hashable; ``str()`` names the options that differ from the defaults.

    Examples
    --------
    >>> from assay.generation import metric
    >>> m = metric("BLEU", tokenize="intl")
    >>> str(m), m.higher_is_better, metric("ter").higher_is_better
    ("bleu(tokenize='intl')", True, False)
    """
    if isinstance(name, GenerationMetric):
        if not options:
            return name
        options = {**name.kwargs(), **options}
        name = name.name
    key = name if isinstance(name, str) and name in OPTIONS else _metric_name(name)
    allowed = OPTIONS[key]
    unknown = sorted(set(options) - set(allowed))
    if unknown:
        raise OptionError(
            f"{key} has no option {', '.join(unknown)}; options: {', '.join(allowed)}",
            option=unknown[0],
        )
    bound = tuple((k, check(options.get(k, default))) for k, (default, check) in allowed.items())
    return GenerationMetric(key, bound)


def configure_metrics(
    names: Sequence[str | GenerationMetric],
    *,
    tokenize: BleuTokenize = "13a",
    lowercase: bool = False,
    use_stemmer: bool = False,
) -> list[GenerationMetric]:
    """The metrics ``names`` with the options shared across metrics applied where each
    applies (what ``assay generation``'s flags mean): BLEU takes ``tokenize`` and
    ``lowercase``, chrF and chrF++ ``lowercase``, ROUGE ``use_stemmer``; TER takes none of
    them (it is case-insensitive unless ``case_sensitive``, sacrebleu's default).

    Parameters
    ----------
    names
        Metric names (``bleu``, ``chrf``, ``chrf++``, ``ter``, ``rouge1``, ``rouge2``,
        ``rougeL``, ``rougeLsum``, any case, or their aliases) or :func:`metric` objects.
    tokenize, lowercase, use_stemmer
        The shared options.

    Returns
    -------
    list of GenerationMetric
        One per name, in order.

    Examples
    --------
    >>> from assay.generation import configure_metrics
    >>> [str(m) for m in configure_metrics(["bleu", "ter", "rougeL"], lowercase=True)]
    ['bleu(lowercase=True)', 'ter', 'rougeL']
    """
    # Checked here, not only by the metric that takes them: an option no named metric uses
    # is still a mistake the user should hear about.
    tokenize = opt.choice(tokenize, BleuTokenize, "tokenize")
    lowercase = opt.flag(lowercase, "lowercase")
    use_stemmer = opt.flag(use_stemmer, "use_stemmer")
    out = []
    for name in names:
        spec = metric(name)
        if spec.name == "bleu":
            spec = metric(spec, tokenize=tokenize, lowercase=lowercase)
        elif spec.name in ("chrf", "chrf++"):
            spec = metric(spec, lowercase=lowercase)
        elif spec.name.startswith("rouge"):
            spec = metric(spec, use_stemmer=use_stemmer)
        out.append(spec)
    return out


# ---------------------------------------------------------------- inputs

_F = TypeVar("_F", bound=Callable[..., Any])


def keyword_data(*names: str) -> Callable[[_F], _F]:
    """Make the data arguments ``names`` of a function keyword-only with a message that says
    so: the function's signature already has them after ``*``; a positional call (the order
    ``(hypotheses, references)`` before assay's rule, *gold first, then predicted*) raises a
    ``TypeError`` that names the keywords instead of computing with the data swapped."""

    def wrap(func: _F) -> _F:
        keywords = " and ".join(f"{n}=" for n in names)

        @functools.wraps(func)
        def call(*args: Any, **kwargs: Any) -> Any:
            if args:
                raise TypeError(
                    f"{func.__name__}() takes its data by keyword: pass {keywords} "
                    "(assay's order is gold first, then predicted; see docs/parameters.md)"
                )
            return func(**kwargs)

        return cast(_F, call)

    return wrap


def _metric_name(name: Any) -> str:
    return cast(
        str,
        opt.choice(
            name,
            GenerationMetricName,
            "metric",
            aliases=GENERATION_METRIC_ALIASES,
            ignore_case=True,
        ),
    )


def as_hypotheses(hypotheses: Any, what: str = "hypotheses") -> list[str]:
    """A non-empty list of strings."""
    if isinstance(hypotheses, str):
        raise InputError(f"{what} must be a sequence of strings (one per item), not one string")
    try:
        hyps = list(hypotheses)
    except TypeError:
        raise InputError(f"{what} must be a sequence of strings") from None
    if not hyps:
        raise EmptyInputError(f"{what} is empty")
    for i, h in enumerate(hyps):
        if not isinstance(h, str):
            raise InputError(f"{what}[{i}] is {type(h).__name__}, not a string")
    return hyps


def as_streams(references: Any, n: int) -> Streams:
    """Reference streams (sacrebleu's layout: ``streams[j][i]`` is the j-th reference of item
    i), each of length ``n``; a flat sequence of strings is one stream. ``None`` marks a
    missing reference (items may have different numbers of references); every item needs
    at least one."""
    if isinstance(references, str):
        raise InputError("references must be a sequence of strings or of reference streams")
    try:
        refs = list(references)
    except TypeError:
        raise InputError("references must be a sequence of strings or of streams") from None
    if not refs:
        raise EmptyInputError("references is empty")
    streams = [refs] if all(r is None or isinstance(r, str) for r in refs) else refs
    out: Streams = []
    for j, stream in enumerate(streams):
        if isinstance(stream, str):
            raise InputError(f"references[{j}] is a string; give every stream as a sequence")
        items = list(stream)
        if len(items) != n:
            raise InputError(
                f"reference stream {j} has {len(items)} segments but there are {n} hypotheses"
            )
        for i, r in enumerate(items):
            if r is not None and not isinstance(r, str):
                raise InputError(f"reference stream {j}, item {i} is {type(r).__name__}")
        out.append(items)
    for i in range(n):
        if all(s[i] is None for s in out):
            raise InputError(f"item {i} has no reference (every stream holds None there)")
    return out


def item_references(streams: Streams, i: int) -> list[str]:
    return [s[i] for s in streams if s[i] is not None]  # type: ignore[misc]  # why: the filter does not narrow s[i]


# ---------------------------------------------------------------- adapters


class Scorer:
    """Statistics and scores of one metric on fixed references (the sacrebleu or rouge-score
    object behind it is built once)."""

    metric: GenerationMetric
    #: Resampled statistics are summed in this dtype (sacrebleu's bootstrap: float32).
    bootstrap_dtype: Any = np.float64

    def statistics(self, hypotheses: list[str]) -> list[list[Any]]:
        raise NotImplementedError

    def score(self, summed: Any) -> float:
        """The corpus score from summed statistics (a list or a 1-D array)."""
        raise NotImplementedError

    def corpus(self, stats: list[list[Any]]) -> tuple[float, dict[str, Any]]:
        """The corpus score of per-item statistics, and its details."""
        raise NotImplementedError

    def name(self) -> str:
        """The score's name (sacrebleu's: BLEU, chrF2, chrF2++, TER; rouge-score's type)."""
        raise NotImplementedError

    def signature(self, **extra: Any) -> str:
        raise NotImplementedError

    def version(self) -> str:
        raise NotImplementedError


class SacrebleuScorer(Scorer):
    bootstrap_dtype = np.float32

    def __init__(self, spec: GenerationMetric, streams: Streams) -> None:
        self.metric = spec
        self._sacrebleu = require("sacrebleu")
        self._impl = self._build(spec, streams)

    def _build(self, spec: GenerationMetric, streams: Streams) -> Any:
        from importlib import import_module

        metrics = import_module("sacrebleu.metrics")
        kw = spec.kwargs()
        try:
            if spec.name == "bleu":
                return metrics.BLEU(references=streams, **kw)
            if spec.name in ("chrf", "chrf++"):
                return metrics.CHRF(references=streams, **kw)
            return metrics.TER(references=streams, **kw)
        except ImportError as exc:
            raise MissingExtraError(
                f"{spec}: sacrebleu needs an optional package for this option: {exc}"
            ) from exc

    def statistics(self, hypotheses: list[str]) -> list[list[Any]]:
        return cast(list[list[Any]], self._impl._extract_corpus_statistics(hypotheses, None))

    def score(self, summed: Any) -> float:
        return cast(float, self._impl._compute_score_from_stats(summed).score)

    def score_object(self, summed: Any) -> Any:
        return self._impl._compute_score_from_stats(summed)

    def corpus(self, stats: list[list[Any]]) -> tuple[float, dict[str, Any]]:
        result = self._impl._aggregate_and_compute(stats)
        return float(result.score), _sacrebleu_details(result)

    def name(self) -> str:
        return str(self._impl._compute_score_from_stats(self._zero_stats()).name)

    def _zero_stats(self) -> list[float]:
        if self.metric.name == "bleu":
            return [0] * (2 + 2 * self._impl.max_ngram_order)
        if self.metric.name == "ter":
            return [0, 0]
        return [0] * (3 * self._impl.order)

    def signature(self, **extra: Any) -> str:
        sig = self._impl.get_signature()
        for key, value in extra.items():
            sig.update(key, value)
        return str(sig.format())

    def version(self) -> str:
        return str(self._sacrebleu.__version__)


def _sacrebleu_details(result: Any) -> dict[str, Any]:
    if hasattr(result, "precisions"):
        return {
            "counts": [int(c) for c in result.counts],
            "totals": [int(t) for t in result.totals],
            "precisions": [float(p) for p in result.precisions],
            "bp": float(result.bp),
            "sys_len": int(result.sys_len),
            "ref_len": int(result.ref_len),
            "text": result.format(),
        }
    if hasattr(result, "num_edits"):
        return {"num_edits": int(result.num_edits), "ref_length": float(result.ref_length)}
    return {"char_order": result.char_order, "word_order": result.word_order, "beta": result.beta}


class RougeScorer(Scorer):
    """One ROUGE type's F-measure; multiple references: rouge-score's ``score_multi`` (the
    reference with the highest F-measure)."""

    def __init__(self, spec: GenerationMetric, streams: Streams) -> None:
        self.metric = spec
        self._streams = streams
        self._scorer = make_rouge_scorer([spec.name], **spec.kwargs())

    def statistics(self, hypotheses: list[str]) -> list[list[Any]]:
        items = rouge_items(self._scorer, hypotheses, self._streams)
        return [[s[self.metric.name].fmeasure, 1.0] for s in items]

    def score(self, summed: Any) -> float:
        return float(summed[0] / summed[1])

    def corpus(self, stats: list[list[Any]]) -> tuple[float, dict[str, Any]]:
        values = np.asarray(stats, dtype=np.float64)[:, 0]
        return float(values.mean()), {"measure": "fmeasure"}

    def name(self) -> str:
        return self.metric.name

    def signature(self, **extra: Any) -> str:
        kw = self.metric.kwargs()
        parts = {
            "type": self.metric.name,
            "stem": "yes" if kw["use_stemmer"] else "no",
            "split": "yes" if kw["split_summaries"] else "no",
            **extra,
            "version": self.version(),
        }
        return "|".join(f"{k}:{v}" for k, v in parts.items())

    def version(self) -> str:
        from importlib.metadata import PackageNotFoundError
        from importlib.metadata import version as dist_version

        try:
            return dist_version("rouge-score")
        except PackageNotFoundError:  # pragma: no cover - installed without metadata
            return "unknown"


def make_rouge_scorer(types: Sequence[str], *, use_stemmer: bool, split_summaries: bool) -> Any:
    rouge_scorer = require("rouge_score.rouge_scorer")
    return rouge_scorer.RougeScorer(
        list(types), use_stemmer=use_stemmer, split_summaries=split_summaries
    )


def rouge_items(scorer: Any, hypotheses: list[str], streams: Streams) -> list[dict[str, Any]]:
    """rouge-score's scores (type -> Score(precision, recall, fmeasure)) of every item: its
    ``score`` with one reference, ``score_multi`` (per type, the reference with the highest
    F-measure) with several."""
    out = []
    try:
        for i, hyp in enumerate(hypotheses):
            refs = item_references(streams, i)
            one = len(refs) == 1
            out.append(scorer.score(refs[0], hyp) if one else scorer.score_multi(refs, hyp))
    except LookupError as exc:  # nltk's sentence splitter without its data (split_summaries)
        raise MissingExtraError(
            "split_summaries=True needs nltk's sentence model, which is not installed; "
            "install it with: python -c \"import nltk; nltk.download('punkt_tab')\""
        ) from exc
    return out


def build(spec: GenerationMetric, streams: Streams) -> Scorer:
    """The scorer of ``spec`` on the reference ``streams``."""
    if spec.backend == "sacrebleu":
        return SacrebleuScorer(spec, streams)
    return RougeScorer(spec, streams)
