"""Metric names: ``ndcg@10``, ``ndcg(gain='exp')@10``, ``P(rel=2)@5``, ``f1(average='macro')``,
and trec_eval's ``ndcg_cut.10``, ``P.5,10``, ``P_5``, ``iprec_at_recall.0.10``, ``map``."""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Sequence
from typing import Any

from ..errors import MetricError, shown
from . import peers
from .registry import REGISTRY, Metric, MetricSpec, TrecName, make, trec_metrics

__all__ = [
    "parse",
    "parse_all",
]


# The name is ASCII, or ir_measures' α_nDCG and α_DCG. Possessive quantifiers (*+): white
# space is consumed once and never re-split, so a name padded with thousands of spaces fails
# in linear time instead of backtracking cubically.
_ASSAY_RE = re.compile(
    r"^\s*+(?P<name>[A-Za-z0-9_α]++)\s*+(?:\((?P<args>.*)\))?\s*+(?:@\s*+(?P<k>[^@\s]++))?\s*+$"
)


#: Longest parameter list read (``ndcg(gain='exp', ...)`` is a few dozen characters): Python's
#: parser needs memory and recursion in proportion to the nesting of what it reads.
MAX_PARAMETER_TEXT = 1000


def _parse_args(text: str, where: str) -> dict[str, Any]:
    if len(text) > MAX_PARAMETER_TEXT:
        raise MetricError(
            f"the parameters of {shown(where)} are longer than {MAX_PARAMETER_TEXT} characters"
        )
    try:
        call = ast.parse(f"f({text})", mode="eval").body
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        raise MetricError(f"cannot parse the parameters of {shown(where)}") from None
    if (
        not isinstance(call, ast.Call)
        or not isinstance(call.func, ast.Name)
        or call.func.id != "f"
        or call.args
    ):
        raise MetricError(f"parameters of {shown(where)} must be given as name=value")
    out: dict[str, Any] = {}
    for kw in call.keywords:
        if kw.arg is None:
            raise MetricError(f"parameters of {shown(where)} must be given as name=value")
        if kw.arg in out:
            raise MetricError(f"parameter {kw.arg} is given twice in {shown(where)}")
        try:
            out[kw.arg] = ast.literal_eval(kw.value)
        except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
            raise MetricError(
                f"parameter {kw.arg} of {shown(where)} must be a literal (number, string or "
                "mapping)"
            ) from None
    return out


def _trec_numbers(text: str, conv: Callable[[str], Any], where: str) -> list[Any]:
    try:
        values = [conv(x) for x in text.split(",") if x != ""]
    except (ValueError, OverflowError):
        raise MetricError(f"cannot parse the parameters in {shown(where)}") from None
    if not values:
        raise MetricError(f"no parameter given in {where!r}")
    return values


# A cutoff is written in ASCII decimal digits (``10``, ``+10``, ``10.0``): Python's float()
# would also take ``1e400`` (infinity), ``nan``, ``1_000`` and non-ASCII digits, and it rounds
# ``99999999999999999999`` to another integer.
_CUTOFF_RE = re.compile(r"(?P<sign>[+-]?)(?P<digits>[0-9]+)(?:\.0*)?")


def _int_strict(text: str) -> int:
    """A cutoff's integer value (see ``_CUTOFF_RE``), else a ValueError."""
    m = _CUTOFF_RE.fullmatch(text.strip(" "))
    if m is None:
        raise ValueError(text)
    value = int(m.group("digits"))
    return -value if m.group("sign") == "-" else value


def _trec_pairs(spec: MetricSpec, binding: TrecName, text: str, where: str) -> dict[str, Any]:
    """``level=gain`` and ``p=value`` pairs (ndcg, dcg, G, ndcg_rel, Rndcg, rbp, rbp_resid):
    the declaration's parameters they set (a gain map from the levels; unnamed levels are
    not given their own value as trec_eval does: the gain map must name every grade)."""
    params: dict[str, Any] = dict(binding.bound)
    gains: dict[int, float] = {}
    names = {p.name for p in spec.params}
    for item in text.split(","):
        key, eq, value = item.partition("=")
        try:
            number = float(value)
        except ValueError:
            number = None
        if not eq or number is None:
            raise MetricError(f"expected name=value pairs in {where!r}, got {item!r}")
        if key == "p" and "p" in names:
            params["p"] = number
        elif re.fullmatch(r"[+-]?\d+", key) and "gain" in names and spec.name != "rbp_resid":
            gains[int(key)] = number
        else:
            raise MetricError(
                f"{where!r}: {spec.name} has no parameter {key!r} in trec_eval syntax"
            )
    if gains:
        params["gain"] = gains
    return params


def _from_trec(tname: str, text: str | None, sep: str) -> list[Metric]:
    """A trec_eval name with its parameter list (None: trec_eval's defaults)."""
    spec, binding = REGISTRY.trec[tname]
    where = tname + (sep + text if text is not None else "")
    if text is None:
        return trec_metrics(spec, binding, binding.defaults)
    kind = binding.params
    if kind == "k":
        return trec_metrics(spec, binding, _trec_numbers(text, _int_strict, where))
    if kind in ("recall", "mult"):
        return trec_metrics(spec, binding, _trec_numbers(text, float, where))
    if kind == "depth":
        return trec_metrics(spec, binding, _trec_numbers(text, _int_strict, where)[:1])
    if kind == "coefficients":
        coefficients = _trec_numbers(text, float, where)
        if len(coefficients) != 4:
            raise MetricError(f"{where!r}: {tname} takes 4 coefficients a,b,c,d")
        return trec_metrics(spec, binding, coefficients)
    if kind == "pairs":
        return [make(spec, **_trec_pairs(spec, binding, text, where))]
    raise MetricError(f"{tname} takes no parameters (in {where!r})")


def parse(name: str, family: str = "ranking") -> list[Metric]:
    """Parse one metric name of ``family`` into one or more metrics.

    A name in trec_eval's syntax (a trec_eval measure name, alone or with trec_eval's
    parameter list: ``P``, ``P.5,10``, ``P_5``, ``rbp.p=0.8``, ``map_cut``) means trec_eval's
    measure with trec_eval's defaults, and expands to one metric per cutoff (``P`` is P@5,
    ..., P@1000). A name in assay's syntax (``P@5``, ``rbp()``, ``rbp(p=0.8)``) means assay's
    metric with assay's defaults; trec_eval names that are not assay names take it too
    (``unj@3``, ``map_cut@10``). The family's declarations load on the first lookup, whatever
    was imported before. ir_measures' and ranx's names are read as their peers read them
    (:mod:`assay.metrics.peers`: ``nDCG(dcg='exp-log2')@10``, ``SetR``, ``ndcg_burges@10``).
    Each metric is labelled by the name as written (``str(m)``; :attr:`Metric.canonical` is
    assay's own name), a trec_eval name that expands by trec_eval's output names (``P_5``).

    Parameters
    ----------
    name : str
        The metric's name, with its parameters and cutoff (any case).
    family : str
        The registry's family of the name (``assay metrics`` lists them).

    Returns
    -------
    list of Metric
        One metric, or one per cutoff of a bare trec_eval name.

    Raises
    ------
    MetricError
        An unknown name (with a suggestion), a bad parameter or cutoff.

    Examples
    --------
    >>> from assay.metrics import parse
    >>> parse("ndcg@10")
    [Metric('ndcg@10')]
    >>> parse("P.5,10")
    [Metric('P@5', label='P_5'), Metric('P@10', label='P_10')]
    >>> parse("f1(average='macro')", family="classification")
    [Metric("f1(average='macro')")]
    """
    if not isinstance(name, str) or not name.strip():
        got = shown(name) if isinstance(name, str) else type(name).__name__
        raise MetricError(f"a metric name must be a non-empty string, got {got}")
    text = name.strip()
    if family != "ranking":
        return [_parse_assay(name, text, family)]
    ranx = peers.ranx_form(text)
    if ranx is not None:
        return [ranx.labelled(text)]
    found = None if peers.spelled(text) else _parse_trec(text)
    if found is None:
        return [_parse_assay(name, text, family).labelled(text)]
    if len(found) == 1:
        return [found[0].labelled(text)]
    return [m.labelled(_trec_label(m)) for m in found]


def _trec_label(m: Metric) -> str:
    """trec_eval's output name of ``m`` (``P_5``, ``iprec_at_recall_0.10``), the label of each
    metric a trec_eval name expands to; the canonical name when it has none."""
    for tname, binding in m.spec.trec.items():
        bound = dict(binding.bound)
        params = dict(m.params)
        if any(params.get(key) != value for key, value in bound.items()):
            continue
        if binding.params == "k" and m.k is not None:
            return f"{tname}_{m.k}"
        if binding.params in ("recall", "mult") and m.k is None:
            return f"{tname}_{float(params[binding.params]):3.2f}"
    return m.canonical


def _parse_trec(text: str) -> list[Metric] | None:
    # trec_eval syntax: "P.5,10", "ndcg_cut.10", "iprec_at_recall.0.10", output names "P_5".
    if "(" in text or "@" in text:
        return None
    head, dot, rest = text.partition(".")
    tname = REGISTRY.trec_name(head if dot else text)
    if tname is not None:
        return _from_trec(tname, rest if dot else None, ".")
    if REGISTRY.lookup(text) is not None:
        return None  # an assay name or alias (p_ia), not trec_eval's "P_5"
    for candidate in sorted(REGISTRY.trec, key=len, reverse=True):
        n = len(candidate)
        named = text[:n].lower() == candidate.lower() and text[n : n + 1] == "_"
        if named and len(text) > n + 1 and REGISTRY.trec[candidate][1].params:
            return _from_trec(candidate, text[n + 1 :], "_")
    return None


def _several(text: str) -> list[str]:
    """The pieces of ``text`` split at commas and white space outside parentheses (one
    piece: one name; ``P@5,AP`` and ``ndcg@10 AP`` are two)."""
    pieces, depth, start = [], 0, 0
    for i, c in enumerate(text):
        depth += (c == "(") - (c == ")")
        if depth == 0 and (c == "," or c.isspace()):
            pieces.append(text[start:i])
            start = i + 1
    pieces.append(text[start:])
    return [p for p in pieces if p]


def _parse_assay(name: str, text: str, family: str) -> Metric:
    pieces = _several(text)
    if len(pieces) > 1:
        raise MetricError(
            f"{shown(name)} holds {len(pieces)} metric names; give them as a list (on the "
            f"command line one -m each: {' '.join('-m ' + p for p in pieces)})"
        )
    m = _ASSAY_RE.match(text)
    if not m:
        head = re.split(r"[(@]", text, maxsplit=1)[0]
        raise MetricError(
            f"cannot parse metric name {shown(name)}"
            f"{_suggest(head, family) if head.strip() else ''}; expected e.g. ndcg@10, "
            "P(rel=2)@5"
        )
    spec = REGISTRY.lookup(m.group("name"), family)
    row = peers.find(m.group("name")) if family == "ranking" else None
    if row is not None and (spec is None or (row.peer == "ir_measures" and row.name == m["name"])):
        args = _parse_args(m.group("args"), name) if m.group("args") else {}
        _no_k_parameter(name, row.name, args)
        return peers.peer_metric(row, args, m.group("k"), text)
    bound: dict[str, Any] = {}
    if spec is None and family == "ranking":
        spec, bound = _trec_in_assay_syntax(m.group("name"), m.group("k") is not None)
    if spec is None:
        raise MetricError(
            f"unknown {_kind(family)}metric {shown(m.group('name'))}"
            f"{_suggest(m.group('name'), family)}; `assay metrics` lists them all"
        )
    params = {**bound, **(_parse_args(m.group("args"), name) if m.group("args") else {})}
    _no_k_parameter(name, spec.name, params)
    k: int | None = None
    if m.group("k") is not None:
        try:
            k = _int_strict(m.group("k"))
        except ValueError:
            k = 0
        if k <= 0:
            raise MetricError(
                f"cutoff in {shown(name)} must be a positive integer, got {shown(m.group('k'))}"
            )
    return make(spec, k, **params)


def _no_k_parameter(name: str, written: str, params: dict[str, Any]) -> None:
    """Refuse a cutoff given as the parameter ``k`` (make(spec, k, k=...) was an internal
    TypeError), showing how to write it."""
    if "k" in params:
        rest = ", ".join(f"{p}={v!r}" for p, v in params.items() if p != "k")
        raise MetricError(
            f"the cutoff of {shown(name)} is written after @, not as a parameter: "
            f"{written}{f'({rest})' if rest else ''}@{params['k']}"
        )


def _trec_in_assay_syntax(name: str, cutoff: bool) -> tuple[MetricSpec | None, dict[str, Any]]:
    """A trec_eval name that is not an assay name, written in assay's syntax (``unj@3``,
    ``map_cut@10``, ``Rprec_mult(mult=0.5)``): its declaration with trec_eval's parameters.
    A cutoff is accepted where trec_eval's parameter list is cutoffs."""
    tname = REGISTRY.trec_name(name)
    if tname is None:
        return None, {}
    spec, binding = REGISTRY.trec[tname]
    if cutoff and binding.params != "k" and spec.cutoff != "none":
        raise MetricError(f"{tname} takes no cutoff in trec_eval; write {spec.name}@k")
    return spec, dict(binding.bound)


def _kind(family: str) -> str:
    return "" if family == "ranking" else f"{family} "


def _suggest(name: str, family: str) -> str:
    found = peers.hint(name, family)
    return f" (did you mean {found}?)" if found else ""


def _seen_before(m: Metric, seen: set[Metric], out: list[Metric]) -> bool:
    """Whether ``m`` is already in ``out`` (``seen`` holds its hashable members)."""
    try:
        if m in seen:
            return True
        seen.add(m)
        return False
    except TypeError:  # a parameter value that cannot be hashed: compare one by one
        return m in out


def parse_all(
    names: str | Metric | Sequence[str | Metric], family: str = "ranking"
) -> list[Metric]:
    """Parse a name, a Metric, or a list of either, keeping order and dropping repeats.

    Parameters
    ----------
    names : str, Metric or sequence of them
        Names as :func:`parse` reads them, and metrics already parsed.
    family : str
        The registry's family every metric must belong to.

    Returns
    -------
    list of Metric
        Every metric once, in the order given.

    Raises
    ------
    MetricError
        A bad name, a metric of another family, or no metric at all.

    Examples
    --------
    >>> from assay.metrics import parse_all
    >>> parse_all(["map", "ndcg@10", "AP"])
    [Metric('AP', label='map'), Metric('ndcg@10')]
    """
    items = [names] if isinstance(names, str | Metric) else list(names)
    out: list[Metric] = []
    # A set, not ``m in out``: thousands of names would cost millions of comparisons.
    seen: set[Metric] = set()
    for item in items:
        for m in [item] if isinstance(item, Metric) else parse(item, family):
            if m.family != family:
                raise MetricError(f"{m} is a {m.family} metric, not a {family} metric")
            if not _seen_before(m, seen, out):
                out.append(m)
    if not out:
        raise MetricError("no metric given")
    return out
