"""Pairwise comparisons: :class:`Comparisons`, rows ``(left, right, winner)`` with the winner
``left``, ``right`` or ``tie`` (evalica's format; Chatbot Arena's ``model_a``/``model_b``
read the same way with ``left="model_a", right="model_b"`` and a ``winners=`` mapping), and
:func:`read_comparisons`."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
from numpy.typing import NDArray

from .._arrow import to_np
from ..errors import InputError, OptionError, shown
from ._table import Columns, at, encode, first_row, id_strings, read_columns, shown_values, where
from .options import Outcome

__all__ = ["WINNERS", "Comparisons", "read_comparisons"]

#: The winner values and their codes: 0 the left item won, 1 the right item, 2 a tie.
WINNERS: tuple[str, str, str] = ("left", "right", "tie")


@dataclass(frozen=True, eq=False, repr=False)
class Comparisons:
    """Pairwise comparisons of items, in input order.

    ``items``: the item names in order of first appearance (row by row, left before right);
    ``left``/``right``: item codes into ``items``; ``winner``: 0 (left won), 1 (right won) or
    2 (tie); ``weights``: one non-negative weight per comparison, or None (each counts 1);
    ``source``: where the rows came from.

    Parameters
    ----------
    items : tuple of str
        The distinct items.
    left, right : numpy.ndarray
        The two items of each comparison, as codes into ``items`` (int64).
    winner : numpy.ndarray
        The outcome of each comparison: 0 left won, 1 right won, 2 tie (int8).
    weights : numpy.ndarray, optional
        One non-negative weight per comparison (None: each counts 1).
    source : str
        Where the rows came from, for messages and provenance.

    Examples
    --------
    >>> from assay.judgments import Comparisons
    >>> c = Comparisons.read({"left": ["a", "b"], "right": ["b", "c"], "winner": ["left", "tie"]})
    >>> c
    Comparisons('<columns>': 2 comparisons of 3 items)
    >>> c.items, c.winner.tolist()
    (('a', 'b', 'c'), [0, 2])
    """

    items: tuple[str, ...]
    left: NDArray[np.int64]
    right: NDArray[np.int64]
    winner: NDArray[np.int8]
    weights: NDArray[np.float64] | None = None
    source: str = "<columns>"

    def __len__(self) -> int:
        return len(self.left)

    def __repr__(self) -> str:
        return f"Comparisons({shown(self.source)}: {len(self)} comparisons of {self.n_items} items)"

    @property
    def n_items(self) -> int:
        """The number of distinct items."""
        return len(self.items)

    def item_counts(self) -> dict[str, NDArray[np.float64]]:
        """Per item (in ``items`` order), the (weighted) numbers of ``comparisons``, ``wins``,
        ``losses`` and ``ties``.

        Returns
        -------
        dict of str to numpy.ndarray
            ``comparisons``, ``wins``, ``losses`` and ``ties``, each of length ``n_items``.

        Examples
        --------
        >>> from assay.judgments import Comparisons
        >>> c = Comparisons.read({"left": ["a", "a"], "right": ["b", "c"], "winner": ["left", "tie"]})
        >>> {k: v.tolist() for k, v in c.item_counts().items()}
        {'comparisons': [2.0, 1.0, 1.0], 'wins': [1.0, 0.0, 0.0], 'losses': [0.0, 1.0, 0.0], 'ties': [1.0, 0.0, 1.0]}
        """
        n = self.n_items
        w = np.ones(len(self)) if self.weights is None else self.weights
        left_won, right_won, tied = (self.winner == 0), (self.winner == 1), (self.winner == 2)

        def count(codes: NDArray[np.int64], mask: NDArray[np.bool_]) -> NDArray[np.float64]:
            return np.bincount(codes[mask], weights=w[mask], minlength=n).astype(np.float64)

        wins = count(self.left, left_won) + count(self.right, right_won)
        losses = count(self.right, left_won) + count(self.left, right_won)
        ties = count(self.left, tied) + count(self.right, tied)
        return {"comparisons": wins + losses + ties, "wins": wins, "losses": losses, "ties": ties}

    @classmethod
    def read(
        cls,
        data: Any,  # Any: a path, a DataFrame, a pyarrow Table or a mapping of columns
        *,
        format: str | None = None,
        left: str = "left",
        right: str = "right",
        winner: str = "winner",
        weight: str | None = None,
        winners: Mapping[str, Outcome] | None = None,
    ) -> Comparisons:
        """Read comparisons from a file (CSV/TSV, Parquet, JSON Lines), a pandas or polars
        DataFrame, a pyarrow Table or a mapping of columns.

        Parameters
        ----------
        data : str, PathLike, DataFrame, pyarrow.Table or mapping
            The rows; other columns than the named ones are ignored.
        format : {"csv", "tsv", "parquet", "jsonl"}, optional
            The file's format (default: from its extension).
        left, right, winner : str
            The columns holding the two items and the outcome.
        weight : str, optional
            A column of non-negative weights (default: every comparison counts 1).
        winners : mapping of str to {"left", "right", "tie"}, optional
            What each winner value means (default: the values ``left``, ``right`` and
            ``tie``). Chatbot Arena's: ``{"model_a": "left", "model_b": "right", "tie":
            "tie", "tie (bothbad)": "tie"}``.

        Returns
        -------
        Comparisons
            The comparisons in input order.

        Raises
        ------
        InputError
            Naming the file and line (or row): a missing column, an empty or missing item, an
            item compared with itself, a winner value that is not one of the known ones, a
            negative or non-finite weight.

        Examples
        --------
        >>> from assay.judgments import Comparisons
        >>> _ = open("example_votes.csv", "w").write("left,right,winner\\nx,y,right\\ny,z,tie\\n")
        >>> Comparisons.read("example_votes.csv")
        Comparisons('example_votes.csv': 2 comparisons of 3 items)
        """
        outcomes = _outcomes(winners)
        cols = read_columns(
            data, {"left": left, "right": right, "winner": winner, "weight": weight}, format=format
        )
        names_left = id_strings(cols, "left", "left item")
        names_right = id_strings(cols, "right", "right item")
        n = len(cols)
        both = pa.concat_arrays([names_left, names_right])
        # Interleaved (row by row, left before right): items are numbered in order of first
        # appearance, the order Elo's and the tables' ties fall back on.
        order = np.empty(2 * n, dtype=np.int64)
        order[0::2] = np.arange(n)
        order[1::2] = np.arange(n, 2 * n)
        codes, items = encode(both.take(pa.array(order)))
        left_codes, right_codes = codes[0::2].copy(), codes[1::2].copy()
        same = left_codes == right_codes
        if same.any():
            i = first_row(same)
            raise InputError(
                f"item {shown(items[int(left_codes[i])])} is compared with itself{at(cols, i)}",
                **where(cols, i),
            )
        return cls(
            items=items,
            left=left_codes,
            right=right_codes,
            winner=_winner_codes(cols, outcomes),
            weights=None if weight is None else _weights(cols),
            source=cols.source,
        )


def _outcomes(winners: Mapping[str, Outcome] | None) -> dict[str, int]:
    if winners is None:
        return {name: code for code, name in enumerate(WINNERS)}
    if not isinstance(winners, Mapping) or not winners:
        raise OptionError("winners= must map winner values to left, right or tie", option="winners")
    out: dict[str, int] = {}
    for value, meaning in winners.items():
        if meaning not in WINNERS:
            raise OptionError(
                f"winners= maps {value!r} to {meaning!r}; expected left, right or tie",
                option="winners",
            )
        out[str(value)] = WINNERS.index(meaning)
    return out


def _winner_codes(cols: Columns, outcomes: dict[str, int]) -> NDArray[np.int8]:
    values = id_strings(cols, "winner", "winner")
    known = pa.array(list(outcomes), pa.string())
    found = pc.index_in(values, value_set=known)
    if found.null_count:
        i = first_row(found.is_null())
        raise InputError(
            f"winner {shown(values[i].as_py())}{at(cols, i)} is not one of "
            f"{shown_values(tuple(outcomes))}",
            **where(cols, i),
        )
    codes = np.array(list(outcomes.values()), dtype=np.int8)
    return codes[to_np(found).astype(np.int64)]


def _weights(cols: Columns) -> NDArray[np.float64]:
    arr = cols.arrays["weight"]
    if pa.types.is_string(arr.type) or pa.types.is_large_string(arr.type):
        try:
            arr = pc.cast(arr, pa.float64())
        except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
            for i, text in enumerate(arr.to_pylist()):
                try:
                    float(text)
                except (TypeError, ValueError):
                    raise InputError(
                        f"weight {shown(str(text))}{at(cols, i)} is not a number", **where(cols, i)
                    ) from None
            raise
    if arr.null_count:
        i = first_row(arr.is_null())
        raise InputError(f"the weight is missing{at(cols, i)}", **where(cols, i))
    try:
        w = to_np(pc.cast(arr, pa.float64()))
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
        raise InputError(
            f"the weight column must hold numbers, got {arr.type}", source=cols.source
        ) from None
    bad = ~np.isfinite(w) | (w < 0)
    if bad.any():
        i = first_row(bad)
        raise InputError(
            f"weight {float(w[i])!r}{at(cols, i)} is not a finite non-negative number",
            **where(cols, i),
        )
    return np.ascontiguousarray(w, dtype=np.float64)


def read_comparisons(
    data: Any,  # Any: a path, a DataFrame, a pyarrow Table or a mapping of columns
    *,
    format: str | None = None,
    left: str = "left",
    right: str = "right",
    winner: str = "winner",
    weight: str | None = None,
    winners: Mapping[str, Outcome] | None = None,
) -> Comparisons:
    """Read pairwise comparisons: :meth:`Comparisons.read`.

    Parameters
    ----------
    data : str, PathLike, DataFrame, pyarrow.Table or mapping
        The rows.
    format, left, right, winner, weight, winners
        As :meth:`Comparisons.read`.

    Returns
    -------
    Comparisons
        The comparisons in input order.

    Examples
    --------
    >>> from assay.judgments import read_comparisons
    >>> read_comparisons({"left": [1, 2], "right": [2, 3], "winner": ["left", "right"]}).items
    ('1', '2', '3')
    """
    return Comparisons.read(
        data, format=format, left=left, right=right, winner=winner, weight=weight, winners=winners
    )


def as_comparisons(data: Any) -> Comparisons:  # Any: Comparisons or what read takes
    """``data`` if it is :class:`Comparisons`, else :func:`read_comparisons` of it."""
    return data if isinstance(data, Comparisons) else read_comparisons(data)
