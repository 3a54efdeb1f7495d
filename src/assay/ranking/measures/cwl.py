"""C/W/L measures: the user-browsing framework of Moffat et al. as ``cwl_eval`` computes it.

A C/W/L measure is given by its continuation probabilities C_i (the chance that a user who
has read rank i reads rank i + 1). From them, over a ranking of fixed length N (the
``depth``, cwl_eval's ``max_n`` of 1000; shorter lists are padded, longer ones cut):

* W_i = prod_{j<i} C_j / sum_{m<=N} prod_{j<m} C_j, the share of attention rank i gets;
* L_i = prod_{j<i} C_j (1 - C_i), the chance the user stops at rank i;
* EU = sum_i W_i g_i (expected utility per document: the measure's value),
  ETU = sum_i L_i sum_{j<=i} g_j (expected total utility), EC = sum_i W_i c_i and
  ETC = sum_i L_i sum_{j<=i} c_j (expected cost per document and in total), and
  ED = 1 / W_1 (the expected depth).

Gains g_i lie in [0, 1]: a grade g becomes (min(max(g, min_rel), max_rel) - min_rel) /
(max_rel - min_rel) (ir_measures' mapping onto cwl_eval's gain file; a negative grade is
judged 0). Costs are one per document: runs carry no element types. Rows past the end of a
list are padded with gain 0 (and, for the residual, with the best-case gain 1); a document
absent from the qrels gains 0, or 1 in the best case. ``residual=True`` reports the best case
minus the worst case (cwl_eval's ``-r``).

The declared range and direction are EU's: EU lies in [0, 1] and higher is better. The other
quantities are counts of documents (ETU, ETC, ED: up to ``depth``; EC is 1 with unit costs),
and a residual can be negative (the best case can stop the user earlier), so the registry
declares no bounds.

Every query is one row of a dense (queries x N) matrix, built a bounded number of queries at
a time; all work runs along the rows, so a query's value never depends on the others (the
block and Dask paths give the same bits).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal

import numpy as np

from ..._options import flag
from ...data.ranked import NONPOOL, Ranked
from ...errors import MetricError
from ...metrics.registry import (
    Param,
    Peer,
    closed_unit,
    metric,
    nonneg_int,
    one_of,
    open_unit,
    optional,
    positive_float,
    positive_int,
    real_number,
)

__all__ = [
    "CwlQuantity",
    "bpm",
    "bpm_dynamic",
    "cwl_gains",
    "cwl_measure",
    "insq",
    "inst",
    "nerr8",
    "nerr9",
    "nerr10",
    "nerr11",
    "sdcg",
]

#: What a C/W/L measure reports (cwl_eval's columns).
CwlQuantity = Literal["EU", "ETU", "EC", "ETC", "ED"]

#: Cells of one (queries x depth) matrix: bounds the memory of a chunk of queries.
_CHUNK_CELLS = 1 << 21

_Continue = Callable[[np.ndarray, np.ndarray], np.ndarray]


def _residual_check(value: Any) -> bool:
    return flag(value, "residual", error=MetricError)


_DEPTH = Param(
    "depth", 1000, positive_int("depth"), "ranks the user model spans (cwl_eval's max_n)"
)
_QUANTITY = Param(
    "quantity",
    "EU",
    one_of("quantity", CwlQuantity),
    "EU (the measure), ETU, EC, ETC or ED (expected depth)",
)
_RESIDUAL = Param(
    "residual", False, _residual_check, "report the best case minus the worst case (cwl_eval -r)"
)
_MIN_REL = Param("min_rel", 0, nonneg_int("min_rel"), "grade mapped to gain 0")
_MAX_REL = Param(
    "max_rel",
    None,
    optional(positive_int("max_rel")),
    "grade mapped to gain 1 (default: the qrels' maximum)",
)
_T = Param("T", 1.0, positive_float("T"), "the gain the user wants")
_COMMON = (_MIN_REL, _MAX_REL, _DEPTH, _QUANTITY, _RESIDUAL)


def cwl_gains(r: Ranked, min_rel: int, max_rel: int | None) -> tuple[np.ndarray, np.ndarray]:
    """Per-row gain in [0, 1] and whether the row is judged (in the qrels at all).

    Parameters
    ----------
    r : Ranked
        The ranked lists.
    min_rel, max_rel : int
        The grades mapped to gain 0 and 1 (``max_rel`` None: the qrels' maximum grade, at
        least ``min_rel + 1``).

    Returns
    -------
    tuple of numpy.ndarray
        The gains (0 for a document absent from the qrels) and the judged flags.

    Examples
    --------
    >>> from assay.data import Conventions, Qrels, Run, rank
    >>> from assay.ranking.measures.cwl import cwl_gains
    >>> qrels = Qrels.from_dict({"q": {"a": 2, "b": 1}})
    >>> ranked, _ = rank(qrels, Run.from_dict({"q": {"a": 3.0, "b": 2.0, "c": 1.0}}), Conventions())
    >>> cwl_gains(ranked, 0, None)
    (array([1. , 0.5, 0. ]), array([ True,  True, False]))
    """
    top = max(int(r.max_grade), min_rel + 1) if max_rel is None else int(max_rel)
    if top <= min_rel:
        raise MetricError(f"max_rel must exceed min_rel, got min_rel={min_rel}, max_rel={top}")
    judged = r.grade != NONPOOL
    g = np.clip(r.clipped_grade, min_rel, top).astype(np.float64)
    return np.where(judged, (g - min_rel) / (top - min_rel), 0.0), judged


def _matrix(r: Ranked, values: np.ndarray, fill: float, depth: int, q0: int, q1: int) -> np.ndarray:
    """Rows q0..q1 as a (q1 - q0, depth) matrix, padded with ``fill``, cut at ``depth``."""
    out = np.full((q1 - q0, depth), fill)
    lo, hi = int(r.offsets[q0]), int(r.offsets[q1])
    pos = r.pos[lo:hi]
    keep = pos < depth
    out[(r.qidx[lo:hi] - q0)[keep], pos[keep]] = values[lo:hi][keep]
    return out


def _row_sums(x: np.ndarray) -> np.ndarray:
    """Sums along the rows, added left to right: np.sum's pairwise order depends on the
    matrix's shape, and a query's value must not depend on how many share its chunk."""
    out: np.ndarray = np.cumsum(x, axis=1)[:, -1]
    return out


def _quantity(c: np.ndarray, g: np.ndarray, quantity: str) -> np.ndarray:
    """cwl_eval's measurements from the continuation matrix ``c`` and gains ``g`` (unit costs)."""
    c = np.ascontiguousarray(c, dtype=np.float64)
    reach = np.ones_like(c)
    reach[:, 1:] = np.cumprod(c[:, :-1], axis=1)
    w1 = 1.0 / _row_sums(reach)
    out: np.ndarray
    if quantity == "ED":
        out = 1.0 / w1
    elif quantity in ("EU", "EC"):
        out = _row_sums(reach * w1[:, None] * (g if quantity == "EU" else 1.0))
    else:
        stop = reach * (1.0 - c)
        total = np.cumsum(g if quantity == "ETU" else np.ones_like(g), axis=1)
        out = _row_sums(stop * total)
    return out


def cwl_measure(
    r: Ranked,
    cont: _Continue,
    *,
    min_rel: int,
    max_rel: int | None,
    depth: int,
    quantity: str,
    residual: bool,
) -> np.ndarray:
    """Per-query C/W/L ``quantity`` of the user model whose continuation is ``cont``.

    Parameters
    ----------
    r : Ranked
        The ranked lists.
    cont : callable
        ``cont(gains, costs) -> C``: the continuation matrix from the (queries x depth)
        gain and cost matrices.
    min_rel, max_rel : int
        The gain mapping (:func:`cwl_gains`).
    depth : int
        The ranks the model spans.
    quantity : str
        ``EU``, ``ETU``, ``EC``, ``ETC`` or ``ED``.
    residual : bool
        The best case (unjudged and padded documents gain 1) minus the worst case.

    Returns
    -------
    numpy.ndarray
        One value per query.

    Examples
    --------
    >>> import numpy as np
    >>> from assay.data import Conventions, Qrels, Run, rank
    >>> from assay.ranking.measures.cwl import cwl_measure
    >>> qrels = Qrels.from_dict({"q": {"a": 1, "b": 0}})
    >>> ranked, _ = rank(qrels, Run.from_dict({"q": {"a": 2.0, "b": 1.0}}), Conventions())
    >>> half = lambda g, c: np.where(np.arange(g.shape[1]) < 1, 1.0, 0.0) * np.ones_like(g)
    >>> cwl_measure(ranked, half, min_rel=0, max_rel=None, depth=5, quantity="EU", residual=False)
    array([0.5])
    """
    gains, judged = cwl_gains(r, min_rel, max_rel)
    out = np.zeros(r.nq)
    step = max(1, _CHUNK_CELLS // depth)
    for q0 in range(0, r.nq, step):
        q1 = min(r.nq, q0 + step)
        g = _matrix(r, gains, 0.0, depth, q0, q1)
        costs = np.ones_like(g)
        value = _quantity(cont(g, costs), g, quantity)
        if residual:
            best = _matrix(r, np.where(judged, gains, 1.0), 1.0, depth, q0, q1)
            value = _quantity(cont(best, costs), best, quantity) - value
        out[q0:q1] = value
    return out


def _ranks(g: np.ndarray) -> np.ndarray:
    return np.arange(1, g.shape[1] + 1, dtype=np.float64)


def _before(g: np.ndarray, k: int) -> np.ndarray:
    """1 for the ranks before k (the user may go on), 0 from rank k (the user stops)."""
    return (np.arange(g.shape[1]) < k - 1).astype(np.float64)


def _insq_factor(g: np.ndarray, t: float) -> np.ndarray:
    i = _ranks(g)
    return ((i + 2.0 * t - 1.0) / (i + 2.0 * t)) ** 2.0


def _cwl_eval(metric_class: str) -> tuple[Peer, ...]:
    """cwl_eval's class for a measure (module ``cwl.ruler.measures``), and how it differs."""
    return (
        Peer(
            "cwl_eval",
            f"cwl.ruler.measures.{metric_class}",
            "Reads the run in the order given (assay's ties='input') and takes gains in [0, 1] "
            "from a gain file (assay maps the grades with min_rel and max_rel).",
        ),
    )


@metric(
    "INST",
    params=(_T, *_COMMON),
    cutoff="none",
    bounds=(None, None),
    average_ties=False,
    peers=_cwl_eval("cwl_inst.INSTCWLMetric"),
)
def inst(
    r: Ranked,
    k: int | None,
    T: float,
    min_rel: int,
    max_rel: int | None,
    depth: int,
    quantity: str,
    residual: bool,
) -> np.ndarray:
    """INST: C_i = ((i + T + T_i - 1) / (i + T + T_i))^2, T_i = T - sum_{j<=i} g_j.

    The user wants T units of gain and is the less likely to go on the closer they are to
    it. The value is the C/W/L expected utility EU = sum_i W_i g_i over ``depth`` ranks
    (docs/conventions.md, "C/W/L measures", for ETU, EC, ETC, ED and the residual).
    ir_measures' ``INST(T=…)``; cwl_eval's ``INSTCWLMetric``. Reference: Bailey, Moffat,
    Scholer & Thomas (2015), "User variability and IR system evaluation", SIGIR; Moffat,
    Bailey, Scholer & Thomas (2015), ADCS.
    """
    r.require_average_support("INST", False)

    def cont(g: np.ndarray, _c: np.ndarray) -> np.ndarray:
        extra = _ranks(g) + T + (T - np.cumsum(g, axis=1))
        out: np.ndarray = ((extra - 1.0) / extra) ** 2.0
        return out

    return cwl_measure(
        r, cont, min_rel=min_rel, max_rel=max_rel, depth=depth, quantity=quantity, residual=residual
    )


@metric(
    "INSQ",
    params=(_T, *_COMMON),
    cutoff="none",
    bounds=(None, None),
    average_ties=False,
    peers=_cwl_eval("cwl_insq.INSQCWLMetric"),
)
def insq(
    r: Ranked,
    k: int | None,
    T: float,
    min_rel: int,
    max_rel: int | None,
    depth: int,
    quantity: str,
    residual: bool,
) -> np.ndarray:
    """INSQ: C_i = ((i + 2T - 1) / (i + 2T))^2, whatever the gains.

    The value is the C/W/L expected utility EU = sum_i W_i g_i over ``depth`` ranks.
    ir_measures' ``INSQ(T=…)``; cwl_eval's ``INSQCWLMetric``. Reference: Moffat, Scholer &
    Thomas (2012), "Models and metrics: IR evaluation as a user process", ADCS.
    """
    r.require_average_support("INSQ", False)

    def cont(g: np.ndarray, _c: np.ndarray) -> np.ndarray:
        return np.broadcast_to(_insq_factor(g, T), g.shape).copy()

    return cwl_measure(
        r, cont, min_rel=min_rel, max_rel=max_rel, depth=depth, quantity=quantity, residual=residual
    )


def _bpm_cont(g: np.ndarray, c: np.ndarray, goal: np.ndarray, k: int) -> np.ndarray:
    """Go on while the gain so far is below the goal and the cost so far below k."""
    wanting = np.logical_and.accumulate(np.cumsum(g, axis=1) < goal, axis=1)
    patient = np.logical_and.accumulate(np.cumsum(c, axis=1) < k, axis=1)
    return (wanting & patient).astype(np.float64)


@metric(
    "BPM",
    params=(_T, *_COMMON),
    cutoff="optional",
    bounds=(None, None),
    average_ties=False,
    peers=_cwl_eval("cwl_bpm.BPMCWLMetric"),
)
def bpm(
    r: Ranked,
    k: int | None,
    T: float,
    min_rel: int,
    max_rel: int | None,
    depth: int,
    quantity: str,
    residual: bool,
) -> np.ndarray:
    """Bejewelled player model (static): C_i = [sum_{j<=i} g_j < T and i < k].

    The user stops once T units of gain are found or k documents are read (the cutoff is the
    cost budget: one unit per document; without one, k = depth). EU = sum_i W_i g_i over ``depth`` ranks.
    ir_measures' ``BPM(T=…)@k``; cwl_eval's ``BPMCWLMetric(T, k)``. Reference: Zhang, Liu, Li,
    Zhang, Xu & Ma (2017), "Evaluating web search with a bejeweled player model", SIGIR.
    """
    r.require_average_support("BPM", False)
    cutoff = depth if k is None else k

    def cont(g: np.ndarray, c: np.ndarray) -> np.ndarray:
        return _bpm_cont(g, c, np.full(g.shape, T), cutoff)

    return cwl_measure(
        r, cont, min_rel=min_rel, max_rel=max_rel, depth=depth, quantity=quantity, residual=residual
    )


@metric(
    "BPM_dynamic",
    params=(
        _T,
        Param("hb", 1.0, real_number("hb"), "how much each gain moves the goal"),
        Param("gain_med", 0.5, closed_unit("gain_med"), "the gain that leaves the goal as it is"),
        *_COMMON,
    ),
    cutoff="optional",
    bounds=(None, None),
    average_ties=False,
    peers=_cwl_eval("cwl_bpm.BPMDCWLMetric"),
)
def bpm_dynamic(
    r: Ranked,
    k: int | None,
    T: float,
    hb: float,
    gain_med: float,
    min_rel: int,
    max_rel: int | None,
    depth: int,
    quantity: str,
    residual: bool,
) -> np.ndarray:
    """Dynamic BPM: C_i = [sum_{j<=i'} g_j < T_{i'} for all i' <= i, and i < k], T_1 = T,
    T_{i+1} = T_i + hb (g_i - gain_med).

    The goal grows after good documents and shrinks after poor ones. As in cwl_eval the cost
    budget k (depth without a cutoff) stays fixed (cwl_eval's ``hc`` has no effect: its update is applied to the goal
    after the goal's constraint is settled), so there is no ``hc``. cwl_eval's
    ``BPMDCWLMetric(T, k, hb, hc, gain_med)``. Reference: Zhang et al. (2017), SIGIR.
    """
    r.require_average_support("BPM_dynamic", False)
    cutoff = depth if k is None else k

    def cont(g: np.ndarray, c: np.ndarray) -> np.ndarray:
        steps = np.concatenate([np.full((len(g), 1), float(T)), hb * (g[:, :-1] - gain_med)], 1)
        return _bpm_cont(g, c, np.cumsum(steps, axis=1), cutoff)

    return cwl_measure(
        r, cont, min_rel=min_rel, max_rel=max_rel, depth=depth, quantity=quantity, residual=residual
    )


@metric(
    "SDCG",
    params=_COMMON,
    cutoff="optional",
    bounds=(None, None),
    average_ties=False,
    peers=_cwl_eval("cwl_dcg.NDCGCWLMetric"),
)
def sdcg(
    r: Ranked,
    k: int | None,
    min_rel: int,
    max_rel: int | None,
    depth: int,
    quantity: str,
    residual: bool,
) -> np.ndarray:
    """Scaled DCG: SDCG@k = sum_{i<=k} g_i / log2(i + 1) / sum_{i<=k} 1 / log2(i + 1).

    DCG@k over the DCG@k of a list of k fully relevant documents, as C/W/L weights: C_i =
    log2(i + 1) / log2(i + 2) before rank k, 0 from it (without a cutoff, k = depth). ir_measures' ``SDCG@k``; cwl_eval's
    ``NDCGCWLMetric(k)`` (its "NDCG-k@k"). Reference: Moffat, Bailey, Scholer & Thomas
    (2017), "Incorporating user expectations and behavior into the measurement of search
    effectiveness", TOIS 35(3).
    """
    r.require_average_support("SDCG", False)
    cutoff = depth if k is None else k

    def cont(g: np.ndarray, _c: np.ndarray) -> np.ndarray:
        i = _ranks(g)
        return np.broadcast_to(np.log(i + 1.0) / np.log(i + 2.0) * _before(g, cutoff), g.shape)

    return cwl_measure(
        r, cont, min_rel=min_rel, max_rel=max_rel, depth=depth, quantity=quantity, residual=residual
    )


def _nerr(r: Ranked, name: str, cont: _Continue, **params: Any) -> np.ndarray:  # Any: options
    r.require_average_support(name, False)
    return cwl_measure(r, cont, **params)


@metric(
    "NERR8",
    params=_COMMON,
    cutoff="optional",
    bounds=(None, None),
    average_ties=False,
    peers=_cwl_eval("cwl_nerr.NERReq8CWLMetric"),
)
def nerr8(
    r: Ranked,
    k: int | None,
    min_rel: int,
    max_rel: int | None,
    depth: int,
    quantity: str,
    residual: bool,
) -> np.ndarray:
    """NERR (equation 8): C_i = 1 - g_i before rank k, 0 from it.

    Not (but nearly) ERR: ERR's stopping on gain made a C/W/L measure, truncated at k (without
    a cutoff, k = depth); the
    value is EU = sum_i W_i g_i. ir_measures' ``NERR8@k``; cwl_eval's ``NERReq8CWLMetric``.
    Reference: Azzopardi, Mackenzie & Moffat (2021), "ERR is not C/W/L: exploring the
    relationship between expected reciprocal rank and other metrics", ICTIR.
    """
    cutoff = depth if k is None else k
    return _nerr(
        r,
        "NERR8",
        lambda g, _c: (1.0 - g) * _before(g, cutoff),
        min_rel=min_rel,
        max_rel=max_rel,
        depth=depth,
        quantity=quantity,
        residual=residual,
    )


@metric(
    "NERR9",
    params=_COMMON,
    cutoff="optional",
    bounds=(None, None),
    average_ties=False,
    peers=_cwl_eval("cwl_nerr.NERReq9CWLMetric"),
)
def nerr9(
    r: Ranked,
    k: int | None,
    min_rel: int,
    max_rel: int | None,
    depth: int,
    quantity: str,
    residual: bool,
) -> np.ndarray:
    """NERR (equation 9): C_i = i / (i + 1) (1 - g_i) before rank k, 0 from it.

    ERR's gain-based stopping and its 1/i discount as a C/W/L measure, truncated at k (k =
    depth without a cutoff); the
    value is EU = sum_i W_i g_i. ir_measures' ``NERR9@k``; cwl_eval's ``NERReq9CWLMetric``.
    Reference: Azzopardi, Mackenzie & Moffat (2021), ICTIR.
    """
    cutoff = depth if k is None else k

    def cont(g: np.ndarray, _c: np.ndarray) -> np.ndarray:
        i = _ranks(g)
        out: np.ndarray = (i / (i + 1.0)) * (1.0 - g) * _before(g, cutoff)
        return out

    return _nerr(
        r,
        "NERR9",
        cont,
        min_rel=min_rel,
        max_rel=max_rel,
        depth=depth,
        quantity=quantity,
        residual=residual,
    )


@metric(
    "NERR10",
    params=(Param("p", 0.9, open_unit("p"), "persistence"), *_COMMON),
    cutoff="none",
    bounds=(None, None),
    average_ties=False,
    peers=_cwl_eval("cwl_nerr.NERReq10CWLMetric"),
)
def nerr10(
    r: Ranked,
    k: int | None,
    p: float,
    min_rel: int,
    max_rel: int | None,
    depth: int,
    quantity: str,
    residual: bool,
) -> np.ndarray:
    """NERR (equation 10): C_i = p (1 - g_i).

    ERR's gain-based stopping with RBP's patience p, to full depth; the value is EU = sum_i
    W_i g_i. ir_measures' ``NERR10(p=…)``; cwl_eval's ``NERReq10CWLMetric``. Reference:
    Azzopardi, Mackenzie & Moffat (2021), ICTIR.
    """
    return _nerr(
        r,
        "NERR10",
        lambda g, _c: p * (1.0 - g),
        min_rel=min_rel,
        max_rel=max_rel,
        depth=depth,
        quantity=quantity,
        residual=residual,
    )


@metric(
    "NERR11",
    params=(_T, *_COMMON),
    cutoff="none",
    bounds=(None, None),
    average_ties=False,
    peers=_cwl_eval("cwl_nerr.NERReq11CWLMetric"),
)
def nerr11(
    r: Ranked,
    k: int | None,
    T: float,
    min_rel: int,
    max_rel: int | None,
    depth: int,
    quantity: str,
    residual: bool,
) -> np.ndarray:
    """NERR (equation 11): C_i = ((i + 2T - 1) / (i + 2T))^2 (1 - g_i).

    ERR's gain-based stopping with INSQ's goal T, to full depth; the value is EU = sum_i W_i
    g_i. ir_measures' ``NERR11(T=…)``; cwl_eval's ``NERReq11CWLMetric``. Reference:
    Azzopardi, Mackenzie & Moffat (2021), ICTIR.
    """
    return _nerr(
        r,
        "NERR11",
        lambda g, _c: _insq_factor(g, T) * (1.0 - g),
        min_rel=min_rel,
        max_rel=max_rel,
        depth=depth,
        quantity=quantity,
        residual=residual,
    )
