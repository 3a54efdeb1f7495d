"""Id and value columns: exact ids as Arrow strings, integer codes, CSR offsets, and the
checks that name the offending row or line.

Ids are kept exactly: query ids become integer codes into a dictionary of the distinct ids in
byte order; document ids become integer codes into a dictionary of the distinct documents
(Arrow's ``dictionary_encode``; ids are compared by value, never by hash). Integer ids from
data frames or dicts are converted with ``str``, so that tie breaking by docno (trec_eval:
byte order) means the same thing whatever the source.
"""

from __future__ import annotations

import itertools
import threading
from typing import TYPE_CHECKING, Any, TypeAlias

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from .._arrow import from_np, to_np
from .._parallel import ordered_map
from ..errors import DuplicateError, InputError

if TYPE_CHECKING:
    from ..io.rows import RowLines

#: Where rows are in their file: 1-based line numbers (TREC), a lazy map (CSV, JSON Lines),
#: or None (rows are named by number).
Lines: TypeAlias = "np.ndarray | RowLines | None"


def as_array(values: Any) -> pa.Array:
    if isinstance(values, pa.ChunkedArray):
        return values.combine_chunks() if values.num_chunks != 1 else values.chunk(0)
    return values


def first_true(mask: Any) -> int:
    """Index of the first true value of a boolean Arrow or NumPy array."""
    if isinstance(mask, pa.ChunkedArray | pa.Array):
        mask = to_np(mask, fill=False)
    return int(np.flatnonzero(np.asarray(mask, dtype=bool))[0])


def as_ids(values: Any, what: str, source: str | None, lines: Lines = None) -> pa.Array:
    """Any sequence/array of ids -> a pyarrow string array (no nulls, no empty ids)."""
    try:
        if isinstance(values, pa.ChunkedArray | pa.Array):
            arr = as_array(values)
        else:
            np_values = np.asarray(values)
            if np_values.size == 0:
                arr = pa.array([], pa.string())
            elif np_values.dtype.kind in "iu":
                arr = from_np(np_values.astype(np.int64))
            elif np_values.dtype.kind == "U" and np_values.ndim == 1:
                arr = _ascii_unicode(np_values)
                if arr is None:
                    arr = pa.array(np_values)
            else:
                arr = pa.array(np_values.tolist() if np_values.dtype == object else np_values)
    except (pa.ArrowInvalid, pa.ArrowTypeError, ValueError) as exc:
        raise InputError(
            f"{what} ids must be strings or integers ({str(exc).splitlines()[0]})", source=source
        ) from None
    if pa.types.is_dictionary(arr.type):
        if (
            pa.types.is_string(arr.type.value_type)
            and arr.null_count == 0
            and arr.dictionary.null_count == 0
            and len(arr.dictionary)
            and pc.min(pc.binary_length(arr.dictionary)).as_py() > 0
            and pc.count_distinct(arr.dictionary).as_py() == len(arr.dictionary)
        ):
            return arr  # distinct, valid ids with codes: factorised without re-hashing
        arr = arr.cast(arr.type.value_type)
    if arr.null_count:
        i = first_true(arr.is_null())
        raise InputError(
            f"{what} id is missing (null) at {row_label(lines, i)}", **locate(source, lines, i)
        )
    if pa.types.is_binary(arr.type) or pa.types.is_large_binary(arr.type):
        try:
            arr = arr.cast(pa.string())
        except pa.ArrowInvalid:
            raise InputError(
                f"{what} ids are bytes that are not valid UTF-8", source=source
            ) from None
    if pa.types.is_large_string(arr.type) or pa.types.is_string_view(arr.type):
        arr = arr.cast(pa.string())
    elif not pa.types.is_string(arr.type):
        if not pa.types.is_integer(arr.type):
            raise InputError(
                f"{what} ids must be strings or integers, got {arr.type}", source=source
            )
        arr = pc.cast(arr, pa.string())
    if len(arr) and pc.min(pc.binary_length(arr)).as_py() == 0:
        i = first_true(pc.equal(pc.binary_length(arr), 0))
        raise InputError(f"{what} id is empty at {row_label(lines, i)}", **locate(source, lines, i))
    return arr


def _ascii_unicode(values: np.ndarray) -> pa.Array | None:
    """A 1-D NumPy ``<U`` array of ASCII text as an Arrow string array, built from its code
    points without Python strings (Arrow's own conversion decodes UTF-32 row by row: 1M ids
    81 ms against 48 ms); None when some text is not ASCII or holds a NUL inside (Arrow's
    conversion, which that leaves to, ends such text at the NUL). Lengths follow NumPy, which
    drops trailing NUL code points."""
    n, width = len(values), values.dtype.itemsize // 4
    if n == 0 or width == 0:
        return None
    points = np.ascontiguousarray(values).view(np.uint32).reshape(n, width)
    if int(points.max()) >= 128:
        return None
    lengths = np.strings.str_len(values)
    data = points[np.arange(width) < lengths[:, None]].astype(np.uint8)
    if not data.all():  # an interior NUL: Arrow's conversion ends the text there
        return None
    offsets = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(lengths, out=offsets[1:])
    if offsets[-1] >= _INT32.max:
        return None
    offsets32 = offsets.astype(np.int32)
    return pa.Array.from_buffers(
        pa.string(), n, [None, pa.py_buffer(offsets32), pa.py_buffer(data)]
    )


def run_heads(values: Any) -> np.ndarray | None:
    """The first row of every run of equal adjacent values of a 1-D NumPy text column (``<U``,
    StringDType or object), or None for any other input or when the runs are not few (under
    one row in four): a query column holds each query's rows together, so its ids need
    converting and hashing once per run, not once per row."""
    if isinstance(values, pa.Array | pa.ChunkedArray) or not isinstance(values, np.ndarray):
        return None
    if values.ndim != 1 or values.dtype.kind not in "UTO" or len(values) < 64:
        return None
    try:
        change = np.asarray(values[1:] != values[:-1], dtype=bool)
    except Exception:  # why: any object whose comparison fails takes the row path
        return None
    if change.shape != (len(values) - 1,):
        return None
    heads = np.concatenate([[0], np.flatnonzero(change) + 1])
    return heads if 4 * len(heads) <= len(values) else None


def factorize_sorted(arr: pa.Array) -> tuple[np.ndarray, pa.Array]:
    """Codes into the distinct values sorted in byte order (strcmp order, as trec_eval)."""
    enc = arr if pa.types.is_dictionary(arr.type) else pc.dictionary_encode(arr)
    dictionary = enc.dictionary
    order = to_np(pc.sort_indices(dictionary))
    rank = np.empty(len(order), dtype=np.int32)
    rank[order] = np.arange(len(order), dtype=np.int32)
    codes = rank[to_np(enc.indices)]
    return codes, dictionary.take(from_np(order))


def factorize(arr: pa.Array) -> tuple[np.ndarray, pa.Array]:
    enc = pc.dictionary_encode(arr)
    return to_np(enc.indices).astype(np.int32, copy=False), enc.dictionary


def csr_offsets(codes_sorted: np.ndarray, n_groups: int) -> np.ndarray:
    # A binary search per group over the sorted codes: a bincount reads every row (and
    # widens it to 64 bits first), 21 ms at 1M rows against well under 1 ms.
    small = codes_sorted.dtype == np.int32 and n_groups < _INT32.max
    bounds = np.arange(n_groups + 1, dtype=np.int32 if small else np.int64)
    return np.searchsorted(codes_sorted, bounds, side="left").astype(np.int64)


def line_of(lines: Lines, row: int) -> int | None:
    """The 1-based line of ``row`` in its file, when known."""
    if lines is None:
        return None
    line = lines[row]
    return None if line is None else int(line)


def locate(source: str | None, lines: Lines, row: int) -> dict[str, Any]:
    return {"source": source, "line": line_of(lines, row)}


def row_label(lines: Lines, row: int) -> str:
    line = line_of(lines, row)
    return f"line {line}" if line is not None else f"row {row + 1}"


def repeats_a_pair(q: np.ndarray, d: np.ndarray, n_docs: int) -> bool:
    """Whether some (query code, document code) pair occurs twice, ``d`` below ``n_docs``."""
    if len(d) == 0:
        return False
    # Only documents that occur more than once can repeat a pair: filter by a bincount first,
    # then compare exact (query, doc) codes of those rows.
    repeated = np.bincount(d, minlength=n_docs)[d] > 1
    if not repeated.any():
        return False
    rows = np.flatnonzero(repeated)
    keys = np.sort(q[rows].astype(np.int64) * max(n_docs, 1) + d[rows])
    return bool((keys[1:] == keys[:-1]).any())


def check_duplicates(
    q: np.ndarray,
    d: np.ndarray,
    n_docs: int,
    what: str,
    doc_dict: pa.Array,
    query_dict: pa.Array,
    source: str | None,
    lines: Lines,
) -> None:
    """Raise on a repeated (query, document) pair, naming the earliest repeat in the input
    and where that pair first occurred."""
    if not repeats_a_pair(q, d, n_docs):
        return
    key = q.astype(np.int64) * max(n_docs, 1) + d
    order = np.argsort(key, kind="stable")  # stable: input order within equal keys
    ks = key[order]
    dup = np.flatnonzero(ks[1:] == ks[:-1])  # order[j + 1] repeats order[j]
    j = int(dup[np.argmin(order[dup + 1])])
    second = int(order[j + 1])
    first = int(order[np.searchsorted(ks, ks[j], side="left")])
    query = query_dict[int(q[second])].as_py()
    doc = doc_dict[int(d[second])].as_py()
    where = "" if line_of(lines, second) is not None else f" at {row_label(lines, second)}"
    raise DuplicateError(
        f"duplicate {what} entry for query {query!r}, document {doc!r}{where} "
        f"(first at {row_label(lines, first)}); {len(dup)} repeated row(s) in all — "
        "each (query, document) pair must appear once",
        **locate(source, lines, second),
    )


#: Rows whose document ids are encoded together (a qrels' repeated-pair check, a streamed
#: block's join). Measured on a 7M-row run (benchmarks/RESULTS.md): dictionary-encoding its
#: ids 30,000 rows at a time takes 0.27 s, 500,000 rows at a time 0.70 s (the hash table no
#: longer fits in cache).
GROUP_ROWS = 1 << 15


def query_groups(offsets: np.ndarray, rows: int) -> list[tuple[int, int]]:
    """Consecutive query ranges ``[a, b)`` (CSR ``offsets``) of about ``rows`` rows: a query
    starts a new group when it starts in a new window of ``rows`` rows, so a query longer
    than that is a group of its own."""
    window = offsets[:-1] // rows
    cuts = np.flatnonzero(window[1:] != window[:-1]) + 1
    return list(itertools.pairwise([0, *cuts.tolist(), len(offsets) - 1]))


def has_repeated_pair(offsets: np.ndarray, docs: pa.Array, rows: np.ndarray | None = None) -> bool:
    """Whether some query (rows ``offsets[q]:offsets[q + 1]``) holds a document twice. The ids
    of about :data:`GROUP_ROWS` rows of whole queries are encoded at a time, exactly, the
    groups on a few threads (Arrow's hashing releases the GIL). With ``rows``, grouped row
    ``i`` is ``docs[rows[i]]`` (the documents stay in input order)."""

    def repeats(group: tuple[int, int]) -> bool:
        a, b = group
        r0, r1 = int(offsets[a]), int(offsets[b])
        if r1 - r0 < 2:
            return False
        ids = docs.slice(r0, r1 - r0) if rows is None else docs.take(from_np(rows[r0:r1]))
        codes = to_np(pc.dictionary_encode(ids).indices).astype(np.int64)
        query = np.repeat(np.arange(b - a, dtype=np.int64), np.diff(offsets[a : b + 1]))
        return repeats_a_pair(query, codes, int(codes.max()) + 1)

    groups = query_groups(offsets, GROUP_ROWS)
    return any(ordered_map(repeats, groups, workers=group_workers(len(groups))))


def group_workers(n_groups: int) -> int | None:
    """Threads for work split into ``n_groups`` groups of queries: the default count on the
    main thread, one (no pool) for a couple of groups or on a worker thread already (a
    streamed run's blocks are on a pool of their own)."""
    if n_groups <= 2 or threading.current_thread() is not threading.main_thread():
        return 1
    return None


_INT32 = np.iinfo(np.int32)


def numeric_column(
    values: Any, what: str, kind: str, source: str | None, lines: Lines
) -> np.ndarray:
    """A column of numbers as NumPy: nulls and text that does not parse are errors that name
    the row (or line)."""
    if isinstance(values, pa.ChunkedArray | pa.Array):
        arr_pa = as_array(values)
        if arr_pa.null_count:
            i = first_true(arr_pa.is_null())
            raise InputError(
                f"{what} is missing (null) at {row_label(lines, i)}", **locate(source, lines, i)
            )
        if pa.types.is_string(arr_pa.type) or pa.types.is_large_string(arr_pa.type):
            from ..io.text import HEXADECIMAL, first_hexadecimal, first_uncastable, without_plus

            target = pa.int64() if kind == "an integer" else pa.float64()
            hexadecimal = first_hexadecimal(arr_pa) if kind == "an integer" else None
            if hexadecimal is not None:
                raise InputError(
                    f"{what} {arr_pa[hexadecimal].as_py()!r} {HEXADECIMAL} at "
                    f"{row_label(lines, hexadecimal)}",
                    **locate(source, lines, hexadecimal),
                )
            if kind == "an integer":
                arr_pa = without_plus(arr_pa, target)
            try:
                arr_pa = pc.cast(arr_pa, target)
            except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
                i = first_uncastable(arr_pa, target)
                raise InputError(
                    f"{what} {arr_pa[i].as_py()!r} is not {kind} at {row_label(lines, i)}",
                    **locate(source, lines, i),
                ) from None
        if (
            pa.types.is_integer(arr_pa.type)
            or pa.types.is_floating(arr_pa.type)
            or pa.types.is_boolean(arr_pa.type)
        ):
            return to_np(arr_pa)
        return np.asarray(arr_pa.to_numpy(zero_copy_only=False))
    return np.asarray(values)


def _warn_inexact(arr: np.ndarray, source: str | None, lines: Lines) -> None:
    """Scores are 64-bit floats, which hold integers exactly only up to 2**53: warn, with the
    count and the first row, when integer scores beyond lose precision (two distinct scores
    may become a tie)."""
    big = (arr > _EXACT) | (arr < -_EXACT) if arr.dtype.kind == "i" else arr > _EXACT
    if not big.any():
        return
    where = np.flatnonzero(big)
    floats = arr[where].astype(np.float64)
    limit = 2.0 ** (63 if arr.dtype.kind == "i" else 64)
    over = floats >= limit  # rounded up past the integer type: certainly inexact
    back = np.where(over, 0, floats).astype(arr.dtype)
    lost = where[over | (back != arr[where])]
    if not len(lost):
        return
    i = int(lost[0])
    _warn_lost(len(lost), str(int(arr[i])), arr, i, source, lines)


def _warn_lost(
    n: int, written: str, arr: np.ndarray, i: int, source: str | None, lines: Lines
) -> None:
    import warnings

    from ..errors import InputWarning

    name = f"{source}: " if source else ""
    warnings.warn(
        f"{name}{n} integer score{'s' if n > 1 else ''} beyond 2**53 lost precision as 64-bit "
        f"floats (scores that differ only there tie), e.g. {written} read as "
        f"{float(arr[i])!r} at {row_label(lines, i)}",
        InputWarning,
        stacklevel=5,
    )


_EXACT = 2**53  # the largest magnitude up to which every integer is a 64-bit float


def _warn_inexact_text(text: pa.Array, arr: np.ndarray, source: str | None, lines: Lines) -> None:
    """:func:`_warn_inexact` for scores read from text (CSV, TSV): integers written out in full
    beyond 2**53 that their float cannot hold. Only the rows beyond 2**53 are looked at."""
    where = np.flatnonzero((np.abs(arr) >= _EXACT) & np.isfinite(arr))
    if not len(where):
        return
    written = text.take(from_np(where)).to_pylist()
    lost = [
        int(i)
        for i, t in zip(where.tolist(), written, strict=True)
        if t.strip().lstrip("+-").isdigit() and int(t) != int(arr[i])
    ]
    if lost:
        _warn_lost(
            len(lost), written[where.tolist().index(lost[0])].strip(), arr, lost[0], source, lines
        )


def _decimal_scores(arr: np.ndarray, source: str | None) -> np.ndarray:
    """Decimal scores (an Arrow decimal column) as floats, warning with the count when that
    makes distinct scores equal; any other object column is left for the type error."""
    import decimal

    values = arr.tolist()
    if not values or not all(isinstance(v, decimal.Decimal) for v in values):
        return arr
    floats = np.array([float(v) for v in values], dtype=np.float64)
    merged = len(set(values)) - len(np.unique(floats))
    if merged > 0:
        import warnings

        from ..errors import InputWarning

        name = f"{source}: " if source else ""
        warnings.warn(
            f"{name}{merged} distinct decimal score{'s' if merged > 1 else ''} lost precision "
            "as 64-bit floats and now tie with another",
            InputWarning,
            stacklevel=4,
        )
    return floats


def as_grades(values: Any, source: str | None, lines: Lines = None) -> np.ndarray:
    arr = numeric_column(values, "relevance grade", "an integer", source, lines)
    if arr.dtype.kind == "f":
        bad = ~np.isfinite(arr) | (arr != np.round(arr))
        if bad.any():
            i = first_true(bad)
            raise InputError(
                f"relevance grade {float(arr[i])!r} is not an integer at {row_label(lines, i)}",
                **locate(source, lines, i),
            )
    elif arr.dtype.kind == "b":
        arr = arr.astype(np.int64)
    elif arr.dtype.kind not in "iu":
        raise InputError(f"relevance grades must be integers, got {arr.dtype}", source=source)
    if len(arr):
        out = (arr < _INT32.min) | (arr > _INT32.max)
        if out.any():
            i = first_true(out)
            raise InputError(
                f"relevance grade {int(arr[i])} is out of range at "
                f"{row_label(lines, i)} (grades are 32-bit integers)",
                **locate(source, lines, i),
            )
    return arr.astype(np.int32)


def as_scores(values: Any, source: str | None, lines: Lines) -> np.ndarray:
    arr = numeric_column(values, "score", "a number", source, lines)
    if arr.dtype.kind == "O":
        arr = _decimal_scores(arr, source)
    if arr.dtype.kind not in "iuf":
        raise InputError(f"scores must be numbers, got {arr.dtype}", source=source)
    if arr.dtype.kind in "iu":
        _warn_inexact(arr, source, lines)
    elif isinstance(values, pa.ChunkedArray | pa.Array) and pa.types.is_string(values.type):
        _warn_inexact_text(as_array(values), arr, source, lines)
    arr = arr.astype(np.float64, copy=False)
    bad = ~np.isfinite(arr)
    if bad.any():
        i = first_true(bad)
        raise InputError(
            f"score {float(arr[i])!r} is not finite (NaN and infinity are not "
            f"allowed) at {row_label(lines, i)}",
            **locate(source, lines, i),
        )
    return arr
