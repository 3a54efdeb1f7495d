"""The slow reference under assay's conventions: the catalogue of reference measures, one
metric with its parameters (``Setting``), ranked lists under each tie convention, and whole
collections under ``judged_only``, ``missing`` and ``no_relevant``.

Inputs
------
``qrels``: ``{query: {doc: grade}}`` exactly as judged (a negative grade means "pooled but not
judged"). ``run``: a list of ``(query, doc, score)`` rows *in input order*. A query's ranked
list is the run's rows for that query; each row becomes ``(doc, score, grade-or-None)`` where
the grade is the query's qrels grade (``None`` if the document is not in the query's qrels).

Conventions
-----------
``ties``: ``"docno"`` (score descending, then docno descending byte order), ``"input"`` (score
descending, then input order), ``"average"`` (the expected value over all orders of tied
documents, computed by brute force: every arrangement of every tie group is enumerated and the
metric averaged). ``judged_only`` drops every document without a judgment (``g < 0``) before
ranking. ``missing`` and ``no_relevant`` are applied afterwards, see :func:`apply_conventions`.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from references.slow_cwl import CWL_MEASURES
from references.slow_preferences import PREF_MEASURES
from references.slow_ranking import (
    NAN,
    Item,
    QueryFacts,
    encode_grade,
    m_11pt,
    m_alpha_dcg,
    m_alpha_ndcg,
    m_ap,
    m_bing,
    m_bpref,
    m_dcg,
    m_discordant,
    m_err,
    m_err_ia,
    m_f,
    m_gdeval_err,
    m_gdeval_ndcg,
    m_infap,
    m_iprec,
    m_judged,
    m_kendall_tau,
    m_map_ia,
    m_mse,
    m_ndcg,
    m_nerr_ia,
    m_nnrbp,
    m_nrbp,
    m_num_nonrel_judged_ret,
    m_num_rel,
    m_num_rel_ret,
    m_num_ret,
    m_p_ia,
    m_pairwise_accuracy,
    m_pfound,
    m_precision,
    m_rbp_resid,
    m_recall,
    m_relative_p,
    m_rmse,
    m_rprec,
    m_rr,
    m_set_map,
    m_subtopic_recall,
    m_success,
    m_unjudged,
)
from references.slow_trec_measures import TREC_MEASURES, m_rbp_any

# ---------------------------------------------------------------- the catalogue


@dataclass(frozen=True)
class RefMetric:
    fn: Callable[..., float]
    defaults: Mapping[str, Any]
    cutoff: bool  # accepts @k
    average_ties: bool  # has an exact ties='average' implementation in assay
    aggregate: str = "mean"  # mean | sum | gmean
    from_qrels: bool = False  # depends on the qrels only (kept for missing queries)
    pairwise: bool = False  # assay refuses ties='average' together with a cutoff


REFERENCE: dict[str, RefMetric] = {
    "P": RefMetric(m_precision, {"rel": 1}, True, True),
    "R": RefMetric(m_recall, {"rel": 1}, True, True),
    "F": RefMetric(m_f, {"rel": 1, "beta": 1.0}, True, True),
    "AP": RefMetric(m_ap, {"rel": 1}, True, True),
    "gm_map": RefMetric(m_ap, {"rel": 1}, False, True, aggregate="gmean"),
    "Rprec": RefMetric(m_rprec, {"rel": 1}, False, True),
    "RR": RefMetric(m_rr, {"rel": 1}, True, True),
    "success": RefMetric(m_success, {"rel": 1}, True, True),
    "num_ret": RefMetric(m_num_ret, {}, False, True, aggregate="sum"),
    "num_rel": RefMetric(m_num_rel, {"rel": 1}, False, True, aggregate="sum", from_qrels=True),
    "num_rel_ret": RefMetric(m_num_rel_ret, {"rel": 1}, False, True, aggregate="sum"),
    "judged": RefMetric(m_judged, {}, True, True),
    "relative_P": RefMetric(m_relative_p, {"rel": 1}, True, True),
    "set_map": RefMetric(m_set_map, {"rel": 1}, False, True),
    "num_nonrel_judged_ret": RefMetric(
        m_num_nonrel_judged_ret, {"rel": 1}, False, True, aggregate="sum"
    ),
    "unjudged": RefMetric(m_unjudged, {}, True, True),
    "binG": RefMetric(m_bing, {"rel": 1}, False, False),
    "bpref": RefMetric(m_bpref, {"rel": 1}, False, False),
    "infAP": RefMetric(m_infap, {"rel": 1}, False, False),
    "iprec": RefMetric(m_iprec, {"recall": 0.0, "rel": 1}, False, False),
    "11pt_avg": RefMetric(m_11pt, {"rel": 1}, False, False),
    "dcg": RefMetric(m_dcg, {"gain": "linear", "discount": "log2", "b": 2.0}, True, True),
    "ndcg": RefMetric(m_ndcg, {"gain": "linear", "discount": "log2", "b": 2.0}, True, True),
    "err": RefMetric(m_err, {"gmax": None}, True, False),
    "gdeval_ndcg": RefMetric(m_gdeval_ndcg, {}, True, True),
    "gdeval_err": RefMetric(m_gdeval_err, {}, True, False),
    "pfound": RefMetric(m_pfound, {"pbreak": 0.15, "gmax": None}, True, False),
    "rbp": RefMetric(m_rbp_any, {"p": 0.8, "gain": "binary", "rel": 1}, True, True),
    "rbp_resid": RefMetric(m_rbp_resid, {"p": 0.8}, True, True),
    "discordant_pairs": RefMetric(m_discordant, {}, True, True, pairwise=True),
    "pairwise_accuracy": RefMetric(m_pairwise_accuracy, {}, True, True, pairwise=True),
    "kendall_tau": RefMetric(m_kendall_tau, {}, True, True, pairwise=True),
    "mse": RefMetric(m_mse, {}, False, True),
    "rmse": RefMetric(m_rmse, {}, False, True),
    # ndeval's diversity measures, on ordinary qrels (one subtopic per query)
    "alpha_dcg": RefMetric(m_alpha_dcg, {"rel": 1, "alpha": 0.5}, True, False),
    "alpha_ndcg": RefMetric(m_alpha_ndcg, {"rel": 1, "alpha": 0.5}, True, False),
    "err_ia": RefMetric(m_err_ia, {"rel": 1, "alpha": 0.5}, True, False),
    "nerr_ia": RefMetric(m_nerr_ia, {"rel": 1, "alpha": 0.5}, True, False),
    "nrbp": RefMetric(m_nrbp, {"rel": 1, "alpha": 0.5, "beta": 0.5}, False, False),
    "nnrbp": RefMetric(m_nnrbp, {"rel": 1, "alpha": 0.5, "beta": 0.5}, False, False),
    "p_ia": RefMetric(m_p_ia, {"rel": 1}, True, False),
    "subtopic_recall": RefMetric(m_subtopic_recall, {"rel": 1}, True, False),
    "map_ia": RefMetric(m_map_ia, {"rel": 1}, False, False),
}
# Preferences from graded qrels (trec_eval's prefs_* under -R qrels_prefs).
REFERENCE.update(
    {
        name: RefMetric(f, {}, False, False, aggregate=agg)
        for name, (f, agg) in PREF_MEASURES.items()
    }
)
# trec_eval's own measures (G, ndcg_rel, Rndcg, Rprec_mult, utility, gm_bpref, relstring).
REFERENCE.update(
    {
        name: RefMetric(f, d, c, a, aggregate=agg)
        for name, (f, d, c, a, agg) in TREC_MEASURES.items()
    }
)
# The C/W/L measures and Compat (no closed form under ties='average').
REFERENCE.update({name: RefMetric(f, d, c, False) for name, (f, d, c) in CWL_MEASURES.items()})


@dataclass(frozen=True)
class Setting:
    """One metric with its parameters bound."""

    name: str
    k: int | None = None
    params: Mapping[str, Any] = field(default_factory=dict)

    @property
    def ref(self) -> RefMetric:
        return REFERENCE[self.name]

    def kwargs(self) -> dict[str, Any]:
        out = dict(self.ref.defaults)
        out.update(self.params)
        return out

    def value(self, items: Sequence[Item], q: QueryFacts) -> float:
        return self.ref.fn(items, q, self.k, **self.kwargs())

    def __hash__(self) -> int:
        return hash((self.name, self.k, repr(sorted(self.params.items()))))

    def __str__(self) -> str:
        inner = ", ".join(f"{k}={v!r}" for k, v in sorted(self.params.items()))
        return self.name + (f"({inner})" if inner else "") + (f"@{self.k}" if self.k else "")


# ---------------------------------------------------------------- ranking under the conventions


Row = tuple[str, float, int | None]  # (doc, score, qrels grade or None), in input order


def byte_key(doc: str) -> bytes:
    return doc.encode("utf-8")


def rank_rows(rows: Sequence[Row], ties: str) -> list[Row]:
    """One ranked list for ties='docno' or 'input' (Python's sort is stable)."""
    if ties == "docno":
        by_doc = sorted(rows, key=lambda r: byte_key(r[0]), reverse=True)
        return sorted(by_doc, key=lambda r: -r[1])
    if ties == "input":
        return sorted(rows, key=lambda r: -r[1])
    raise ValueError(ties)


def tie_groups(rows: Sequence[Row]) -> list[list[Item]]:
    """Items grouped by equal score, groups in descending score order."""
    groups: list[list[Item]] = []
    for doc_score in sorted({r[1] for r in rows}, reverse=True):
        groups.append([(s, encode_grade(g)) for _, s, g in rows if s == doc_score])
    return groups


def multiset_permutations(items: Sequence[Item]) -> Iterator[tuple[Item, ...]]:
    """Every distinct arrangement of ``items`` once.

    Metrics see only (score, grade), so two documents of a tie group with the same grade are
    interchangeable. Each distinct arrangement is produced by exactly prod(c!) of the m!
    permutations of the group (c the multiplicities), the same number for every arrangement, so
    the uniform average over distinct arrangements equals the uniform average over all m!
    permutations. (``references/test_ranking_reference.py`` checks this against
    ``itertools.permutations``.)
    """
    counts = Counter(items)
    keys = sorted(counts)
    prefix: list[Item] = []

    def rec(left: int) -> Iterator[tuple[Item, ...]]:
        if left == 0:
            yield tuple(prefix)
            return
        for key in keys:
            if counts[key]:
                counts[key] -= 1
                prefix.append(key)
                yield from rec(left - 1)
                prefix.pop()
                counts[key] += 1

    return rec(len(items))


def all_permutations(items: Sequence[Item]) -> Iterator[tuple[Item, ...]]:
    return itertools.permutations(items)


def arrangements(rows: Sequence[Row], *, distinct: bool = True) -> Iterator[list[Item]]:
    """Every order of the tied documents (ties='average'), each equally likely."""
    perms = multiset_permutations if distinct else all_permutations
    per_group = [list(perms(g)) for g in tie_groups(rows)]
    for combo in itertools.product(*per_group):
        yield [item for group in combo for item in group]


def n_arrangements(rows: Sequence[Row]) -> int:
    """How many distinct arrangements ties='average' would enumerate."""
    total = 1
    for group in tie_groups(rows):
        count = math.factorial(len(group))
        for c in Counter(group).values():
            count //= math.factorial(c)
        total *= count
    return total


def ranked_items(rows: Sequence[Row], ties: str) -> list[Item]:
    return [(s, encode_grade(g)) for _, s, g in rank_rows(rows, ties)]


def raw_values(
    rows: Sequence[Row],
    q: QueryFacts,
    settings: Sequence[Setting],
    ties: str,
    *,
    distinct: bool = True,
) -> dict[Setting, float]:
    """Metric values of one query's list before the missing / no_relevant conventions."""
    if ties != "average":
        items = ranked_items(rows, ties)
        return {s: s.value(items, q) for s in settings}
    sums = dict.fromkeys(settings, 0.0)
    nans = dict.fromkeys(settings, 0)
    count = 0
    for items in arrangements(rows, distinct=distinct):
        count += 1
        for s in settings:
            v = s.value(items, q)
            if isinstance(v, float) and math.isnan(v):
                nans[s] += 1
            else:
                sums[s] += v
    out = {}
    for s in settings:
        # Whether a metric is defined never depends on the order of tied documents.
        assert nans[s] in (0, count), f"{s}: undefined for some orders only"
        out[s] = NAN if nans[s] else sums[s] / count
    return out


# ---------------------------------------------------------------- collections and conventions


@dataclass(frozen=True)
class Conv:
    ties: str = "docno"
    missing: str = "zero"
    no_relevant: str = "zero"
    judged_only: bool = False
    short_queries: str = "score"

    def kwargs(self) -> dict[str, Any]:
        return {
            "ties": self.ties,
            "missing": self.missing,
            "no_relevant": self.no_relevant,
            "judged_only": self.judged_only,
            "short_queries": self.short_queries,
        }


def query_rows(
    qrels: Mapping[str, Mapping[str, int]], run: Sequence[tuple[str, str, float]], query: str
) -> list[Row]:
    judged = qrels[query]
    return [(d, s, judged.get(d)) for q, d, s in run if q == query]


def facts(qrels: Mapping[str, Mapping[str, int]], query: str) -> QueryFacts:
    qmax = max(g for grades in qrels.values() for g in grades.values())
    return QueryFacts(tuple(g for g in qrels[query].values() if g >= 0), qmax)


def raw_collection(
    qrels: Mapping[str, Mapping[str, int]],
    run: Sequence[tuple[str, str, float]],
    settings: Sequence[Setting],
    ties: str,
    judged_only: bool,
) -> dict[str, tuple[bool, dict[Setting, float], int]]:
    """Per qrels query: (has results in the run, raw metric values, judged documents).

    A query "has results" when the run holds rows for it, before judged_only drops the
    unjudged ones (trec_eval -J still evaluates such a query, on an empty list). Run queries
    absent from the qrels are ignored. The third item is the query's number of judged
    documents (grade >= 0), which short_queries compares with the cutoff.
    """
    out = {}
    for query in qrels:
        rows = query_rows(qrels, run, query)
        present = bool(rows)
        if judged_only:
            rows = [r for r in rows if r[2] is not None and r[2] >= 0]
        judged = sum(1 for g in qrels[query].values() if g >= 0)
        out[query] = (present, raw_values(rows, facts(qrels, query), settings, ties), judged)
    return out


def apply_conventions(
    raw: Mapping[str, tuple[bool, Mapping[Setting, float], int]], setting: Setting, conv: Conv
) -> dict[str, float]:
    """Per-query values after the missing and no_relevant conventions.

    missing='zero': a qrels query without results is scored as an empty ranking (0 for most
    metrics, 1 for rbp_resid; num_rel comes from the qrels alone); where the metric is
    undefined for it (e.g. AP with R = 0) no_relevant decides, as for any other query. missing='skip': such queries are left out. Undefined values become 0
    (no_relevant='zero'), 1 ('one'), are left out ('skip') or stay NaN ('nan').
    short_queries='skip' first leaves out, for a setting with a cutoff k, every query with
    fewer than k judged documents.
    """
    out = {}
    for query, (present, values, judged) in raw.items():
        if not present and conv.missing == "skip":
            continue
        if conv.short_queries == "skip" and setting.k is not None and judged < setting.k:
            continue
        v = values[setting]
        if isinstance(v, float) and math.isnan(v):
            if conv.no_relevant == "skip":
                continue
            v = {"zero": 0.0, "one": 1.0, "nan": NAN}[conv.no_relevant]
        out[query] = v
    return out


def aggregate(values: Sequence[float], how: str) -> float:
    """Mean, floored geometric mean, or sum; the mean over no queries is undefined, a sum is 0;
    a text measure (relstring) has no aggregate (NaN)."""
    if how == "none":
        return NAN
    if how == "sum":
        return math.fsum(values)
    if not values:
        return NAN
    if how == "gmean":
        return math.exp(sum(math.log(max(v, 1e-5)) for v in values) / len(values))
    return math.fsum(values) / len(values)


def evaluate(
    qrels: Mapping[str, Mapping[str, int]],
    run: Sequence[tuple[str, str, float]],
    settings: Sequence[Setting],
    conv: Conv,
) -> dict[Setting, dict[str, float]]:
    """Reference per-query values for every setting under one set of conventions."""
    raw = raw_collection(qrels, run, settings, conv.ties, conv.judged_only)
    return {s: apply_conventions(raw, s, conv) for s in settings}
