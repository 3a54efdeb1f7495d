"""Metric names: ``ndcg@10``, ``ndcg(gain='exp')@10``, ``P(rel=2)@5``, ``f1(average='macro')``,
and trec_eval's ``ndcg_cut.10``, ``P.5,10``, ``P_5``, ``iprec_at_recall.0.10``, ``map``."""

from __future__ import annotations

import ast
import re
from collections.abc import Callable
from typing import Any

from ..errors import MetricError
from .registry import REGISTRY, Metric, make

__all__ = [
    "parse",
    "parse_all",
]


# Possessive quantifiers (*+): white space is consumed once and never re-split, so a name
# padded with thousands of spaces fails in linear time instead of backtracking cubically.
_ASSAY_RE = re.compile(
    r"^\s*+(?P<name>[A-Za-z0-9_]++)\s*+(?:\((?P<args>.*)\))?\s*+(?:@\s*+(?P<k>[^@\s]++))?\s*+$"
)


def _parse_args(text: str, where: str) -> dict[str, Any]:
    try:
        call = ast.parse(f"f({text})", mode="eval").body
    except SyntaxError:
        raise MetricError(f"cannot parse the parameters of {where!r}") from None
    if not isinstance(call, ast.Call) or call.args:
        raise MetricError(f"parameters of {where!r} must be given as name=value")
    out: dict[str, Any] = {}
    for kw in call.keywords:
        if kw.arg is None:
            raise MetricError(f"parameters of {where!r} must be given as name=value")
        try:
            out[kw.arg] = ast.literal_eval(kw.value)
        except ValueError:
            raise MetricError(
                f"parameter {kw.arg} of {where!r} must be a literal (number, string or mapping)"
            ) from None
    return out


def _trec_numbers(text: str, conv: Callable[[str], Any], where: str) -> list[Any]:
    try:
        return [conv(x) for x in text.split(",") if x != ""]
    except ValueError:
        raise MetricError(f"cannot parse the parameters in {where!r}") from None


def _from_trec(name: str, text: str | None, sep: str) -> list[Metric] | None:
    """trec_eval names: ``P.5,10`` / ``P_5`` / ``ndcg_cut.10`` / ``iprec_at_recall.0.10`` / ``map``."""
    if name not in REGISTRY.trec:
        return None
    spec, how = REGISTRY.trec[name]
    where = name + (sep + text if text is not None else "")
    if text is None:
        if how == "k" and spec.cutoff == "required":
            raise MetricError(f"{name} needs a cutoff, e.g. {name}{sep}10")
        return [make(spec)]
    if how == "k":
        ks = _trec_numbers(text, _int_strict, where)
        if not ks:
            raise MetricError(f"no cutoff given in {where!r}")
        return [make(spec, k) for k in ks]
    if how == "recall":
        levels = _trec_numbers(text, float, where)
        return [make(spec, recall=r) for r in levels]
    raise MetricError(f"{name} takes no parameters")


def _int_strict(text: str) -> int:
    value = float(text)
    if value != int(value):
        raise ValueError(text)
    return int(value)


def parse(name: str, family: str = "ranking") -> list[Metric]:
    """Parse one metric name of ``family`` into one or more metrics (trec_eval lists expand:
    ``P.5,10``)."""
    if not isinstance(name, str) or not name.strip():
        raise MetricError(f"a metric name must be a non-empty string, got {name!r}")
    text = name.strip()
    if family == "ranking":
        found = _parse_trec(text)
        if found is not None:
            return found
    return [_parse_assay(name, text, family)]


def _parse_trec(text: str) -> list[Metric] | None:
    # trec_eval syntax: "P.5,10", "ndcg_cut.10", "iprec_at_recall.0.10", and output names "P_5".
    if "(" not in text and "@" not in text:
        head, dot, rest = text.partition(".")
        if dot:
            found = _from_trec(head, rest, ".")
            if found is not None:
                return found
        found = _from_trec(text, None, ".")
        if found is not None:
            return found
        for tname in sorted(REGISTRY.trec, key=len, reverse=True):
            if text.startswith(tname + "_") and REGISTRY.trec[tname][1]:
                found = _from_trec(tname, text[len(tname) + 1 :], "_")
                if found is not None:
                    return found
    return None


def _parse_assay(name: str, text: str, family: str) -> Metric:
    m = _ASSAY_RE.match(text)
    if not m:
        raise MetricError(f"cannot parse metric name {name!r}; expected e.g. ndcg@10, P(rel=2)@5")
    spec = REGISTRY.lookup(m.group("name"), family)
    if spec is None:
        raise MetricError(
            f"unknown {_kind(family)}metric {m.group('name')!r}"
            f"{_suggest(m.group('name'), family)}; `assay metrics` lists them all"
        )
    params = _parse_args(m.group("args"), name) if m.group("args") else {}
    k: int | None = None
    if m.group("k") is not None:
        try:
            kval = float(m.group("k"))
        except ValueError:
            raise MetricError(f"cutoff in {name!r} must be a positive integer") from None
        if kval != int(kval) or kval <= 0:
            raise MetricError(f"cutoff in {name!r} must be a positive integer, got {m.group('k')}")
        k = int(kval)
    return make(spec, k, **params)


def _kind(family: str) -> str:
    return "" if family == "ranking" else f"{family} "


def _suggest(name: str, family: str) -> str:
    import difflib

    names = [*REGISTRY.names(family), *(REGISTRY.trec if family == "ranking" else ())]
    close = difflib.get_close_matches(name.lower(), names, n=1)
    return f" (did you mean {close[0]!r}?)" if close else ""


def parse_all(
    names: str | Metric | list[Any] | tuple[Any, ...], family: str = "ranking"
) -> list[Metric]:
    """Parse a name, a Metric, or a list of either, keeping order and dropping repeats."""
    items = [names] if isinstance(names, str | Metric) else list(names)
    out: list[Metric] = []
    for item in items:
        for m in [item] if isinstance(item, Metric) else parse(item, family):
            if m.family != family:
                raise MetricError(f"{m} is a {m.family} metric, not a {family} metric")
            if m not in out:
                out.append(m)
    if not out:
        raise MetricError("no metric given")
    return out
