"""Evaluation conventions: decided in one place, validated once, recorded in every result.

=============  ===========================================  =========  =========================
convention     values                                       default    matches
=============  ===========================================  =========  =========================
ties           docno | input | average                      docno      trec_eval
missing        zero | skip | error                          zero       trec_eval -c
no_relevant    zero | one | skip | nan                      zero       trec_eval
judged_only    False | True                                 False      trec_eval (-J when True)
short_queries  score | skip                                 score      trec_eval, LightGBM
=============  ===========================================  =========  =========================
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any

from .._options import Missing, NoRelevant, ShortQueries, Ties, choice, flag
from ..errors import ConventionError

__all__ = [
    "DESCRIPTIONS",
    "Conventions",
    "Missing",
    "NoRelevant",
    "Ties",
]


_KINDS: dict[str, Any] = {
    "ties": Ties,
    "missing": Missing,
    "no_relevant": NoRelevant,
    "short_queries": ShortQueries,
}

DESCRIPTIONS: dict[str, dict[str, str]] = {
    "ties": {
        "docno": "score descending, then docno descending byte order (trec_eval)",
        "input": "score descending, then input order (LightGBM, XGBoost)",
        "average": "expected value over all orders of tied documents (McSherry & Najork 2008; scikit-learn's ndcg_score)",
    },
    "missing": {
        "zero": "qrels queries without results score 0 on every metric (trec_eval -c)",
        "skip": "qrels queries without results are left out (trec_eval without -c, pytrec_eval, ranx)",
        "error": "a qrels query without results is an error",
    },
    "no_relevant": {
        "zero": "queries with no relevant judged document score 0 on normalised metrics (trec_eval)",
        "one": "... score 1 (LightGBM, XGBoost)",
        "skip": "... are left out of that metric",
        "nan": "... score NaN, and the aggregate is NaN",
    },
    "short_queries": {
        "score": "a query with fewer than k judged documents is scored at cutoff k like any other (trec_eval, LightGBM)",
        "skip": "... has no value for metrics at cutoff k: left out of their values and mean (np.nanmean in LTR notebooks)",
    },
}


@dataclass(frozen=True)
class Conventions:
    """How ties, missing queries, judgment-free queries, unjudged documents and queries with
    fewer than k judged documents are treated.

    Validated once (a :class:`~assay.errors.ConventionError` names a wrong value) and
    recorded in every result; :data:`DESCRIPTIONS` says what every value means. The defaults
    are trec_eval's.

    Parameters
    ----------
    ties : {"docno", "input", "average"}
        Tied scores: by document id descending (trec_eval), in input order, or the expected
        value over all orders of the tied documents (McSherry & Najork 2008).
    missing : {"zero", "skip", "error"}
        Qrels queries without results: score 0 (trec_eval ``-c``), left out, or an error.
    no_relevant : {"zero", "one", "skip", "nan"}
        Queries without a relevant judged document, on normalised metrics.
    judged_only : bool
        Drop unjudged documents from the rankings first (trec_eval ``-J``).
    short_queries : {"score", "skip"}
        Queries with fewer than k judged documents at cutoff k: scored like any other, or
        left out of that metric.

    Examples
    --------
    >>> from assay import Conventions
    >>> conv = Conventions(ties="input", missing="skip")
    >>> conv.ties, conv.no_relevant
    ('input', 'zero')
    >>> Conventions.from_kwargs(judged_only=True).to_dict()["judged_only"]
    True
    """

    ties: Ties = "docno"
    missing: Missing = "zero"
    no_relevant: NoRelevant = "zero"
    judged_only: bool = False
    short_queries: ShortQueries = "score"

    def __post_init__(self) -> None:
        for name, kind in _KINDS.items():
            choice(getattr(self, name), kind, name, error=ConventionError)
        object.__setattr__(
            self, "judged_only", flag(self.judged_only, "judged_only", error=ConventionError)
        )

    def to_dict(self) -> dict[str, Any]:
        """Every convention by name (as results record them)."""
        return asdict(self)

    @classmethod
    def from_kwargs(cls, **kwargs: Any) -> Conventions:
        """From keyword arguments, an unknown name a :class:`~assay.errors.ConventionError`
        that lists the known ones."""
        known = [f.name for f in fields(cls)]
        unknown = set(kwargs) - set(known)
        if unknown:
            raise ConventionError(
                f"unknown convention(s): {', '.join(sorted(unknown))}; expected {', '.join(known)}",
                option=sorted(unknown)[0],
            )
        return cls(**kwargs)
