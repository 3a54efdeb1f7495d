"""Reproducibility and replicability measures (Breuer et al. 2020, "How to measure the
reproducibility of system-oriented IR experiments", SIGIR), computed as the ``repro_eval``
package (0.5) computes them.

An experiment compares an advanced run with a baseline; a reproduction re-runs both on the
same collection (*reproducibility*: same topics, paired), a replication on another collection
(*replicability*: other topics and qrels, unpaired).

- Kendall's τ Union (KTU), per topic of the reproduced run: both runs cut to their first
  ``ktu_depth`` documents (repro_eval's ``RUN_LENGTH`` 1000); the union of their documents
  is sorted, each document replaced by its position in that sorted union, and τ-b is computed
  between the two position sequences rank by rank (``scipy.stats.kendalltau``; rounded to 14
  decimals as repro_eval). This is repro_eval's definition, which pairs the documents at
  equal ranks; it needs equally long lists, so when they differ both are cut to the shorter
  (repro_eval raises) and the topic is counted in ``warnings``.
- RBO, per topic of the reproduced run, as repro_eval (after Clarke et al. 2021's
  compatibility code): Σ_{i<depth} p^i |R_{:i+1} ∩ O_{:i+1}|/(i + 1) / Σ_{i<depth} p^i with
  p = 0.95 and depth 1000 by default; a list shorter than the depth stays as it is.
- RMSE per metric (reproducibility only): √(mean over topics of (orig − rep)²); nRMSE divides
  it by √(mean max(orig, 1 − orig)²).
- Effect ratio ER = MI_rep / MI_orig with MI the mean per-topic improvement of the advanced
  run over the baseline; ΔRI = RI_orig − RI_rep with RI = (mean_a − mean_b)/mean_b.
- p-values: paired t-test (reproducibility, ``scipy.stats.ttest_rel``) or unpaired t-test
  (replicability, ``ttest_ind``) of each run's per-topic scores, original against
  reproduced; identical score vectors give p = 1 (repro_eval's rule for all-NaN results of
  equal inputs).

Runs are ranked as trec_eval ranks them (score descending, docno descending), which is what
repro_eval's ``break_ties`` gives for a run file sorted by score.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from .. import _options as opt
from .._options import Missing, NoRelevant, Ties
from .._result import Result, provenance
from ..errors import InputError, InputWarning, shown
from ..report.reported import Reported
from .options import ReproKind
from .overlap import _profile, run_lists

if TYPE_CHECKING:
    from ..data import QrelsLike, RunLike
    from ..metrics import Metric
    from ..report.document import Document
    from ..report.output import Report

__all__ = [
    "PerTopic",
    "ReproKind",
    "Reproducibility",
    "ktau_union",
    "repro_rbo",
    "reproducibility",
]

#: Deepest RBO taken: its weights are an array of ``depth`` values (a 19-digit depth asked
#: for exabytes); ten million is far past where any persistence p < 1 leaves a weight.
MAX_RBO_DEPTH = 10_000_000


@dataclass(frozen=True, eq=False, repr=False)
class PerTopic(Result):
    """One measure between an original and a reproduced run, per topic, made by
    :func:`ktau_union` and :func:`repro_rbo`; ``mean`` is the mean of the values.

    Parameters
    ----------
    measure : str
        ``ktu`` or ``rbo``.
    run_orig, run_rep : str
        The names of the original and the reproduced run.
    topics : tuple of str
        The topics compared (those of the reproduced run the original has too).
    values : numpy.ndarray
        The measure per topic, aligned with ``topics``.
    warnings : tuple of str
        What was adjusted (topics left out, lists cut).
    provenance : mapping
        The depth (and persistence) and the definition followed.

    Examples
    --------
    >>> from assay import Run, meta
    >>> a = Run.from_dict({"q1": {"d1": 3.0, "d2": 2.0, "d3": 1.0}}, name="a")
    >>> b = Run.from_dict({"q1": {"d2": 3.0, "d1": 2.0, "d3": 1.0}}, name="b")
    >>> res = meta.ktau_union(a, b)
    >>> res.topics, round(res.mean, 4)
    (('q1',), 0.3333)
    """

    measure: str
    run_orig: str
    run_rep: str
    topics: tuple[str, ...]
    values: np.ndarray
    warnings: tuple[str, ...] = ()
    provenance: Mapping[str, Any] = field(default_factory=dict)  # Any: JSON-like option values

    @property
    def mean(self) -> float:
        """The mean of :attr:`values` (NaN without topics)."""
        return float(np.mean(self.values)) if len(self.values) else math.nan

    def records(self) -> list[dict[str, Any]]:
        """One row per topic (``aggregate`` None), then the mean (``topic`` None,
        ``aggregate`` "mean")."""
        rows = [
            {
                "measure": self.measure,
                "run_orig": self.run_orig,
                "run_rep": self.run_rep,
                "topic": t,
                "aggregate": None,
                "value": float(v),
            }
            for t, v in zip(self.topics, self.values, strict=True)
        ]
        # The mean row is marked by ``aggregate``, not by a topic id that a real topic could have.
        rows.append(
            {**rows[0], "topic": None, "aggregate": "mean", "value": self.mean} if rows else {}
        )
        return [r for r in rows if r]


def _ranked_docs(run: Any) -> dict[str, list[str]]:
    return {q: docs for q, (docs, _) in run_lists(run, "docno").items()}


def _name(run: Any) -> str:
    return str(getattr(run, "name", "run"))


def ktau_union(run_orig: RunLike, run_rep: RunLike, *, depth: int = 1000) -> PerTopic:
    """Kendall's τ Union between an original and a reproduced run, per topic of the
    reproduced run, as repro_eval computes it (Breuer et al. 2020; see the module
    documentation).

    Both rankings are cut to ``depth``; the union of their documents is sorted, each document
    replaced by its position in it, and τ-b is computed between the two position sequences
    rank by rank. Lists of different lengths are cut to the shorter (counted in
    ``warnings``); topics the original run lacks are left out.

    Parameters
    ----------
    run_orig, run_rep : RunLike
        The original and the reproduced run (:class:`~assay.Run`, or what
        :meth:`Run.coerce` accepts).
    depth : int
        The documents of each ranking compared (repro_eval's ``RUN_LENGTH``).

    Returns
    -------
    PerTopic
        KTU per topic of the reproduced run.

    Examples
    --------
    >>> from assay import Run, meta
    >>> a = Run.from_dict({"q1": {"d1": 3.0, "d2": 2.0}, "q2": {"d1": 1.0, "d2": 2.0}})
    >>> b = Run.from_dict({"q1": {"d1": 3.0, "d2": 2.0}, "q2": {"d1": 2.0, "d2": 1.0}})
    >>> meta.ktau_union(a, b).values
    array([ 1., -1.])
    """
    from scipy import stats

    where = "ktau_union"
    depth = opt.integer(depth, "depth", minimum=1, where=where)
    orig, rep = _ranked_docs(run_orig), _ranked_docs(run_rep)
    topics, values, cut, absent = [], [], [], []
    for topic in sorted(rep):
        if topic not in orig:
            absent.append(topic)
            continue
        o, r = orig[topic][:depth], rep[topic][:depth]
        if len(o) != len(r):
            cut.append(topic)
            o, r = o[: min(len(o), len(r))], r[: min(len(o), len(r))]
        position = {doc: i for i, doc in enumerate(sorted(set(o) | set(r)))}
        x = [position[d] for d in o]
        y = [position[d] for d in r]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # constant input: NaN, as repro_eval
            tau = stats.kendalltau(x, y).statistic if len(x) > 1 else math.nan
        topics.append(topic)
        values.append(round(float(tau), 14))
    notes = _notes(where, absent, cut)
    return PerTopic(
        "ktu",
        _name(run_orig),
        _name(run_rep),
        tuple(topics),
        np.asarray(values, dtype=float),
        tuple(notes),
        provenance(depth=depth, definition="repro_eval 0.5"),
    )


def repro_rbo(
    run_orig: RunLike, run_rep: RunLike, *, p: float = 0.95, depth: int = 1000
) -> PerTopic:
    """repro_eval's RBO between an original and a reproduced run, per topic of the
    reproduced run (Breuer et al. 2020; see the module documentation).

    RBO = Σ_{i<depth} p^i |R_{:i+1} ∩ O_{:i+1}|/(i + 1) / Σ_{i<depth} p^i, a list shorter
    than the depth counted whole; topics the original run lacks are left out.

    Parameters
    ----------
    run_orig, run_rep : RunLike
        The original and the reproduced run (:class:`~assay.Run`, or what
        :meth:`Run.coerce` accepts).
    p : float
        The persistence, in (0, 1).
    depth : int
        The depth of the sums.

    Returns
    -------
    PerTopic
        RBO per topic of the reproduced run.

    Examples
    --------
    >>> from assay import Run, meta
    >>> a = Run.from_dict({"q1": {"d1": 3.0, "d2": 2.0, "d3": 1.0}})
    >>> b = Run.from_dict({"q1": {"d2": 3.0, "d1": 2.0, "d3": 1.0}})
    >>> round(meta.repro_rbo(a, b, depth=3).mean, 4)
    0.6494
    """
    where = "repro_rbo"
    p = opt.number(p, "p", low=0, high=1, low_open=True, high_open=True, where=where)
    depth = opt.integer(depth, "depth", minimum=1, maximum=MAX_RBO_DEPTH, where=where)
    orig, rep = _ranked_docs(run_orig), _ranked_docs(run_rep)
    i = np.arange(depth, dtype=np.float64)
    weights = p**i / (i + 1)
    norm = float(np.sum(p**i))
    topics, values, absent = [], [], []
    for topic in sorted(rep):
        if topic not in orig:
            absent.append(topic)
            continue
        overlap = _overlap(rep[topic], orig[topic], depth)
        topics.append(topic)
        values.append(float(np.sum(weights * overlap)) / norm)
    return PerTopic(
        "rbo",
        _name(run_orig),
        _name(run_rep),
        tuple(topics),
        np.asarray(values, dtype=float),
        tuple(_notes(where, absent, [])),
        provenance(p=p, depth=depth, definition="repro_eval 0.5"),
    )


def _overlap(a: Sequence[str], b: Sequence[str], depth: int) -> np.ndarray:
    """|a_{:d} ∩ b_{:d}| for d = 1..depth (a list shorter than d counts whole)."""
    import pyarrow as pa

    from .._arrow import to_np

    codes = to_np(pa.array(list(a) + list(b), type=pa.string()).dictionary_encode().indices)
    ca, cb = codes[: len(a)].astype(np.int64), codes[len(a) :].astype(np.int64)
    sa = np.arange(1, len(ca) + 1, dtype=np.int64)
    sb = np.arange(1, len(cb) + 1, dtype=np.int64)
    if len(ca) == 0 or len(cb) == 0:
        return np.zeros(depth)
    _, x = _profile(ca, sa, cb, sb)
    out = np.full(depth, x[-1])
    out[: min(depth, len(x))] = x[:depth]
    return out


def _notes(where: str, absent: list[str], cut: list[str]) -> list[str]:
    notes = []
    if absent:
        notes.append(
            f"{len(absent)} topics of the reproduced run are not in the original run and "
            f"were left out, e.g. {', '.join(shown(t) for t in absent[:3])}"
        )
    if cut:
        notes.append(
            f"{len(cut)} topics have lists of different lengths; both were cut to the "
            f"shorter, e.g. {', '.join(shown(t) for t in cut[:3])}"
        )
    for note in notes:
        warnings.warn(f"{where}: {note}", InputWarning, stacklevel=3)
    return notes


@dataclass(frozen=True, eq=False, repr=False)
class Reproducibility(Result, Reported):
    """Reproducibility (or replicability) measures of a baseline and an advanced run
    (Breuer et al. 2020), made by :func:`reproducibility`.

    ``records()``: one row per measure × role × metric.

    Parameters
    ----------
    kind : str
        ``reproducibility`` or ``replicability``.
    metrics : tuple of str
        The metrics evaluated.
    runs : mapping of str to (str, str)
        Role ("baseline"/"advanced") → the names of the original and the reproduced run.
    ktu, rbo : mapping of str to PerTopic
        Per role, KTU and RBO of the document orderings (reproducibility only).
    scores : mapping of (str, str) to mapping of str to float
        ``scores[(role, metric)]`` holds ``arp_orig``, ``arp_rep``, ``rmse``, ``nrmse``
        (reproducibility only) and ``pvalue``.
    effects : mapping of str to mapping of str to float
        ``effects[metric]`` holds ``er`` and ``delta_ri``.
    warnings : tuple of str
        What was adjusted or left out.
    provenance : mapping
        The options, the conventions and the definitions followed.

    Examples
    --------
    >>> from assay import Qrels, Run, meta
    >>> a = Run.from_dict({"q1": {"d1": 3.0, "d2": 2.0}, "q2": {"d1": 1.0, "d2": 2.0}}, name="a")
    >>> b = Run.from_dict({"q1": {"d2": 3.0, "d1": 2.0}, "q2": {"d1": 2.0, "d2": 1.0}}, name="b")
    >>> q = Qrels.from_dict({"q1": {"d1": 1, "d2": 0}, "q2": {"d1": 0, "d2": 1}})
    >>> rep = meta.reproducibility(q, a, b, a, b, ["P@1"])
    >>> rep.scores[("advanced", "P@1")]["rmse"], rep.effects["P@1"]["er"]
    (0.0, 1.0)
    """

    family = "meta"

    kind: str
    metrics: tuple[str, ...]
    runs: Mapping[str, tuple[str, str]]
    ktu: Mapping[str, PerTopic]
    rbo: Mapping[str, PerTopic]
    scores: Mapping[tuple[str, str], Mapping[str, float]]
    effects: Mapping[str, Mapping[str, float]]
    warnings: tuple[str, ...] = ()
    provenance: Mapping[str, Any] = field(default_factory=dict)  # Any: JSON-like option values

    def records(self) -> list[dict[str, Any]]:
        """One row per measure × role × metric: measure, run (the role), metric, value (KTU
        and RBO: their mean over the topics)."""
        rows: list[dict[str, Any]] = []
        for role, res in {
            **{f"ktu:{k}": v for k, v in self.ktu.items()},
            **{f"rbo:{k}": v for k, v in self.rbo.items()},
        }.items():
            measure, run_role = role.split(":")
            rows.append({"measure": measure, "run": run_role, "metric": "", "value": res.mean})
        for (role, metric), values in self.scores.items():
            for measure, v in values.items():
                rows.append({"measure": measure, "run": role, "metric": metric, "value": v})
        for metric, values in self.effects.items():
            for measure, v in values.items():
                rows.append({"measure": measure, "run": "", "metric": metric, "value": v})
        return rows

    def report(self) -> Report:
        """The table ``assay meta`` prints and the records."""
        from .report import repro_report

        return repro_report(self)

    def document(self) -> Document:
        """The ``--report`` content: :meth:`report`'s tables under "Reproducibility"."""
        from ..report.sections_tasks import tables_document

        return tables_document("Reproducibility", self.family, self.report())


def reproducibility(
    qrels: QrelsLike,
    orig_baseline: RunLike,
    orig_advanced: RunLike,
    rep_baseline: RunLike,
    rep_advanced: RunLike,
    metrics: str | Metric | Sequence[str | Metric],
    *,
    rep_qrels: QrelsLike | None = None,
    p: float = 0.95,
    rbo_depth: int = 1000,
    ktu_depth: int = 1000,
    ties: Ties = "docno",
    missing: Missing = "zero",
    no_relevant: NoRelevant = "zero",
) -> Reproducibility:
    """Breuer et al.'s measures of a reproduced (same ``qrels``) or, with ``rep_qrels``, a
    replicated experiment (the reproduced runs evaluated on ``rep_qrels``): KTU and RBO of the
    document orderings (reproducibility only), per-topic RMSE and nRMSE (reproducibility
    only), the effect ratio and ΔRI, and the paired (reproducibility) or unpaired
    (replicability) t-test p-value of each run's scores. ``p`` and ``rbo_depth``: RBO's
    persistence and depth (repro_eval: 0.95, 1000); ``ktu_depth``: repro_eval's run length.
    ``ties``, ``missing``, ``no_relevant``: the conventions of :func:`assay.evaluate`.

    Parameters
    ----------
    qrels : QrelsLike
        The original experiment's judgments (:class:`~assay.Qrels`, or what
        :meth:`Qrels.coerce` accepts).
    orig_baseline, orig_advanced, rep_baseline, rep_advanced : RunLike
        The original and the reproduced runs (:class:`~assay.Run`, or what
        :meth:`Run.coerce` accepts).
    metrics : str, Metric or a sequence of them
        The metrics of RMSE, ER, ΔRI and the t-tests.
    rep_qrels : QrelsLike, optional
        The replication's judgments (another collection): replicability measures.
    p : float
        RBO's persistence.
    rbo_depth : int
        RBO's depth.
    ktu_depth : int
        The run length of Kendall's τ union.
    ties, missing, no_relevant : str
        The evaluation's conventions (as :func:`assay.evaluate`).

    Returns
    -------
    Reproducibility
        One row per measure, role and metric; ``report()`` is the table
        ``assay meta repro`` prints.

    Examples
    --------
    >>> from assay import Qrels, Run, meta
    >>> a = Run.from_dict({"q1": {"d1": 3.0, "d2": 2.0}, "q2": {"d1": 1.0, "d2": 2.0}}, name="a")
    >>> b = Run.from_dict({"q1": {"d2": 3.0, "d1": 2.0}, "q2": {"d1": 2.0, "d2": 1.0}}, name="b")
    >>> q = Qrels.from_dict({"q1": {"d1": 1, "d2": 0}, "q2": {"d1": 0, "d2": 1}})
    >>> rep = meta.reproducibility(q, a, b, a, b, ["P@1"])
    >>> rep.kind, sorted({r["measure"] for r in rep.records()})[:3]
    ('reproducibility', ['arp_orig', 'arp_rep', 'delta_ri'])
    """
    from ..evaluation import evaluate

    where = "reproducibility"
    p = opt.number(p, "p", low=0, high=1, low_open=True, high_open=True, where=where)
    rbo_depth = opt.integer(rbo_depth, "rbo_depth", minimum=1, maximum=MAX_RBO_DEPTH, where=where)
    ktu_depth = opt.integer(ktu_depth, "ktu_depth", minimum=1, where=where)
    kind = "reproducibility" if rep_qrels is None else "replicability"
    conv: dict[str, Any] = {"ties": ties, "missing": missing, "no_relevant": no_relevant}
    orig = evaluate(qrels, {"b": orig_baseline, "a": orig_advanced}, metrics, **conv)
    rep = evaluate(
        qrels if rep_qrels is None else rep_qrels,
        {"b": rep_baseline, "a": rep_advanced},
        metrics,
        **conv,
    )
    roles = {"baseline": (orig_baseline, rep_baseline), "advanced": (orig_advanced, rep_advanced)}
    ktu, rbo = {}, {}
    if kind == "reproducibility":
        for role, (o, r) in roles.items():
            ktu[role] = ktau_union(o, r, depth=ktu_depth)
            rbo[role] = repro_rbo(o, r, p=p, depth=rbo_depth)
    scores, effects = {}, {}
    for metric in orig.metric_names:
        per = {
            k: (
                orig["b" if k == "baseline" else "a", metric],
                rep["b" if k == "baseline" else "a", metric],
            )
            for k in roles
        }
        for role, (o, r) in per.items():
            scores[(role, metric)] = _score_measures(o, r, kind, where)
        effects[metric] = _effects(*(v.values for pair in per.values() for v in pair))
    notes = tuple(n for res in (*ktu.values(), *rbo.values()) for n in res.warnings)
    return Reproducibility(
        kind=kind,
        metrics=tuple(orig.metric_names),
        runs={k: (_name(o), _name(r)) for k, (o, r) in roles.items()},
        ktu=ktu,
        rbo=rbo,
        scores=scores,
        effects=effects,
        warnings=(*orig.warnings, *rep.warnings, *notes),
        provenance=provenance(
            kind=kind,
            p=p,
            rbo_depth=rbo_depth,
            ktu_depth=ktu_depth,
            **conv,
            definitions="repro_eval 0.5 (Breuer et al. 2020)",
        ),
    )


def _score_measures(o: Any, r: Any, kind: str, where: str) -> dict[str, float]:
    from scipy import stats

    x, y = np.asarray(o.values, dtype=float), np.asarray(r.values, dtype=float)
    out = {"arp_orig": float(np.mean(x)), "arp_rep": float(np.mean(y))}
    if kind == "reproducibility":
        if [str(q) for q in o.queries] != [str(q) for q in r.queries]:
            raise InputError(f"{where}: the original and reproduced runs cover different topics")
        rmse = math.sqrt(float(np.mean((x - y) ** 2)))
        out["rmse"] = rmse
        out["nrmse"] = rmse / math.sqrt(float(np.mean(np.maximum(x, 1 - x) ** 2)))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # zero variance: NaN, then repro_eval's rule below
        test = stats.ttest_rel if kind == "reproducibility" else stats.ttest_ind
        p = float(test(x, y).pvalue)
    if math.isnan(p) and x.shape == y.shape and np.array_equal(x, y):
        p = 1.0
    out["pvalue"] = p
    return out


def _effects(ob: Any, rb: Any, oa: Any, ra: Any) -> dict[str, float]:
    """ER and ΔRI from the per-topic scores of the original and reproduced b(aseline) and
    a(dvanced) runs."""
    mi_orig = float(np.mean(np.asarray(oa) - np.asarray(ob)))
    mi_rep = float(np.mean(np.asarray(ra) - np.asarray(rb)))
    ri_orig = _ratio(float(np.mean(oa)) - float(np.mean(ob)), float(np.mean(ob)))
    ri_rep = _ratio(float(np.mean(ra)) - float(np.mean(rb)), float(np.mean(rb)))
    return {"er": _ratio(mi_rep, mi_orig), "delta_ri": ri_orig - ri_rep}


def _ratio(num: float, den: float) -> float:
    """num/den as IEEE division (±inf, NaN for 0/0), where Python would raise."""
    with np.errstate(divide="ignore", invalid="ignore"):
        return float(np.float64(num) / np.float64(den))
