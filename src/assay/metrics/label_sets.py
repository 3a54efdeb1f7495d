"""The check that two label sequences speak the same language: when the truth and the
prediction (or two raters) share no label, or hold labels that differ only in spelling
(``1`` and ``1.0``, ``Dog`` and ``dog``), every measure is computed over classes that never
meet and reports a confident 0 without a word. assay does not guess that ``1`` means ``1.0``
(a label is a name); it warns, naming the labels, so the user can fix the files.

The warning is an :class:`~assay.errors.InputWarning`, issued once per public call:
:func:`quiet` silences it for the nested calls of a report, which warns once itself. The
same comparison serves the span types of tagging (:func:`mismatch`) and the categories of
many raters (:func:`spelling_twins`: one set of values, two spellings of one category).
"""

from __future__ import annotations

import inspect
import math
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

import numpy as np

from ..errors import InputWarning, shown

__all__ = [
    "caller_level",
    "catch_label_warning",
    "check_label_sets",
    "mismatch",
    "quiet",
    "spelling_twins",
]

_QUIET: ContextVar[bool] = ContextVar("assay_label_sets_quiet", default=False)
_SINK: ContextVar[list[str] | None] = ContextVar("assay_label_sets_sink", default=None)
_SHOWN = 5  # labels named in a message; the rest are counted
_SEARCH = 10_000  # labels of each side compared for spelling


@contextmanager
def quiet() -> Iterator[None]:
    """No label-set warning inside (the caller has checked and warned once)."""
    token = _QUIET.set(True)
    try:
        yield
    finally:
        _QUIET.reset(token)


@contextmanager
def catch_label_warning() -> Iterator[list[str]]:
    """A list that receives the messages warned inside (still warned: results keep them)."""
    said: list[str] = []
    token = _SINK.set(said)
    try:
        yield said
    finally:
        _SINK.reset(token)


def _spelling(label: Any) -> tuple[str, Any]:
    """The key two labels share when they differ only in spelling: the number a numeric
    string stands for, else the case-folded text without surrounding white space."""
    if isinstance(label, (bool, np.bool_)):
        return ("text", str(label).casefold())
    if isinstance(label, (int, float, np.integer, np.floating)):
        return ("num", float(label))
    text = str(label).strip()
    try:
        value = float(text)
    except ValueError:
        return ("text", text.casefold())
    return ("num", value) if math.isfinite(value) else ("text", text.casefold())


def _names(labels: list[Any]) -> str:
    out = ", ".join(shown(str(x), 30) for x in labels[:_SHOWN])
    return out + (f" and {len(labels) - _SHOWN} more" if len(labels) > _SHOWN else "")


def _respelled(
    a: list[Any], only_a: list[Any], b: list[Any], only_b: list[Any]
) -> list[tuple[Any, Any]]:
    """Pairs (label of a, label of b), one of them in only one sequence, that differ only
    in spelling."""
    keys_a: dict[tuple[str, Any], Any] = {}
    keys_b: dict[tuple[str, Any], Any] = {}
    for x in a:
        keys_a.setdefault(_spelling(x), x)
    for y in b:
        keys_b.setdefault(_spelling(y), y)
    pairs = {(keys_a[k], y) for y in only_b if (k := _spelling(y)) in keys_a}
    pairs |= {(x, keys_b[k]) for x in only_a if (k := _spelling(x)) in keys_b}
    return sorted((p for p in pairs if p[0] != p[1]), key=lambda p: (str(p[0]), str(p[1])))


def mismatch(
    a: list[Any], b: list[Any], names: tuple[str, str], what: str = "label", unit: str = "item"
) -> str | None:
    """The warning for the distinct labels ``a`` and ``b`` of two sequences, or None
    (``what`` the labels are called, ``unit`` what they label: span types, spans)."""
    sa, sb = set(a), set(b)
    only_a = [x for x in a if x not in sb]
    only_b = [x for x in b if x not in sa]
    if not only_a and not only_b:
        return None
    # Spellings are compared over a bounded number of labels (a float() per label): enough
    # to name the first ones, and a count that says "at least" beyond.
    cut = max(len(a), len(b)) > _SEARCH
    pairs = _respelled(a[:_SEARCH], only_a[:_SEARCH], b[:_SEARCH], only_b[:_SEARCH])
    na, nb = names
    if pairs:
        shown_pairs = ", ".join(
            f"{shown(str(x), 30)} and {shown(str(y), 30)}" for x, y in pairs[:_SHOWN]
        )
        more = f" and {len(pairs) - _SHOWN} more" if len(pairs) > _SHOWN else ""
        return (
            f"{'at least ' if cut else ''}{len(pairs)} {what}(s) of {na} and {nb} differ "
            "only in spelling and count as "
            f"different classes: {shown_pairs}{more} ({na} first); write the {what}s the same "
            f"way in both ({what}s are names{': 1 and 1.0 are' if what == 'label' else ','} "
            "not matched)"
        )
    if only_a and only_b and len(only_a) == len(sa):
        return (
            f"{na} and {nb} share no {what} ({na}: {_names(only_a)}; {nb}: {_names(only_b)}): "
            f"no {unit} can be right; check that they are the right pair and spelled alike"
        )
    return None


def spelling_twins(values: list[Any], where: str = "values") -> str | None:
    """The warning for distinct values of one set of ratings that differ only in spelling
    (``yes`` and ``Yes``, ``1`` and ``1.0``): they are different categories, and raters
    who meant the same disagree on every such unit. None when there are none."""
    first: dict[tuple[str, Any], Any] = {}
    twins = []
    for v in values[:_SEARCH]:
        k = _spelling(v)
        if k in first:
            twins.append((first[k], v))
        else:
            first[k] = v
    if not twins:
        return None
    pairs = ", ".join(f"{shown(str(a), 30)} and {shown(str(b), 30)}" for a, b in twins[:_SHOWN])
    more = f" and {len(twins) - _SHOWN} more" if len(twins) > _SHOWN else ""
    return (
        f"{len(twins)} pair(s) of {where} differ only in spelling and count as "
        f"different categories: {pairs}{more}; write each value one way (values are names)"
    )


def caller_level() -> int:
    """The ``stacklevel`` of the first frame outside assay, seen from the function that
    calls this one (public measures reach the check at different depths)."""
    here = inspect.currentframe()
    frame = here.f_back if here is not None else None
    level = 1
    while frame is not None and frame.f_globals.get("__name__", "").startswith("assay."):
        frame = frame.f_back
        level += 1
    return level


def check_label_sets(
    uniq: np.ndarray, inv: np.ndarray, n: int, names: tuple[str, str] = ("y_true", "y_pred")
) -> str | None:
    """Warn (unless :func:`quiet`) when the two sequences whose distinct values are ``uniq``
    and codes ``inv`` (the first ``n`` the first sequence's, the next ``n`` the second's)
    share no label or differ only in spelling; the message, or None."""
    if _QUIET.get():
        return None
    codes_a = np.unique(inv[:n])
    codes_b = np.unique(inv[n : 2 * n])
    message = mismatch(
        [uniq[i].item() if hasattr(uniq[i], "item") else uniq[i] for i in codes_a],
        [uniq[i].item() if hasattr(uniq[i], "item") else uniq[i] for i in codes_b],
        names,
    )
    if message is not None:
        sink = _SINK.get()
        if sink is not None:
            sink.append(message)
        warnings.warn(message, InputWarning, stacklevel=caller_level())
    return message
