"""Metric declarations and the registry, for every family.

A metric is declared once, on the code that computes it, with :func:`metric` (ranking
kernels, computed per query from :class:`~assay.data.Ranked`) or :func:`measure` (the public
function of any other family, computed from its data: labels, scores, clusterings, ratings,
...). The declaration carries the name, aliases, parameters (each with its validator from
:mod:`assay._options`), bounds, direction, and a docstring with the formula and a reference.
The registry, the name parser (:mod:`assay.metrics.names`), option validation, ``assay
metrics``, ``docs/metrics.md`` and the registry-driven tests are all derived from it.
"""

from __future__ import annotations

import functools
import inspect
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from importlib import import_module
from typing import Any, TypeVar, cast

from .._families import FAMILIES, metric_families
from ..errors import MetricError
from .params import (
    FROM_SIGNATURE,
    REL,
    Param,
    anything,
    closed_unit,
    nonneg_int,
    one_of,
    open_unit,
    optional,
    positive_float,
    positive_int,
    real_number,
)
from .spec import (
    TREC_CUTOFFS,
    Aggregate,
    Cutoff,
    MetricSpec,
    Peer,
    TrecName,
    TrecParams,
    ValueKind,
)

__all__ = [
    "FROM_SIGNATURE",
    "REGISTRY",
    "REL",
    "TREC_CUTOFFS",
    "Aggregate",
    "Cutoff",
    "Metric",
    "MetricSpec",
    "Param",
    "Peer",
    "Registry",
    "TrecName",
    "TrecParams",
    "ValueKind",
    "anything",
    "closed_unit",
    "make",
    "measure",
    "metric",
    "nonneg_int",
    "one_of",
    "open_unit",
    "optional",
    "positive_float",
    "positive_int",
    "real_number",
    "trec_metrics",
]


#: A decorated kernel or measure: the decorators return it with its signature.
_Kernel = TypeVar("_Kernel", bound=Callable[..., Any])


def _freeze(value: Any) -> Any:
    """A hashable form of a parameter value (mappings and sequences become tuples)."""
    if isinstance(value, Mapping):
        return tuple(sorted(value.items()))
    if isinstance(value, list | tuple):
        return tuple(_freeze(v) for v in value)
    return value


def _thaw(key: str, value: Any) -> Any:
    return dict(value) if isinstance(value, tuple) and key == "gain" else value


@dataclass(frozen=True)
class Metric:
    """A metric with its parameters bound: what gets computed and what labels a result.

    Hashable; ``str(metric)`` is its label, the name it was asked by (``map``,
    ``ndcg_cut.20``), and :attr:`canonical` assay's own name, e.g. ``ndcg(gain='exp')@10``;
    both parse back to the same metric. The label is not compared. Made by :func:`assay.metrics.parse` (from a name) or
    :func:`make` (from a declaration); calling it computes it.

    Parameters
    ----------
    spec : MetricSpec
        The declaration.
    params : tuple of (str, value) pairs
        Every parameter of the declaration with its validated, hashable value.
    k : int, optional
        The rank cutoff.

    Examples
    --------
    >>> from assay.metrics import parse
    >>> m = parse("ndcg(gain='exp')@10")[0]
    >>> m, m.name, m.k, m.kwargs()
    (Metric("ndcg(gain='exp')@10"), 'ndcg', 10, {'gain': 'exp', 'discount': 'log2', 'b': 2.0})
    >>> f1 = parse("f1(average='macro')", family="classification")[0]
    >>> round(f1(["a", "b", "a"], ["a", "b", "b"]), 4)
    0.6667
    """

    spec: MetricSpec
    params: tuple[tuple[str, Any], ...]  # Any: each parameter's value is of its own type
    k: int | None = None
    _label: str = field(default="", compare=False)

    @property
    def name(self) -> str:
        """The declaration's name (without parameters or cutoff)."""
        return self.spec.name

    @property
    def family(self) -> str:
        """The registry's family of the declaration."""
        return self.spec.family

    def kwargs(self) -> dict[str, Any]:
        """The bound parameters as keyword arguments of the kernel."""
        return {key: _thaw(key, value) for key, value in self.params}

    def __call__(self, *data: Any) -> Any:
        """Compute the metric: on a :class:`~assay.data.Ranked` for ranking metrics (values
        per query), on the family's data otherwise (``f1(average='macro')(y_true, y_pred)``)."""
        if self.spec.family == "ranking":
            return self.spec.kernel(*data, self.k, **self.kwargs())
        if self.k is not None:  # a measure declared with a cutoff takes it as ``k=``
            return self.spec.kernel(*data, k=self.k, **self.kwargs())
        return self.spec.kernel(*data, **self.kwargs())

    @property
    def label(self) -> str:
        """The name the metric was asked by (``map``, ``ndcg_cut.20``, ``RBP(p=0.8)``), which
        labels its results; the canonical name when it was made from a declaration."""
        return self._label or self.canonical

    def labelled(self, label: str) -> Metric:
        """The same metric labelled ``label`` (equal to this one: the label is not compared).

        Parameters
        ----------
        label : str
            The name it was asked by.

        Returns
        -------
        Metric
            The metric with that label.

        Examples
        --------
        >>> from assay.metrics import parse
        >>> m = parse("AP")[0].labelled("map")
        >>> str(m), m.canonical, m == parse("AP")[0]
        ('map', 'AP', True)
        """
        return Metric(self.spec, self.params, self.k, label)

    def __str__(self) -> str:
        return self.label

    @property
    def canonical(self) -> str:
        """assay's own name for the metric, e.g. ``ndcg(gain='exp')@10`` (for ``ndcg_burges@10``),
        which parses back to it."""
        parts = []
        bound = dict(self.params)
        for p in self.spec.params:
            value = bound[p.name]
            if _freeze(p.default) != value:
                shown = dict(value) if isinstance(value, tuple) and p.name == "gain" else value
                parts.append(f"{p.name}={shown!r}")
        label = self.spec.name + (f"({', '.join(parts)})" if parts else "")
        if self.k is not None:
            label += f"@{self.k}"
        elif not parts and not self._is_bare_meaning(label):
            # A bare name that is a trec_eval name means trec_eval's measure (P: P@5, ...,
            # P@1000); empty parentheses keep assay's, so the label parses back to this.
            label += "()"
        return label

    def _is_bare_meaning(self, label: str) -> bool:
        """Whether ``label`` written bare means this metric (compared by name, not by the
        spec's identity: an unpickled metric in another process has a copy of its spec)."""
        meaning = REGISTRY.trec_meaning(label, self.spec.family)
        if meaning is None:
            return True
        return len(meaning) == 1 and (
            meaning[0].spec.name,
            meaning[0].params,
            meaning[0].k,
        ) == (self.spec.name, self.params, self.k)

    def __repr__(self) -> str:
        if self.label != self.canonical:
            return f"Metric({self.canonical!r}, label={self.label!r})"
        return f"Metric({self.canonical!r})"

    @property
    def higher_is_better(self) -> bool:
        """The declaration's direction."""
        return self.spec.higher_is_better


class Registry(Mapping[str, MetricSpec]):
    """Every declared metric, by family. As a mapping it holds the ranking family (the
    names :func:`assay.evaluate` takes); :meth:`family` gives any other.

    A family's declarations load on the first question about it, whatever was imported
    before: the registry imports the family's measure modules, read from
    :data:`assay._families.FAMILIES`. A lookup of a ranking metric imports no other
    family. :data:`REGISTRY` is the one instance.

    Examples
    --------
    >>> from assay.metrics import REGISTRY
    >>> REGISTRY.lookup("NDCG").name, "ndcg" in REGISTRY
    ('ndcg', True)
    >>> REGISTRY.lookup("rmse", "regression").input
    'values'
    >>> REGISTRY.trec_name("NDCG_CUT")
    'ndcg_cut'
    """

    def __init__(self) -> None:
        self._families: dict[str, dict[str, MetricSpec]] = {}
        self._lookup: dict[tuple[str, str], MetricSpec] = {}
        #: trec_eval name (as trec_eval spells it) -> its declaration and how it reads.
        self._trec: dict[str, tuple[MetricSpec, TrecName]] = {}
        self._trec_lower: dict[str, str] = {}
        self._meanings: dict[str, list[Metric]] = {}
        # Families whose declarations are loaded, and those being loaded by the thread that
        # holds the lock: a declaration module that asks the registry something while it is
        # imported finds its family "loading" and does not import itself again.
        self._loaded: set[str] = set()
        self._loading: set[str] = set()
        self._lock = threading.RLock()

    def load(self, family: str | None = None) -> None:
        """Import the declarations of ``family`` (``None``: of every family) if not yet
        loaded. Every lookup does this itself; tools that list everything may call it.

        Parameters
        ----------
        family : str, optional
            The registry's family name (``None``: every family of the family list).

        Examples
        --------
        >>> from assay.metrics import REGISTRY
        >>> REGISTRY.load("regression")
        >>> REGISTRY.lookup("rmse", "regression").name
        'rmse'
        """
        for name in metric_families() if family is None else (family,):
            if name in self._loaded:
                continue
            with self._lock:
                if name in self._loaded or name in self._loading:
                    continue
                self._loading.add(name)
                try:
                    for module in _measure_modules(name):
                        import_module(module)
                    self._loaded.add(name)
                finally:
                    self._loading.discard(name)

    @property
    def trec(self) -> Mapping[str, tuple[MetricSpec, TrecName]]:
        """trec_eval name (as trec_eval spells it) -> its declaration and how it reads."""
        self.load("ranking")
        return self._trec

    def add(self, spec: MetricSpec) -> None:
        for key in (spec.name, *spec.aliases):
            known = self._lookup.get((spec.family, key.lower()))
            if known is not None and known.name != spec.name:
                raise RuntimeError(f"{spec.family} metric name {key!r} declared twice")
            self._lookup[(spec.family, key.lower())] = spec
        for tname, binding in spec.trec.items():
            if tname.lower() in self._trec_lower:
                raise RuntimeError(f"trec_eval name {tname!r} declared twice")
            self._trec[tname] = (spec, binding)
            self._trec_lower[tname.lower()] = tname
        self._families.setdefault(spec.family, {})[spec.name] = spec

    def trec_name(self, name: str) -> str | None:
        """The trec_eval name ``name`` stands for (any case), as trec_eval spells it."""
        self.load("ranking")
        return self._trec_lower.get(name.lower())

    def trec_meaning(self, name: str, family: str = "ranking") -> list[Metric] | None:
        """What the bare trec_eval name ``name`` (any case) means: trec_eval's measure with
        its default parameters, one metric per default cutoff or level (None: not a
        trec_eval name)."""
        tname = self.trec_name(name) if family == "ranking" else None
        if tname is None:
            return None
        if tname not in self._meanings:
            spec, binding = self._trec[tname]
            self._meanings[tname] = trec_metrics(spec, binding, binding.defaults)
        return self._meanings[tname]

    def families(self) -> list[str]:
        """Every family with declarations, in the order of :data:`assay._families.FAMILIES`
        (then any other, in the order declared)."""
        self.load()
        rank = {name: i for i, name in enumerate(metric_families())}
        return sorted(self._families, key=lambda name: rank.get(name, len(rank)))

    def family(self, family: str) -> Mapping[str, MetricSpec]:
        """The declarations of one family, in declaration order; a family may be named by
        its package too (``embeddings`` for the registry's ``embedding``)."""
        family = _registry_family(family)
        self.load(family)
        if family not in self._families:
            known = ", ".join(self.families())
            raise MetricError(f"unknown metric family {family!r}; families: {known}")
        return self._families[family]

    def specs(self, family: str | None = None) -> list[MetricSpec]:
        """Every declaration, or those of one family."""
        if family is not None:
            return list(self.family(family).values())
        return [s for fam in self.families() for s in self._families[fam].values()]

    def lookup(self, name: str, family: str = "ranking") -> MetricSpec | None:
        """The declaration named ``name`` (or an alias of it, any case) in ``family``."""
        self.load(family)
        return self._lookup.get((family, name.lower()))

    def names(self, family: str) -> list[str]:
        """Names and aliases of a family, lower-cased (for suggestions)."""
        self.load(family)
        return [name for fam, name in self._lookup if fam == family]

    def __getitem__(self, name: str) -> MetricSpec:
        self.load("ranking")
        return self._families.get("ranking", {})[name]

    def __iter__(self) -> Iterator[str]:
        self.load("ranking")
        return iter(self._families.get("ranking", {}))

    def __len__(self) -> int:
        self.load("ranking")
        return len(self._families.get("ranking", {}))


def _registry_family(name: str) -> str:
    """The registry's name of a family given by its package name (``embeddings``); any other
    name as it is, for the lookup to accept or refuse."""
    for fam in FAMILIES:
        if fam.name == name and fam.metric_family is not None:
            return fam.metric_family
    return name


def _measure_modules(metric_family: str) -> tuple[str, ...]:
    """The modules that declare ``metric_family``'s metrics (none for a name no family
    declares: a family registered by hand, or a typo the lookup reports)."""
    for fam in FAMILIES:
        if fam.metric_family == metric_family:
            return fam.measure_modules
    return ()


REGISTRY = Registry()


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
    trec: Mapping[str, TrecName] | None = None,
    from_qrels: bool = False,
    value: ValueKind = "number",
    peers: tuple[Peer, ...] = (),
) -> Callable[[_Kernel], _Kernel]:
    """Declare a ranking metric on its kernel ``kernel(ranked, k, **params) -> per-query
    values``.

    The kernel returns NaN for queries where the metric is undefined (no relevant document,
    no pair of distinct grades, ...); the ``no_relevant`` convention decides what those become.
    ``trec`` maps trec_eval's names for the metric to how they read (:class:`TrecName`).
    ``value="text"`` declares a metric whose per-query values are strings (relstring): it
    has no aggregate (``aggregate="none"``) and no undefined values. ``peers``: other tools
    that compute it besides trec_eval, ir_measures and ranx (:class:`Peer`).
    """

    def register(kernel: _Kernel) -> _Kernel:
        REGISTRY.add(
            MetricSpec(
                name=name,
                family="ranking",
                input="ranked lists",
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
                value=value,
                peers=peers,
            )
        )
        return kernel

    return register


def measure(
    name: str | None = None,
    *,
    family: str,
    input: str,
    params: tuple[Param, ...] = (),
    bounds: tuple[float | None, float | None] = (0.0, 1.0),
    higher_is_better: bool = True,
    integer: bool = False,
    aliases: tuple[str, ...] = (),
    cutoff: Cutoff = "none",
    peers: tuple[Peer, ...] = (),
) -> Callable[[_Kernel], _Kernel]:
    """Declare a public function of a family as a metric (name: the function's, by default).

    The function takes its data positionally and its options as keyword-only parameters;
    every keyword-only parameter must be declared in ``params`` (defaults may be
    :data:`FROM_SIGNATURE`). The returned function validates every option through its
    declaration, so a bad option raises :class:`~assay.errors.OptionError` (a
    :class:`~assay.errors.MetricError`) whichever way the metric is called.

    A measure with a rank cutoff (``cutoff="optional"``: ``recall@4``) takes it as the
    keyword-only parameter ``k`` (a positive integer or None), which is not a declared
    parameter: the name carries it. ``peers``: the other tools that compute it and how they
    differ (:class:`Peer`), listed by the catalogue.
    """

    def register(func: _Kernel) -> _Kernel:
        declared = _bind_defaults(func, params, cutoff != "none")
        checks = {p.name: p.check for p in declared}
        if cutoff != "none":
            checks["k"] = optional(positive_int("k"))

        @functools.wraps(func)
        def validated(*data: Any, **options: Any) -> Any:
            for key, value in options.items():
                check = checks.get(key)
                if check is not None:
                    options[key] = check(value)
            return func(*data, **options)

        REGISTRY.add(
            MetricSpec(
                name=name or func.__name__,
                family=family,
                input=input,
                kernel=validated,
                params=declared,
                cutoff=cutoff,
                lower=bounds[0],
                upper=bounds[1],
                higher_is_better=higher_is_better,
                aggregate="mean",
                average_ties=False,
                integer=integer,
                aliases=aliases,
                trec={},
                doc=func.__doc__ or "",
                peers=peers,
            )
        )
        return cast(_Kernel, validated)  # same signature (functools.wraps)

    return register


def _bind_defaults(
    func: Callable[..., Any], params: tuple[Param, ...], has_cutoff: bool = False
) -> tuple[Param, ...]:
    """``params`` with defaults from ``func``'s signature; every keyword-only parameter of
    ``func`` must be declared, and nothing else (but the cutoff ``k`` of a measure that has
    one)."""
    signature = inspect.signature(func)
    keyword = {n: p.default for n, p in signature.parameters.items() if p.kind is p.KEYWORD_ONLY}
    if has_cutoff:
        keyword.pop("k", None)
    names = [p.name for p in params]
    if set(names) != set(keyword):
        raise RuntimeError(
            f"{func.__qualname__}: declared parameters {sorted(names)} differ from its "
            f"keyword-only parameters {sorted(keyword)}"
        )
    return tuple(
        Param(p.name, keyword[p.name] if p.default is FROM_SIGNATURE else p.default, p.check, p.doc)
        for p in params
    )


def trec_metrics(spec: MetricSpec, binding: TrecName, values: Sequence[Any]) -> list[Metric]:
    """The metrics a trec_eval name with the parameter list ``values`` means (trec_eval's
    defaults when the list is ``binding.defaults``): one per cutoff, recall level or multiple
    of R; one for the other kinds of list."""
    bound = dict(binding.bound)
    kind = binding.params
    if kind == "k":
        return [make(spec, int(k), **bound) for k in values]
    if kind in ("recall", "mult"):
        return [make(spec, **{**bound, kind: v}) for v in values]
    if kind == "depth":
        return [make(spec, **{**bound, "depth": values[0]})] if values else [make(spec, **bound)]
    if kind == "coefficients":  # utility's four worths, in trec_eval's order
        names = ("rel_ret", "nonrel_ret", "rel_unret", "nonrel_unret")
        return [make(spec, **{**bound, **dict(zip(names, values, strict=True))})]
    return [make(spec, **bound)]


def make(spec: MetricSpec, k: int | None = None, **params: object) -> Metric:
    """Bind parameters to a metric declaration, validating each one.

    Parameters
    ----------
    spec : MetricSpec
        The declaration (``REGISTRY.lookup(name, family)``).
    k : int, optional
        The cutoff, where the declaration takes one.
    **params
        The declaration's parameters (the others keep their defaults).

    Returns
    -------
    Metric
        The metric with its parameters bound.

    Raises
    ------
    MetricError
        An unknown parameter, a bad value, a cutoff the metric does not take or needs.

    Examples
    --------
    >>> from assay.metrics import REGISTRY, make
    >>> make(REGISTRY.lookup("ndcg"), 10, gain="exp")
    Metric("ndcg(gain='exp')@10")
    """
    known = {p.name for p in spec.params}
    unknown = set(params) - known
    if unknown:
        allowed = ", ".join(sorted(known)) or "none"
        raise MetricError(
            f"{spec.name} has no parameter {', '.join(sorted(unknown))}; parameters: {allowed}",
            option=sorted(unknown)[0],
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
