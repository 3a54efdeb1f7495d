"""What a metric declaration is: :class:`MetricSpec`, trec_eval's names for it
(:class:`TrecName`), the other tools that compute it (:class:`Peer`) and the kinds a
declaration chooses from (:data:`Cutoff`, :data:`Aggregate`, :data:`ValueKind`,
:data:`TrecParams`). Re-exported by
:mod:`assay.metrics.registry`, whose :func:`~assay.metrics.registry.metric` and
:func:`~assay.metrics.registry.measure` make the declarations.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

from .params import Param

__all__ = [
    "TREC_CUTOFFS",
    "Aggregate",
    "Cutoff",
    "MetricSpec",
    "Peer",
    "TrecName",
    "TrecParams",
    "ValueKind",
]


Cutoff = Literal["none", "optional", "required"]
Aggregate = Literal["mean", "gmean", "sum", "none"]
#: What a metric's per-query values are: numbers (every metric but one), or text (relstring).
ValueKind = Literal["number", "text"]
#: What a trec_eval measure's parameter list (after the first '.') holds: nothing, cutoffs,
#: recall levels, multiples of R, ``level=gain`` / ``p=`` pairs, utility's four coefficients,
#: or relstring's length.
TrecParams = Literal["", "k", "recall", "mult", "pairs", "coefficients", "depth"]

#: trec_eval's default cutoffs (P, recall, map_cut, ndcg_cut, relative_P).
TREC_CUTOFFS = (5, 10, 15, 20, 30, 100, 200, 500, 1000)


@dataclass(frozen=True)
class TrecName:
    """How a trec_eval measure name reads onto a declaration.

    ``params``: what trec_eval's parameter list after the name holds; ``defaults``: trec_eval's
    default list, what the name means when written without one (``P`` is P at 5, 10, ...,
    1000); ``bound``: the declaration's parameters that make it compute trec_eval's measure
    (``rbp``: ``p=0.9, gain='scaled'``), overriding the declaration's own defaults.
    """

    params: TrecParams = ""
    defaults: tuple[Any, ...] = ()
    bound: tuple[tuple[str, Any], ...] = ()


@dataclass(frozen=True)
class Peer:
    """Another tool that computes a measure, as the declaration records it: the catalogue
    (``docs/metrics.md``) lists it under the measure with how its value differs.

    Parameters
    ----------
    tool : str
        The tool as people know it (``"scikit-learn"``, ``"seqeval"``, ``"conlleval"``).
    name : str
        What computes the measure there: a Python tool's importable dotted name
        (``"sklearn.metrics.f1_score"``; a test imports it), with the arguments that make it
        compute assay's measure when they differ from its defaults
        (``"sklearn.metrics.f1_score(average='macro')"``); any other tool's own name.
    differs : str
        How its values differ from assay's, in one sentence ("" : the same values, which the
        peer tests check).

    Examples
    --------
    >>> from assay.metrics import REGISTRY
    >>> peer = REGISTRY.lookup("rmse", "regression").peers[0]
    >>> peer.tool, peer.name, peer.differs
    ('scikit-learn', 'sklearn.metrics.root_mean_squared_error', '')
    """

    tool: str
    name: str
    differs: str = ""


@dataclass(frozen=True, eq=False)
class MetricSpec:
    """One metric declaration, as :func:`metric` and :func:`measure` register it.

    Specs are singletons, compared and hashed by identity; look them up with
    :meth:`Registry.lookup` and bind parameters with :func:`make` (or parse a name:
    :func:`assay.metrics.parse`).

    Parameters
    ----------
    name : str
        The canonical name.
    family : str
        The registry's family (``"ranking"``, ``"classification"``, ...).
    input : str
        What it is computed from: ``"ranked lists"``, ``"labels"``, ``"scores"``, ...
    kernel : callable
        The function that computes it (a ranking kernel: ``kernel(ranked, k, **params)``).
    params : tuple of Param
        Its parameters.
    cutoff : {"none", "optional", "required"}
        Whether it takes a rank cutoff ``@k``.
    lower, upper : float or None
        Its bounds (None: unbounded).
    higher_is_better : bool
        Its direction.
    aggregate : {"mean", "gmean", "sum", "none"}
        How per-query values are aggregated.
    average_ties : bool
        Whether it has a closed form under ``ties="average"``.
    integer : bool
        Whether its values are counts.
    aliases : tuple of str
        Other names it answers to.
    trec : mapping of str to TrecName
        trec_eval's names for it, and how they read.
    doc : str
        The docstring: the definition with its formula, then a ``Reference:`` sentence
        (``assay metrics`` and the catalogue show them).
    from_qrels : bool
        Whether its value comes from the qrels alone (kept for missing queries).
    value : {"number", "text"}
        What its per-query values are.
    peers : tuple of Peer
        Other tools that compute it, and how they differ (trec_eval's names are in ``trec``,
        ir_measures' and ranx's in :data:`assay.metrics.peers.PEER_NAMES`).

    Examples
    --------
    >>> from assay.metrics import REGISTRY
    >>> spec = REGISTRY.lookup("ndcg")
    >>> spec.name, spec.family, spec.cutoff, [p.name for p in spec.params]
    ('ndcg', 'ranking', 'optional', ['gain', 'discount', 'b'])
    >>> spec.summary
    'Normalised DCG: NDCG@k = DCG@k / IDCG@k.'
    """

    name: str
    family: str
    input: str  # what it is computed from: "ranked lists", "labels", "scores", ...
    kernel: Callable[..., Any]  # Any: each family's kernel takes its own data and options
    params: tuple[Param, ...]
    cutoff: Cutoff
    lower: float | None
    upper: float | None
    higher_is_better: bool
    aggregate: Aggregate
    average_ties: bool
    integer: bool
    aliases: tuple[str, ...]
    trec: Mapping[str, TrecName]  # trec_eval's names for this declaration
    doc: str
    from_qrels: bool = False  # value comes from the qrels alone (kept for missing queries)
    value: ValueKind = "number"
    peers: tuple[Peer, ...] = ()

    @property
    def summary(self) -> str:
        """The first line of the docstring (the name when there is none)."""
        return self.doc.strip().splitlines()[0] if self.doc.strip() else self.name

    def param(self, name: str) -> Param:
        """The parameter called ``name`` (a ``KeyError`` when there is none)."""
        for p in self.params:
            if p.name == name:
                return p
        raise KeyError(name)
