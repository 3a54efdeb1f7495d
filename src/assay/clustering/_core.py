"""What the hard and soft clustering measures share: factorising cluster labels, the
contingency table of two hard clusterings, the result types and the option declarations.

The measures are in :mod:`assay.clustering.measures` (hard clusterings) and
:mod:`assay.clustering.soft` (overlapping, weighted clusterings).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Hashable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from .._options import ZeroDivision, choice, flag, number
from .._result import Result, TupleResult
from ..errors import EmptyInputError, InputError, MetricError
from ..metrics.registry import FROM_SIGNATURE, Param, measure, one_of
from .options import AverageMethod

FAMILY = "clustering"

#: Above this many (gold x pred) cells, and above 4 n, the table is built as a sparse matrix.
DENSE_CELLS = 1 << 20

# The declarations of a measure over two hard clusterings (label sequences) and over two soft
# ones (lists of clusters).
hard_measure = functools.partial(measure, family=FAMILY, input="clusterings")
soft_measure = functools.partial(measure, family=FAMILY, input="soft clusterings")


# ---------------------------------------------------------------- options


def check_zero_division(value: Any) -> ZeroDivision:
    """``zero_division``: 0, 1 or "nan" (a float NaN is read as "nan")."""
    if isinstance(value, float) and math.isnan(value):
        return "nan"
    out: ZeroDivision = choice(value, ZeroDivision, "zero_division", error=MetricError)
    return out


def check_beta(value: Any) -> float:
    """β of an F-score: a number in [0, 1e150] (past it β² overflows and F_β is NaN)."""
    return number(value, "beta", low=0, high=1e150, error=MetricError)


def check_normalize(value: Any) -> bool:
    return flag(value, "normalize", error=MetricError)


def zero_division_value(zero_division: ZeroDivision | float) -> float:
    """The float a validated ``zero_division`` stands for."""
    return math.nan if zero_division == "nan" else float(zero_division)


ZERO_DIVISION = Param(
    "zero_division",
    FROM_SIGNATURE,
    check_zero_division,
    "value of a ratio whose denominator is 0 (no pair): 0, 1 or 'nan'",
)
BETA = Param("beta", FROM_SIGNATURE, check_beta, "weight of recall (F_β); a finite number >= 0")
AVERAGE_METHOD = Param(
    "average_method",
    FROM_SIGNATURE,
    one_of("average_method", AverageMethod),
    "mean of the two entropies: arithmetic, geometric, min or max",
)
NORMALIZE = Param(
    "normalize",
    FROM_SIGNATURE,
    check_normalize,
    "divide each item's weights by its total over the clustering (every item weighs 1)",
)


# ---------------------------------------------------------------- result types


@dataclass(frozen=True, repr=False, eq=False)
class ClusterPairCounts(TupleResult):
    """Unordered pairs of items: together in both (tp), in pred only (fp), in gold only (fn),
    in neither (tn). Python ints (no overflow). Unpacks as ``tp, fp, fn, tn`` and equals the
    tuple of the four counts. Built by :func:`~assay.clustering.pair_counts`.

    Parameters
    ----------
    tp, fp, fn, tn : int
        The pairs together in both clusterings, in pred only, in gold only, in neither.
    provenance : mapping
        The settings that produced the result.

    Examples
    --------
    >>> from assay.clustering import pair_counts
    >>> tp, fp, fn, tn = pair_counts([0, 0, 1, 1], [0, 0, 0, 1])
    >>> tp, fp, fn, tn
    (1, 2, 1, 2)
    """

    tp: int
    fp: int
    fn: int
    tn: int
    provenance: Mapping[str, Any] = field(default_factory=dict)  # Any: settings of every type
    _fields = ("tp", "fp", "fn", "tn")


@dataclass(frozen=True, repr=False, eq=False)
class PRF(TupleResult):
    """Precision, recall and their (weighted) harmonic mean. Unpacks as ``precision, recall,
    f`` and equals that tuple. Built by :func:`~assay.clustering.bcubed` and
    :func:`~assay.clustering.soft_pairwise`.

    Parameters
    ----------
    precision, recall, f : float
        Precision, recall and their F.
    provenance : mapping
        The settings that produced the result.

    Examples
    --------
    >>> from assay.clustering import bcubed
    >>> p, r, f = bcubed([0, 0, 1, 1], [0, 0, 0, 1])
    >>> round(p, 4), round(r, 4), round(f, 4)
    (0.6667, 0.75, 0.7059)
    """

    precision: float
    recall: float
    f: float
    provenance: Mapping[str, Any] = field(default_factory=dict)  # Any: settings of every type
    _fields = ("precision", "recall", "f")


@dataclass(frozen=True, repr=False, eq=False)
class ClusteringReport(Result, Mapping[str, float]):
    """Every measure of two clusterings from one computation, by name (a read-only mapping,
    in a fixed order). ``records()``: one row ``{"metric", "value"}`` per measure. Built by
    :func:`~assay.clustering.hard_report` and :func:`~assay.clustering.soft_report`.

    Parameters
    ----------
    kind : {"hard", "soft"}
        Which clusterings were measured.
    measures : mapping of str to float
        The value of each measure, by name.
    provenance : mapping
        The settings that produced the result.

    Examples
    --------
    >>> from assay.clustering import hard_report
    >>> rep = hard_report([0, 0, 1, 1], [0, 0, 0, 1])
    >>> rep.kind, round(rep["purity"], 4)
    ('hard', 0.75)
    """

    kind: str
    measures: Mapping[str, float]
    provenance: Mapping[str, Any] = field(default_factory=dict)  # Any: settings of every type

    def __getitem__(self, name: str) -> float:
        return self.measures[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self.measures)

    def __len__(self) -> int:
        return len(self.measures)

    def records(self) -> list[dict[str, Any]]:
        return [{"metric": name, "value": value} for name, value in self.measures.items()]


# ---------------------------------------------------------------- factorising labels


def codes(labels: ArrayLike, name: str) -> tuple[np.ndarray, int]:
    """Factorise labels to codes 0..k-1 (k distinct labels)."""
    arr = _label_array(labels, name)
    _check_present(arr, name)
    try:
        uniq, inv = np.unique(arr, return_inverse=True)
        return inv.reshape(-1).astype(np.int64, copy=False), int(uniq.size)
    except TypeError:
        return _hashed_codes(arr, name)


def _label_array(labels: ArrayLike, name: str) -> np.ndarray:
    """``labels`` as a 1-D array (objects when NumPy would turn mixed types into strings)."""
    if isinstance(labels, (str, bytes)):
        raise InputError(f"{name} must be a sequence of cluster labels, not a string")
    if isinstance(labels, (Mapping, set, frozenset)):
        raise InputError(
            f"{name} must be a sequence of cluster labels (one per item), "
            f"got a {type(labels).__name__}"
        )
    try:
        arr = np.asarray(labels)
    except (ValueError, TypeError) as exc:
        raise InputError(f"{name} must be a one-dimensional sequence of labels ({exc})") from None
    if arr.dtype.kind in "US" and arr.ndim == 1 and not isinstance(labels, np.ndarray):
        seq: Any = labels
        if len(set(map(type, seq))) > 1:
            # NumPy would turn [1, "1", nan] into the strings "1", "1", "nan": keep objects.
            arr = np.fromiter(seq, dtype=object, count=arr.size)
    if arr.ndim != 1:
        raise InputError(
            f"{name} must be one-dimensional (one label per item), got shape {arr.shape}"
        )
    return arr


def _check_present(arr: np.ndarray, name: str) -> None:
    """Every item has a label: no NaN, no None."""
    if arr.dtype.kind == "f" and np.isnan(arr).any():
        k = int(np.flatnonzero(np.isnan(arr))[0])
        raise InputError(f"{name}[{k}] is NaN: every item needs a cluster label")
    if arr.dtype.kind == "O":
        # None, or NaN (the only value unequal to itself); elementwise in C
        none: Any = None
        missing = (np.equal(arr, none) | np.not_equal(arr, arr)).astype(np.bool_)
        if missing.any():
            k = int(np.flatnonzero(missing)[0])
            raise InputError(f"{name}[{k}] is {arr[k]!r}: every item needs a cluster label")


def _hashed_codes(arr: np.ndarray, name: str) -> tuple[np.ndarray, int]:
    """Labels of mutually unorderable types (e.g. 1 and "a"), factorised by hashing. This is
    the only path with a Python-level pass over the items."""
    try:
        index: dict[Hashable, int] = {}
        out = np.fromiter(
            (index.setdefault(v, len(index)) for v in arr.tolist()),
            dtype=np.int64,
            count=arr.size,
        )
    except TypeError as exc:
        raise InputError(f"{name}: cluster labels must be hashable ({exc})") from None
    return out, len(index)


# ---------------------------------------------------------------- the contingency table


@dataclass(frozen=True)
class Table:
    """The non-empty cells of the gold x pred contingency table and its margins."""

    n: int
    gold_sizes: np.ndarray  # int64, one per gold cluster
    pred_sizes: np.ndarray  # int64, one per predicted cluster
    cell_gold: np.ndarray  # int64 gold cluster of each non-empty cell
    cell_pred: np.ndarray  # int64 predicted cluster of each non-empty cell
    cell_count: np.ndarray  # int64 n_ij > 0

    @property
    def identical(self) -> bool:
        """The two partitions are the same up to renaming."""
        k = self.cell_count.size
        return k == self.gold_sizes.size == self.pred_sizes.size


def table(gold: ArrayLike, pred: ArrayLike) -> Table:
    """The contingency table of two hard clusterings of the same items."""
    g, n_gold = codes(gold, "gold")
    p, n_pred = codes(pred, "pred")
    if g.size != p.size:
        raise InputError(
            f"gold and pred must label the same items: {g.size} gold labels, {p.size} predicted"
        )
    n = int(g.size)
    if n == 0:
        raise EmptyInputError("gold and pred are empty: there is no item to evaluate")
    cell_gold, cell_pred, cell_count = _cells(g, p, n_gold, n_pred)
    return Table(
        n=n,
        gold_sizes=np.bincount(g, minlength=n_gold).astype(np.int64),
        pred_sizes=np.bincount(p, minlength=n_pred).astype(np.int64),
        cell_gold=cell_gold.astype(np.int64, copy=False),
        cell_pred=cell_pred.astype(np.int64, copy=False),
        cell_count=cell_count.astype(np.int64, copy=False),
    )


def _cells(
    g: np.ndarray, p: np.ndarray, n_gold: int, n_pred: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(gold cluster, predicted cluster, count) of every non-empty cell: one ``bincount``, or a
    sparse matrix when the table is large."""
    n = int(g.size)
    cells = n_gold * n_pred
    if cells <= max(DENSE_CELLS, 4 * n):
        counts = np.bincount(g * n_pred + p, minlength=cells)
        nz = np.flatnonzero(counts)
        return nz // n_pred, nz % n_pred, counts[nz]
    from scipy import sparse

    m = sparse.coo_matrix((np.ones(n, dtype=np.int64), (g, p)), shape=(n_gold, n_pred))
    m.sum_duplicates()
    return m.row, m.col, m.data


# ---------------------------------------------------------------- arithmetic


def comb2_sum(x: np.ndarray) -> int:
    """Σ C(x, 2) as a Python int."""
    return int((x * (x - 1) // 2).sum(dtype=np.int64))


def ratio(num: float, den: float, zero_division: float) -> float:
    return float(zero_division) if den == 0 else num / den


def harmonic(p: float, r: float, beta: float = 1.0) -> float:
    b2 = beta * beta
    den = b2 * p + r
    return 0.0 if den == 0 else (1 + b2) * p * r / den


def pair_counts_of(tp: int, pred_pairs: int, gold_pairs: int, n: int) -> tuple[int, ...]:
    """(tp, fp, fn, tn) from the pairs together in both, in pred and in gold, over n items."""
    fp, fn = pred_pairs - tp, gold_pairs - tp
    return tp, fp, fn, n * (n - 1) // 2 - tp - fp - fn


def pairwise(c: tuple[int, ...], beta: float, zero_division: float) -> tuple[float, float, float]:
    """Pairwise (precision, recall, F_β) of the pair counts ``c`` = (tp, fp, fn, tn)."""
    tp, fp, fn, _ = c
    p = ratio(tp, tp + fp, zero_division)
    r = ratio(tp, tp + fn, zero_division)
    b2 = beta * beta
    f = ratio((1 + b2) * tp, (1 + b2) * tp + b2 * fn + fp, zero_division)
    return p, r, f


def pair_values(c: tuple[int, ...], pw: tuple[float, float, float]) -> dict[str, float]:
    """The pair counts and pairwise (precision, recall, F1) as named report values."""
    names = ("pair_tp", "pair_fp", "pair_fn", "pair_tn")
    return {
        **dict(zip(names, c, strict=True)),
        "pairwise_precision": pw[0],
        "pairwise_recall": pw[1],
        "pairwise_f1": pw[2],
    }
