"""Peer names: every measure name ir_measures' parser accepts and every ranx metric name, and
what it means in assay: one declarative table, :data:`PEER_NAMES`.

A row either maps the peer's name to an assay declaration (with the parameters the name fixes
and how the peer's parameters translate), or refuses it, naming the nearest assay measure and
why. A measure that is still being built is refused with ``pending=True``: when it lands,
giving the row its ``assay`` name enables the peer's name. The deliberate differences in value
are listed in ``docs/conventions.md`` ("Names of ir_measures and ranx").

How a peer name is read (:func:`peer_metric`): ir_measures' syntax ``Name(param=value)@k``
(``@`` is a recall level for ``IPrec``; ``cutoff=`` is the same as ``@``); ranx's ``name@k``,
``name-lN`` (relevance level N) and ``rbp.95`` (persistence 0.95).
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from ..errors import MetricError, shown
from .registry import REGISTRY, Metric, MetricSpec, make

__all__ = [
    "PEER_NAMES",
    "PeerName",
    "find",
    "hint",
    "peer_metric",
    "ranx_form",
    "spelled",
]

Peer = Literal["ir_measures", "ranx"]
#: What ``@`` after the name is: a cutoff, a recall level (``IPrec@0.5``), or not allowed.
At = Literal["k", "recall", "none"]


@dataclass(frozen=True)
class PeerName:
    """One peer's name for a measure and what it means in assay.

    Parameters
    ----------
    peer : {"ir_measures", "ranx"}
        Whose name it is.
    name : str
        The name as the peer spells it.
    assay : str or None
        The assay declaration it means (None: refused, see ``nearest`` and ``reason``).
    bound : tuple of (str, value) pairs
        Parameters of the assay declaration the name fixes.
    rename : tuple of (str, str) pairs
        Peer parameter -> assay parameter (a parameter the declaration has under the same
        name passes through).
    values : tuple of (str, mapping) pairs
        Peer parameter -> how its values translate (``dcg='exp-log2'`` is ``gain='exp'``).
    switch : tuple of (str, value, str) triples
        ``(parameter, value, declaration)``: the name means another declaration when the
        peer's parameter has that value (``...`` : any value), e.g. ``NumRet(rel=1)``.
    at : {"k", "recall", "none"}
        What ``@`` after the name is.
    fixed : tuple of (str, value) pairs
        Peer parameters that take one value only, the one the assay declaration computes
        (``SDCG(dcg='log2')``): that value is accepted and dropped, any other refused.
    root : tuple of str
        Peer parameters whose square root is assay's (``SetF(beta=x)`` is trec_eval's
        (x + 1) P R / (x P + R): assay's ``F(beta=sqrt(x))``).
    nearest : str
        For a refused name: the nearest assay measure, as assay writes it.
    reason : str
        For a refused name: why.
    pending : bool
        Refused until the measure lands in assay (then the row gets its ``assay`` name).
    differs : str
        How the peer's values differ from assay's, in one sentence ("" : the same values);
        the measure catalogue (``docs/metrics.md``) shows it.

    Examples
    --------
    >>> from assay.metrics.peers import PEER_NAMES
    >>> row = next(p for p in PEER_NAMES if p.name == "SetR")
    >>> row.peer, row.assay
    ('ir_measures', 'R')
    """

    peer: Peer
    name: str
    assay: str | None
    bound: tuple[tuple[str, Any], ...] = ()  # Any: each parameter's value is of its own type
    rename: tuple[tuple[str, str], ...] = ()
    values: tuple[tuple[str, tuple[tuple[Any, Any], ...]], ...] = ()  # Any: parameter values
    switch: tuple[tuple[str, Any, str], ...] = ()  # Any: the value that switches (or ...)
    at: At = "k"
    fixed: tuple[tuple[str, Any], ...] = ()  # Any: the one value of each parameter
    root: tuple[str, ...] = ()
    nearest: str = ""
    reason: str = ""
    pending: bool = False
    differs: str = ""


def _ir(name: str, assay: str | None, **kw: Any) -> PeerName:  # Any: PeerName's fields
    return PeerName("ir_measures", name, assay, **kw)


def _ranx(name: str, assay: str | None, **kw: Any) -> PeerName:  # Any: PeerName's fields
    return PeerName("ranx", name, assay, **kw)


_NDCG_DCG = (("dcg", (("log2", "linear"), ("exp-log2", "exp"))),)
_RBP = (
    "Without rel it takes the grade itself as the gain (values above 1 with grades above 1); "
    "equal on binary qrels (graded in assay: rbp(gain='scaled') or a gain map)."
)
_NDEVAL = (
    "pyndeval breaks score ties by ascending document id (assay's ties='input' on rows in that "
    "order) and needs a cutoff."
)
_NDEVAL_IA = _NDEVAL[:-1] + "; alpha is fixed at 0.5 (assay's default)."
_CWL = (
    "cwl_eval needs max_rel (assay's default is the qrels' highest grade) and breaks score "
    "ties in the run's input order; assay by its ties convention."
)

#: Every measure name of ir_measures 0.4.3's registry and every metric name of ranx 0.3.21,
#: and what each means in assay. One row per name; the test enumerates both peers' lists.
PEER_NAMES: tuple[PeerName, ...] = (
    # ---- ir_measures: trec_eval's measures (its pytrec_eval provider)
    _ir("P", "P"),
    _ir("Precision", "P"),
    _ir("R", "R"),
    _ir("Recall", "R"),
    _ir("AP", "AP"),
    _ir("MAP", "AP"),
    _ir("RR", "RR"),
    _ir("MRR", "RR"),
    _ir("Rprec", "Rprec", at="none"),
    _ir("RPrec", "Rprec", at="none"),
    _ir("Success", "success"),
    _ir("nDCG", "ndcg", rename=(("dcg", "gain"), ("gains", "gain")), values=_NDCG_DCG),
    _ir("NDCG", "ndcg", rename=(("dcg", "gain"), ("gains", "gain")), values=_NDCG_DCG),
    _ir("Bpref", "bpref", at="none"),
    _ir("BPref", "bpref", at="none"),
    _ir("infAP", "infAP", at="none"),
    _ir("IPrec", "iprec", at="recall"),
    _ir("SetP", "P", at="none", switch=(("relative", True, "relative_P"),)),
    _ir("SetRelP", "relative_P", at="none", switch=(("relative", False, "P"),)),
    _ir("SetR", "R", at="none"),
    _ir("SetF", "F", at="none", root=("beta",)),
    _ir("SetAP", "set_map", at="none"),
    _ir("NumRet", "num_ret", at="none", switch=(("rel", ..., "num_rel_ret"),)),
    _ir("NumRelRet", "num_rel_ret", at="none"),
    _ir("NumRel", "num_rel", at="none"),
    _ir(
        "Judged",
        "judged",
        differs="It divides by min(k, list length), assay by k: equal when the list has k "
        "documents or more.",
    ),
    _ir("RBP", "rbp", differs=_RBP),
    _ir(
        "NumQ",
        None,
        at="none",
        nearest="num_ret",
        reason="the number of queries is not a per-query measure in assay: every result "
        "counts its queries (MetricValues.queries)",
    ),
    # gdeval's ERR (its provider in ir_measures): grades on gdeval's fixed 0..4 scale, gdeval's
    # tie order; assay's own err stays lower case.
    _ir(
        "ERR",
        "gdeval_err",
        differs="gdeval prints 5 decimals, needs a cutoff and numeric topics.",
    ),
    _ir(
        "Accuracy",
        None,
        nearest="pairwise_accuracy",
        reason="ir_measures' Accuracy (the share of relevant-before-non-relevant pairs, from its "
        "accuracy provider) is not an assay measure",
    ),
    _ir(
        "Compat",
        "Compat",
        at="none",
        differs="Its provider breaks score ties by ascending document id; assay by its ties "
        "convention.",
    ),
    # ---- ir_measures: diversity (pyndeval): ndeval's measures. ir_measures has no alpha on
    # ERR_IA, nERR_IA (pyndeval runs them at its default 0.5, assay's default); judged_only=True
    # is refused (assay's judged_only convention); a cutoff-less name is assay's @20 (ndeval's
    # deepest; ir_measures' provider fails there).
    _ir("alpha_nDCG", "alpha_ndcg", differs=_NDEVAL),
    _ir("α_nDCG", "alpha_ndcg", differs=_NDEVAL),
    _ir("alpha_DCG", "alpha_dcg", differs=_NDEVAL),
    _ir("α_DCG", "alpha_dcg", differs=_NDEVAL),
    _ir("ERR_IA", "err_ia", differs=_NDEVAL_IA),
    _ir("nERR_IA", "nerr_ia", differs=_NDEVAL_IA),
    _ir("NRBP", "nrbp", at="none", differs=_NDEVAL),
    _ir("nNRBP", "nnrbp", at="none", differs=_NDEVAL),
    _ir("P_IA", "p_ia", differs=_NDEVAL),
    _ir("AP_IA", "map_ia", at="none", differs=_NDEVAL),
    _ir("MAP_IA", "map_ia", at="none", differs=_NDEVAL),
    _ir("StRecall", "subtopic_recall", differs=_NDEVAL),
    # ---- ir_measures: C/W/L (cwl_eval): declared under ir_measures' names and parameters (T, p,
    # min_rel, max_rel; assay's max_rel defaults to the qrels' maximum where ir_measures needs it)
    _ir("INST", "INST", at="none", differs=_CWL),
    _ir("INSQ", "INSQ", at="none", differs=_CWL),
    _ir("BPM", "BPM", differs=_CWL),
    _ir("NERR8", "NERR8", differs=_CWL),
    _ir("NERR9", "NERR9", differs=_CWL),
    _ir("NERR10", "NERR10", at="none", differs=_CWL),
    _ir("NERR11", "NERR11", at="none", differs=_CWL),
    _ir("SDCG", "SDCG", fixed=(("dcg", "log2"),), differs=_CWL),
    # ---- ranx 0.3.21 (metric_switch of ranx.metrics)
    _ranx("precision", "P"),
    _ranx("recall", "R"),
    _ranx("f1", "F"),
    _ranx("hit_rate", "success"),
    _ranx("map", "AP"),
    _ranx("mrr", "RR"),
    _ranx("r-precision", "Rprec", at="none"),
    _ranx(
        "bpref",
        "bpref",
        at="none",
        differs="NaN (0/0) for a query without a judged non-relevant document, where assay "
        "gives trec_eval's value (the share of its relevant documents retrieved).",
    ),
    _ranx("dcg", "dcg"),
    _ranx("ndcg", "ndcg"),
    _ranx("dcg_burges", "dcg", bound=(("gain", "exp"),)),
    _ranx("ndcg_burges", "ndcg", bound=(("gain", "exp"),)),
    _ranx("rbp", "rbp", at="none", differs=_RBP),
    _ranx(
        "hits",
        None,
        nearest="P@k",
        reason="ranx's hits@k counts the relevant documents in the top k (k x P@k); assay has "
        "no such count at a cutoff (num_rel_ret counts the whole list)",
    ),
)


def _key(name: str) -> str:
    return name.casefold()


_EXACT: dict[str, PeerName] = {p.name: p for p in PEER_NAMES}
_FOLDED: dict[str, PeerName] = {}
for _row in PEER_NAMES:
    _FOLDED.setdefault(_key(_row.name), _row)


def find(name: str) -> PeerName | None:
    """The row of a peer's name: as the peer spells it, else in any case when ``name`` is not
    an assay or trec_eval name (``err`` is assay's, ``ERR`` ir_measures').

    Parameters
    ----------
    name : str
        The name, without parameters or cutoff.

    Returns
    -------
    PeerName or None
        Its row, or None when it is no peer's name.

    Examples
    --------
    >>> from assay.metrics.peers import find
    >>> find("ndcg_burges").assay, find("setr").name, find("err")
    ('ndcg', 'SetR', None)
    """
    row = _EXACT.get(name)
    if row is not None:
        return row
    row = _FOLDED.get(_key(name))
    if row is None or REGISTRY.lookup(name) is not None or REGISTRY.trec_name(name):
        return None
    return row


def spelled(text: str) -> PeerName | None:
    """The row of the peer's name ``text`` starts with, spelled as the peer spells it, when
    trec_eval does not spell a name so (``RBP``, ``P_IA``, ``dcg_burges`` are the peers'
    measures; ``rbp``, ``P``, ``map`` are trec_eval's).

    Parameters
    ----------
    text : str
        A whole metric name (``RBP(p=0.8)``).

    Returns
    -------
    PeerName or None
        The row, or None.

    Examples
    --------
    >>> from assay.metrics.peers import spelled
    >>> spelled("RBP(p=0.8)").peer, spelled("rbp.p=0.8")
    ('ir_measures', None)
    """
    head = re.match(r"[^\s(@.]+", text)
    if head is None or head.group() in REGISTRY.trec:
        return None
    return _EXACT.get(head.group())


# ranx's own forms: r-precision, name@k-l2, rbp.95 / rbp.95-l2.
_RANX_RE = re.compile(
    r"^(?P<name>r-precision|[a-z_1]+)"
    r"(?:(?P<dot>\.(?P<p>[0-9]+))|@(?P<k>[0-9]+))?(?:-l(?P<lvl>[0-9]+))?$"
)


def ranx_form(text: str) -> Metric | None:
    """A name in ranx's own syntax that no other syntax reads (``r-precision``,
    ``precision@10-l2``, ``rbp.95``), as a metric.

    Parameters
    ----------
    text : str
        A whole metric name.

    Returns
    -------
    Metric or None
        The metric, or None for any other text.

    Raises
    ------
    MetricError
        A relevance level (``-l2``) on a measure without a relevance threshold.

    Examples
    --------
    >>> from assay.metrics.peers import ranx_form
    >>> ranx_form("rbp.95"), ranx_form("precision@10-l2"), ranx_form("ndcg@10")
    (Metric('rbp(p=0.95)'), Metric('P(rel=2)@10'), None)
    """
    m = _RANX_RE.match(text)
    if m is None or (m["name"] != "r-precision" and not (m["lvl"] or m["dot"])):
        return None
    row = _EXACT.get(m["name"])
    if row is None or row.peer != "ranx":
        return None
    if m["dot"] and row.name != "rbp":
        return None
    params: dict[str, Any] = {}  # Any: parameter values
    if m["p"]:
        params["p"] = float(f"0.{m['p']}")
    if m["lvl"] and int(m["lvl"]) != 1:
        spec = REGISTRY.lookup(row.assay or "")
        if spec is not None and "rel" not in {p.name for p in spec.params}:
            raise MetricError(
                f"{shown(text)}: ranx's -l{m['lvl']} drops the grades below {m['lvl']}, which "
                f"{spec.name} has no parameter for; the nearest assay measure is "
                f"{spec.name}(gain={{...}}) with a gain map giving those grades 0"
            )
        params["rel"] = int(m["lvl"])
    return peer_metric(row, params, m["k"], text)


def _refuse(row: PeerName, where: str) -> MetricError:
    state = "not yet an assay measure" if row.pending else "not an assay measure"
    return MetricError(
        f"{shown(where)} is {row.peer}'s {row.name}, {state}: {row.reason}; the nearest assay "
        f"measure is {row.nearest}"
    )


def _translated(
    row: PeerName, params: Mapping[str, Any], where: str
) -> tuple[MetricSpec, dict[str, Any]]:
    """The declaration and its parameters for the peer's parameters ``params``."""
    target = row.assay or ""
    for key, value, other in row.switch:
        if key in params and (value is ... or params[key] == value):
            target = other
    spec = REGISTRY.lookup(target)
    if spec is None:  # pragma: no cover - the table test checks every target exists
        raise MetricError(f"{where}: {target} is not declared")
    known = {p.name for p in spec.params}
    switched = {s[0] for s in row.switch}
    renames, tables = dict(row.rename), {k: dict(v) for k, v in row.values}
    fixed = dict(row.fixed)
    out: dict[str, Any] = dict(row.bound)  # Any: parameter values
    for key, value in params.items():
        if key == "judged_only":
            if value:
                raise MetricError(
                    f"{shown(where)}: judged_only is a convention in assay, not a parameter of "
                    "the measure: evaluate(..., judged_only=True) or --judged-only"
                )
            continue
        if key in switched and key not in known:  # it chose the declaration
            continue
        if key in fixed:
            if value != fixed[key]:
                raise MetricError(f"{shown(where)}: {key} must be {fixed[key]!r}")
            continue
        name = renames.get(key, key)
        if key in tables:
            if value not in tables[key]:
                allowed = ", ".join(repr(v) for v in tables[key])
                raise MetricError(f"{shown(where)}: {key} must be one of {allowed}")
            value = tables[key][value]
        if key in row.root and isinstance(value, int | float) and value > 0:
            value = math.sqrt(value)
        if name in out:
            raise MetricError(f"{shown(where)}: {name} is given twice")
        out[name] = value
    return spec, out


def peer_metric(row: PeerName, params: Mapping[str, Any], at: str | None, where: str) -> Metric:
    """The assay metric a peer's name means, with the peer's parameters ``params`` and the
    text after ``@`` (``at``); a :class:`~assay.errors.MetricError` naming the nearest assay
    measure when the name is refused.

    Parameters
    ----------
    row : PeerName
        The row of the peer's name.
    params : mapping
        The parameters written in parentheses.
    at : str or None
        What followed ``@``.
    where : str
        The whole name, for messages.

    Returns
    -------
    Metric
        The metric.

    Raises
    ------
    MetricError
        A refused name, a bad parameter or cutoff.

    Examples
    --------
    >>> from assay.metrics.peers import find, peer_metric
    >>> peer_metric(find("nDCG"), {"dcg": "exp-log2"}, "10", "nDCG(dcg='exp-log2')@10")
    Metric("ndcg(gain='exp')@10")
    """
    if row.assay is None:
        raise _refuse(row, where)
    values = dict(params)
    k: int | None = values.pop("cutoff", None)
    if at is not None:
        if row.at == "none" or k is not None:
            what = "no cutoff" if row.at == "none" else "one cutoff, @ or cutoff="
            raise MetricError(f"{shown(where)}: {row.name} takes {what}")
        if row.at == "recall":
            try:
                values["recall"] = float(at)
            except ValueError:
                raise MetricError(f"{shown(where)}: the recall level after @ is a number") from None
        else:
            k = _cutoff(at, where)
    spec, out = _translated(row, values, where)
    return make(spec, k, **out)


def _cutoff(text: str, where: str) -> int:
    if not re.fullmatch(r"[0-9]+", text) or int(text) <= 0:
        raise MetricError(f"cutoff in {shown(where)} must be a positive integer, got {shown(text)}")
    return int(text)


def _normal(name: str) -> str:
    """A name without case, punctuation or white space (``Set-R`` and ``setr`` meet)."""
    return re.sub(r"[^0-9a-zα]", "", name.casefold())


def hint(name: str, family: str = "ranking") -> str | None:
    """The name to suggest for the unknown ``name``: the alias tables first (assay's names
    and aliases, trec_eval's names, the peers' names, compared without case or punctuation),
    then string similarity over the same names. A peer's name is suggested with what it
    means in assay.

    Parameters
    ----------
    name : str
        The unknown name (without parameters or cutoff).
    family : str
        The registry's family.

    Returns
    -------
    str or None
        The suggestion (quoted, with what a peer's name means in assay), or None.

    Examples
    --------
    >>> from assay.metrics.peers import hint
    >>> print(hint("Set-R"))
    'SetR', ir_measures's name for 'R'
    >>> print(hint("ndcg_burgess"))
    'ndcg_burges', ranx's name for "ndcg(gain='exp')"
    """
    import difflib

    candidates: dict[str, str] = {}
    for own in REGISTRY.names(family):
        spec = REGISTRY.lookup(own, family)
        candidates.setdefault(_normal(own), spec.name if spec is not None else own)
    if family == "ranking":
        for tname in REGISTRY.trec:
            candidates.setdefault(_normal(tname), tname)
        for row in PEER_NAMES:
            candidates.setdefault(_normal(row.name), row.name)
    key = _normal(name)
    found = candidates.get(key)
    if found is None:
        close = difflib.get_close_matches(key, list(candidates), n=1)
        found = candidates[close[0]] if close else None
    if found is None:
        return None
    peer = _EXACT.get(found) if family == "ranking" else None
    if peer is None or REGISTRY.lookup(found, family) is not None:
        return repr(found)
    if peer.assay is None:
        state = "not yet" if peer.pending else "not"
        return (
            f"{peer.name!r}, {peer.peer}'s, {state} an assay measure; the nearest is "
            f"{peer.nearest!r}"
        )
    meaning = peer_metric(peer, {}, None, peer.name)
    return f"{peer.name!r}, {peer.peer}'s name for {meaning.canonical!r}"
