"""Metric declarations, the registry, and the metric-name parser.

A metric is declared once, with :func:`metric`, on its kernel. The declaration carries the
name, aliases, trec_eval names, parameters (with validation), cutoff policy, bounds, direction,
aggregation and a docstring with the formula and a reference. Everything else — the parser
(``ndcg@10``, ``ndcg(gain='exp')@10``, ``P(rel=2)@5``, ``ndcg_cut.10``, ``P_5``), validation,
``assay metrics`` and the docs — is derived from the declarations.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from ..errors import MetricError

Cutoff = Literal["none", "optional", "required"]
Aggregate = Literal["mean", "gmean", "sum"]


@dataclass(frozen=True)
class Param:
    """A metric parameter: name, default, validator (returns the normalised value), doc."""

    name: str
    default: Any
    check: Callable[[Any], Any]
    doc: str


@dataclass(frozen=True)
class MetricSpec:
    name: str
    kernel: Callable[..., Any]
    params: tuple[Param, ...]
    cutoff: Cutoff
    lower: float | None
    upper: float | None
    higher_is_better: bool
    aggregate: Aggregate
    average_ties: bool
    integer: bool
    aliases: tuple[str, ...]
    trec: Mapping[str, str]  # trec_eval name -> how its parameter list maps ("k", "recall", "")
    doc: str
    from_qrels: bool = False  # value comes from the qrels alone (kept for missing queries)

    @property
    def summary(self) -> str:
        return self.doc.strip().splitlines()[0] if self.doc.strip() else self.name

    def param(self, name: str) -> Param:
        for p in self.params:
            if p.name == name:
                return p
        raise KeyError(name)


def _freeze(value: Any) -> Any:
    if isinstance(value, dict):
        return tuple(sorted(value.items()))
    return value


@dataclass(frozen=True)
class Metric:
    """A metric with its parameters bound: what gets computed and what labels a result."""

    spec: MetricSpec
    params: tuple[tuple[str, Any], ...]
    k: int | None = None
    _label: str = field(default="", compare=False)

    @property
    def name(self) -> str:
        return self.spec.name

    def kwargs(self) -> dict[str, Any]:
        out = {}
        for key, value in self.params:
            out[key] = dict(value) if isinstance(value, tuple) and key == "gain" else value
        return out

    def __str__(self) -> str:
        parts = []
        for p in self.spec.params:
            value = dict(self.params)[p.name]
            if _freeze(p.default) != value:
                shown = dict(value) if isinstance(value, tuple) else value
                parts.append(f"{p.name}={shown!r}")
        label = self.spec.name + (f"({', '.join(parts)})" if parts else "")
        if self.k is not None:
            label += f"@{self.k}"
        return label

    def __repr__(self) -> str:
        return f"Metric({str(self)!r})"

    @property
    def higher_is_better(self) -> bool:
        return self.spec.higher_is_better


REGISTRY: dict[str, MetricSpec] = {}
_LOOKUP: dict[str, MetricSpec] = {}
_TREC: dict[str, tuple[MetricSpec, str]] = {}


def metric(
    name: str,
    *,
    params: tuple[Param, ...] = (),
    cutoff: Cutoff = "optional",
    bounds: tuple[float | None, float | None] = (0.0, 1.0),
    higher_is_better: bool = True,
    aggregate: Aggregate = "mean",
    average_ties: bool = True,
    integer: bool = False,
    aliases: tuple[str, ...] = (),
    trec: Mapping[str, str] | None = None,
    from_qrels: bool = False,
) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Declare a metric on its kernel ``kernel(ranked, k, **params) -> per-query values``.

    The kernel returns NaN for queries where the metric is undefined (no relevant document,
    no pair of distinct grades, ...); the ``no_relevant`` convention decides what those become.
    """

    def register(kernel: Callable[..., Any]) -> Callable[..., Any]:
        spec = MetricSpec(
            name=name,
            kernel=kernel,
            params=params,
            cutoff=cutoff,
            lower=bounds[0],
            upper=bounds[1],
            higher_is_better=higher_is_better,
            aggregate=aggregate,
            average_ties=average_ties,
            integer=integer,
            aliases=aliases,
            trec=dict(trec or {}),
            doc=kernel.__doc__ or "",
            from_qrels=from_qrels,
        )
        for key in (name, *aliases):
            low = key.lower()
            if low in _LOOKUP and _LOOKUP[low].name != name:
                raise RuntimeError(f"metric name {key!r} declared twice")
            _LOOKUP[low] = spec
        for tname, how in spec.trec.items():
            _TREC[tname] = (spec, how)
        REGISTRY[name] = spec
        return kernel

    return register


# ---------------------------------------------------------------- parameter validators


def positive_int(what: str) -> Callable[[Any], int]:
    def check(value: Any) -> int:
        if isinstance(value, bool) or not isinstance(value, int | float) or int(value) != value:
            raise MetricError(f"{what} must be a positive integer, got {value!r}")
        if value <= 0:
            raise MetricError(f"{what} must be a positive integer (> 0), got {value!r}")
        return int(value)

    return check


def nonneg_int(what: str) -> Callable[[Any], int]:
    def check(value: Any) -> int:
        if isinstance(value, bool) or not isinstance(value, int | float) or int(value) != value:
            raise MetricError(f"{what} must be an integer, got {value!r}")
        if value < 0:
            raise MetricError(f"{what} must be >= 0, got {value!r}")
        return int(value)

    return check


def open_unit(what: str) -> Callable[[Any], float]:
    def check(value: Any) -> float:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise MetricError(f"{what} must be a number in (0, 1), got {value!r}")
        if not 0.0 < float(value) < 1.0:
            raise MetricError(f"{what} must lie strictly between 0 and 1, got {value!r}")
        return float(value)

    return check


def closed_unit(what: str) -> Callable[[Any], float]:
    def check(value: Any) -> float:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise MetricError(f"{what} must be a number in [0, 1], got {value!r}")
        if not 0.0 <= float(value) <= 1.0:
            raise MetricError(f"{what} must lie in [0, 1], got {value!r}")
        return float(value)

    return check


def positive_float(what: str) -> Callable[[Any], float]:
    def check(value: Any) -> float:
        if isinstance(value, bool) or not isinstance(value, int | float) or not value > 0:
            raise MetricError(f"{what} must be a positive number, got {value!r}")
        return float(value)

    return check


def optional(check: Callable[[Any], Any]) -> Callable[[Any], Any]:
    def wrapped(value: Any) -> Any:
        return None if value is None else check(value)

    return wrapped


def choice(what: str, *options: str) -> Callable[[Any], str]:
    def check(value: Any) -> str:
        if value not in options:
            raise MetricError(
                f"{what} must be one of {', '.join(map(repr, options))}, got {value!r}"
            )
        return str(value)

    return check


def gain_check(value: Any) -> Any:
    """'linear', 'exp', or a mapping grade -> non-negative gain."""
    if value in ("linear", "exp"):
        return value
    if isinstance(value, Mapping):
        out = {}
        for grade, gain in value.items():
            if isinstance(grade, bool) or not isinstance(grade, int):
                raise MetricError(f"gain map keys must be integer grades, got {grade!r}")
            if isinstance(gain, bool) or not isinstance(gain, int | float) or gain < 0:
                raise MetricError(
                    f"gain for grade {grade} must be a non-negative number, got {gain!r}"
                )
            out[int(grade)] = float(gain)
        if not out:
            raise MetricError("gain map is empty")
        return tuple(sorted(out.items()))
    raise MetricError(f"gain must be 'linear', 'exp' or a mapping grade -> gain, got {value!r}")


REL = Param("rel", 1, nonneg_int("rel"), "minimum grade counted relevant (inclusive)")


# ---------------------------------------------------------------- construction and parsing


def make(spec: MetricSpec, k: int | None = None, **params: Any) -> Metric:
    """Bind parameters to a metric declaration, validating each one."""
    known = {p.name for p in spec.params}
    unknown = set(params) - known
    if unknown:
        allowed = ", ".join(sorted(known)) or "none"
        raise MetricError(
            f"{spec.name} has no parameter {', '.join(sorted(unknown))}; parameters: {allowed}"
        )
    bound = []
    for p in spec.params:
        value = params.get(p.name, p.default)
        bound.append((p.name, _freeze(p.check(value)) if value is not None else p.check(value)))
    if k is not None:
        if spec.cutoff == "none":
            raise MetricError(f"{spec.name} takes no cutoff (@k)")
        k = positive_int(f"cutoff of {spec.name}")(k)
    elif spec.cutoff == "required":
        raise MetricError(f"{spec.name} needs a cutoff, e.g. {spec.name}@10")
    return Metric(spec, tuple(bound), k)


_ASSAY_RE = re.compile(
    r"^\s*(?P<name>[A-Za-z0-9_]+)\s*(?:\((?P<args>.*)\))?\s*(?:@\s*(?P<k>[^@]+?))?\s*$"
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
    if name not in _TREC:
        return None
    spec, how = _TREC[name]
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


def parse(name: str) -> list[Metric]:
    """Parse one metric name into one or more metrics (trec_eval lists expand: ``P.5,10``)."""
    if not isinstance(name, str) or not name.strip():
        raise MetricError(f"a metric name must be a non-empty string, got {name!r}")
    text = name.strip()
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
        for tname in sorted(_TREC, key=len, reverse=True):
            if text.startswith(tname + "_") and _TREC[tname][1]:
                found = _from_trec(tname, text[len(tname) + 1 :], "_")
                if found is not None:
                    return found
    m = _ASSAY_RE.match(text)
    if not m:
        raise MetricError(f"cannot parse metric name {name!r}; expected e.g. ndcg@10, P(rel=2)@5")
    spec = _LOOKUP.get(m.group("name").lower())
    if spec is None:
        raise MetricError(
            f"unknown metric {m.group('name')!r}{_suggest(m.group('name'))}; "
            "`assay metrics` lists them all"
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
    return [make(spec, k, **params)]


def _suggest(name: str) -> str:
    import difflib

    names = [*_LOOKUP, *_TREC]
    close = difflib.get_close_matches(name.lower(), names, n=1)
    return f" (did you mean {close[0]!r}?)" if close else ""


def parse_all(names: str | Metric | list[Any] | tuple[Any, ...]) -> list[Metric]:
    """Parse a name, a Metric, or a list of either, keeping order and dropping repeats."""
    items = [names] if isinstance(names, str | Metric) else list(names)
    out: list[Metric] = []
    for item in items:
        for m in [item] if isinstance(item, Metric) else parse(item):
            if m not in out:
                out.append(m)
    if not out:
        raise MetricError("no metric given")
    return out
