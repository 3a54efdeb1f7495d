"""ndeval's qrels and run files, read as ndeval reads them, into columns.

Two paths give the same columns and the same errors: a per-line one that follows ndeval's C
parsing literally, and a columnar one (whitespace split and sorting in Arrow/NumPy; ndeval's
number parsing applied once per distinct field text) for the usual files. The columnar path
declines, and the per-line one runs, for files that are not plain ASCII or hold the ASCII
separators 0x1c-0x1f (Python's ``str.split`` splits on them, Arrow does not), for any
malformed line (the per-line path names it), and for ``-traditional`` runs with NaN scores
(whose order only the per-line sort defines).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from .._arrow import from_np, to_np
from ..errors import InputError, ParseError

_LARGE_ENOUGH = 100000
_SEPARATORS = (b"\x1c", b"\x1d", b"\x1e", b"\x1f")


def natural(text: str) -> int:
    """ndeval's naturalNumber: digits only, at most about 10^6; -1 otherwise."""
    if not text:
        return -1
    value = 0
    for ch in text:
        if not "0" <= ch <= "9":
            return -1
        if value > _LARGE_ENOUGH:
            return -1
        value = 10 * value + ord(ch) - 48
    return value


def topic_number(text: str) -> int:
    """ndeval's parseTopic: a task prefix up to a ``-`` is skipped (``wt09-1`` is 1)."""
    if text[:1].isdigit():
        return natural(text)
    cut = text.find("-")
    return natural(text[cut + 1 :]) if cut >= 0 else -1


def _score(text: str) -> float:
    try:
        return float(text)
    except ValueError:
        return 0.0


@dataclass(frozen=True)
class Judgments:
    """A qrels file's judgments, one entry per line (judgments above 1 already 1)."""

    topic: np.ndarray
    subtopic: np.ndarray
    doc: pa.Array
    judgment: np.ndarray


@dataclass(frozen=True)
class Results:
    """A run's results in ndeval's order (by topic, then rank), checked and cut."""

    topic: np.ndarray
    doc: pa.Array
    rank: np.ndarray


def _read(path: str) -> bytes:
    try:
        with open(path, "rb") as fh:
            return fh.read()
    except OSError as exc:
        raise InputError(f"cannot open {path!r}: {exc.strerror}") from None


def _lines(data: bytes) -> list[str]:
    """The lines as Python's text (bytes that are not UTF-8 kept as surrogate escapes)."""
    lines = data.decode("utf-8", errors="surrogateescape").split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return [line[:-1] if line.endswith("\r") else line for line in lines]


def _fields(data: bytes, wanted: int) -> list[pa.Array] | None:
    """The first ``wanted`` whitespace-separated fields of every line, or None when the file
    is not plain ASCII or a line has fewer fields."""
    if not data.isascii() or any(s in data for s in _SEPARATORS):
        return None
    # one string per line, newline included (whitespace, as a trailing carriage return is)
    ends = np.flatnonzero(np.frombuffer(data, dtype=np.uint8) == 10) + 1
    if not len(ends) or ends[-1] != len(data):
        ends = np.append(ends, len(data))
    offsets = np.concatenate(([0], ends)).astype(np.int32 if len(data) < 2**31 else np.int64)
    kind = pa.string() if offsets.dtype == np.int32 else pa.large_string()
    lines = pa.Array.from_buffers(
        kind, len(ends), [None, pa.py_buffer(offsets), pa.py_buffer(data)]
    )
    split = pc.ascii_split_whitespace(lines)
    if pc.min(pc.list_value_length(split)).as_py() < wanted:
        return None
    # field k of every line: a gather from the flat fields (faster than list_element)
    first = to_np(split.offsets)[:-1]
    return [split.values.take(from_np(first + k)).cast(pa.string()) for k in range(wanted)]


def _mapped(
    column: pa.Array, parse: Callable[[str], int] | Callable[[str], float], dtype: type
) -> np.ndarray:
    """``parse`` of every entry, called once per distinct text."""
    encoded = pc.dictionary_encode(column)
    values: np.ndarray = np.array([parse(t) for t in encoded.dictionary.to_pylist()], dtype=dtype)
    return values[to_np(encoded.indices)] if len(values) else np.zeros(0, dtype=dtype)


def read_qrels(path: str) -> Judgments:
    """ndeval's qrels: at least 4 fields, natural numbers; judgments above 1 count as 1."""
    data = _read(path)
    if not data:
        raise InputError("qrel file is empty", source=path)
    fields = _fields(data, 4)
    if fields is not None:
        topic = _mapped(fields[0], natural, np.int64)
        sub = _mapped(fields[1], natural, np.int64)
        judgment = _mapped(fields[3], natural, np.int64)
        if min(topic.min(), sub.min(), judgment.min()) >= 0:
            return Judgments(topic, sub, fields[2], np.minimum(judgment, 1))
    return _read_qrels_lines(_lines(data), path)


def _read_qrels_lines(lines: list[str], path: str) -> Judgments:
    rows = []
    for n, line in enumerate(lines, start=1):
        a = line.split()[:4]
        if len(a) != 4 or min(natural(a[0]), natural(a[1]), natural(a[3])) < 0:
            raise ParseError(
                "expected 'topic subtopic docno judgment' (natural numbers)", source=path, line=n
            )
        rows.append((natural(a[0]), natural(a[1]), a[2], min(natural(a[3]), 1)))
    t, s, d, j = zip(*rows, strict=True)
    return Judgments(
        np.array(t, np.int64), np.array(s, np.int64), _strings(d), np.array(j, np.int64)
    )


def _strings(values: tuple[str, ...] | list[str]) -> pa.Array:
    # surrogate escapes (bytes that are not UTF-8) cannot enter Arrow: keep the bytes
    try:
        return pa.array(values, pa.string())
    except (UnicodeEncodeError, pa.ArrowException):
        raw = [v.encode("utf-8", "surrogateescape") for v in values]
        return pa.array(raw, pa.binary())


def read_run(path: str, traditional: bool, depth: int) -> tuple[Results, str]:
    """ndeval's run: ranked by the rank column (or ``traditional``: by score, then docno
    descending), checked for repeated ranks and docnos, cut at ``depth`` (0: all)."""
    data = _read(path)
    if not data:
        raise InputError("run file is empty", source=path)
    fields = _fields(data, 6)
    found = None
    if fields is not None:
        topic = _mapped(fields[0], topic_number, np.int64)
        rank = _mapped(fields[3], natural, np.int64)
        if min(topic.min(), rank.min()) >= 0:
            score = _mapped(fields[4], _score, np.float64) if traditional else None
            if score is None or not np.isnan(score).any():
                found = (topic, fields[2], rank, score)
    if found is None:
        return _read_run_lines(_lines(data), path, traditional, depth)
    runid = _lines(data[: data.find(b"\n") + 1 or len(data)])[0].split()[5]
    topic, doc, rank, score = found
    if score is not None:
        # ndeval's traditional order: by topic, score descending, docno descending (bytes);
        # equal keys keep the file's order (np.lexsort is stable)
        by_doc = to_np(pc.rank(doc, sort_keys="ascending", tiebreaker="dense"))
        order = np.lexsort((-by_doc, -score, topic))
        topic, doc = topic[order], doc.take(from_np(order))
        rank = _positions(topic) + 1
    return _checked(topic, doc, rank, path, depth), runid


def _positions(topic: np.ndarray) -> np.ndarray:
    """Each entry's position within its run of equal (sorted) topics."""
    start = np.ones(len(topic), dtype=bool)
    start[1:] = topic[1:] != topic[:-1]
    first = np.flatnonzero(start)
    return np.arange(len(topic)) - np.repeat(first, np.diff(np.append(first, len(topic))))


def _checked(topic: np.ndarray, doc: pa.Array, rank: np.ndarray, path: str, depth: int) -> Results:
    order = np.lexsort((rank, topic))
    topic, rank, doc = topic[order], rank[order], doc.take(from_np(order))
    same = (topic[1:] == topic[:-1]) & (rank[1:] == rank[:-1])
    if same.any():
        at = int(np.flatnonzero(same)[0]) + 1
        raise InputError(f"duplicate rank ({rank[at]}) for topic {topic[at]}", source=path)
    if depth > 0:
        keep = _positions(topic) < depth
        topic, rank, doc = topic[keep], rank[keep], doc.filter(from_np(keep))
    codes = to_np(pc.dictionary_encode(doc).indices).astype(np.int64)
    key = topic * (int(codes.max(initial=0)) + 1) + codes
    by_key = np.lexsort((np.arange(len(key)), key))
    again = by_key[1:][key[by_key][1:] == key[by_key][:-1]]
    if len(again):
        at = int(again.min())  # the first repeat in ndeval's order
        shown = doc[at].as_py()
        text = shown.decode("utf-8", "surrogateescape") if isinstance(shown, bytes) else shown
        raise InputError(f"duplicate docno ({text}) for topic {topic[at]}", source=path)
    return Results(topic, doc, rank)


def _read_run_lines(
    lines: list[str], path: str, traditional: bool, depth: int
) -> tuple[Results, str]:
    rows = []
    for n, line in enumerate(lines, start=1):
        a = line.split()[:6]
        if len(a) != 6 or topic_number(a[0]) < 0 or natural(a[3]) < 0:
            raise ParseError(
                "expected 'topic Q0 docno rank score runid' (natural numbers)", source=path, line=n
            )
        rows.append((topic_number(a[0]), a[2], natural(a[3]), _score(a[4])))
    if traditional:
        ordered = sorted(rows, key=lambda r: r[1].encode("utf-8", "surrogateescape"), reverse=True)
        ordered = sorted(ordered, key=lambda r: (r[0], -r[3]))
        at, last, rows = 0, -1, []
        for t, d, _, s in ordered:
            at = at + 1 if t == last else 1
            last = t
            rows.append((t, d, at, s))
    # ndeval's checks as it makes them, one result at a time (the columnar path's reference)
    rows.sort(key=lambda r: (r[0], r[2]))
    for before, after in itertools.pairwise(rows):
        if before[0] == after[0] and before[2] == after[2]:
            raise InputError(f"duplicate rank ({after[2]}) for topic {after[0]}", source=path)
    if depth > 0:
        seen: dict[int, int] = {}
        kept = []
        for r in rows:
            seen[r[0]] = seen.get(r[0], 0) + 1
            if seen[r[0]] <= depth:
                kept.append(r)
        rows = kept
    docs = set()
    for r in rows:
        if (r[0], r[1]) in docs:
            raise InputError(f"duplicate docno ({r[1]}) for topic {r[0]}", source=path)
        docs.add((r[0], r[1]))
    topic = np.array([r[0] for r in rows], np.int64)
    ranks = np.array([r[2] for r in rows], np.int64)
    return Results(topic, _strings([r[1] for r in rows]), ranks), lines[0].split()[5]


__all__ = ["Judgments", "Results", "natural", "read_qrels", "read_run", "topic_number"]
