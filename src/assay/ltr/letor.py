"""Learning-to-rank files: SVMlight/LETOR text (``label qid:N idx:val ... # comment``),
LightGBM's LibSVM lines with a ``.query`` group file, and folders of them.

The file is read in blocks of whole lines; each block is split into tokens by whole-array
byte operations (NumPy) and its numbers are parsed by Arrow's string casts, so there is no
loop over lines or tokens in Python. Rules (SVMlight's, as scikit-learn's
``load_svmlight_file`` reads them):

- a ``#`` starts a comment that runs to the end of the line; ``docid = X`` in it (LETOR 3/4,
  MQ2007/8) becomes the document id, else the document id is the line number;
- fields are separated by ASCII white space; blank and comment-only lines are skipped;
- the first field is the label (a number), then optionally ``qid:ID``, then ``index:value``
  pairs with strictly increasing non-negative integer indices (absent features are 0);
- a query's lines must be consecutive (a query split into two runs of lines is an error);
- without ``qid:`` the queries come from the group file (``FILE.query``: one count of
  consecutive lines per line), and are numbered 1, 2, ... in file order.

Indices are 0- or 1-based: ``index_base="auto"`` takes 0 when some index is 0 (as
scikit-learn's ``zero_based="auto"``), decided jointly over the files read together, and the
choice is recorded. Feature values are float32 by default (``dtype``); values beyond float32's
range become ±inf and are counted. Features come back dense when at least half the entries are
stored (``features="auto"``), else as a SciPy CSR matrix.
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from .._arrow import from_np, to_np
from .._files import atomic_open, atomic_path
from .._options import choice, integer
from ..errors import EmptyInputError, InputError, InputWarning, OptionError, ParseError, shown
from ..io.limits import MAX_FEATURES, limit
from ._letor_blocks import Collector, blocks, parse_block
from ._letor_fast import parse_block_fast
from .options import FeatureLayout, IndexBase, ValueType

__all__ = [
    "FeatureLayout",
    "IndexBase",
    "LetorFile",
    "ValueType",
    "find_letor_splits",
    "read_letor",
    "read_letor_files",
    "write_letor",
]


#: Bytes per block: whole lines are parsed a block at a time, bounding working memory (a
#: block's tokens and their casts take about 12 times its text: a 150k x 136 file peaked at
#: 333 MB with 8 MiB blocks, 233 MB with 2 MiB; benchmarks/RESULTS.md).
BLOCK_BYTES = 1 << 21
#: Try the Arrow fast path first (False: always the careful parser; for tests).
FAST = True


@dataclass(frozen=True, eq=False)
class LetorFile:
    """One parsed file: a row per document, grouped by query with CSR ``offsets``.

    ``features`` is a float array (rows x n_features) or a ``scipy.sparse.csr_matrix``;
    ``query_ids`` holds one id per query, ``doc_ids`` and ``lines`` one per row.
    """

    source: str
    labels: np.ndarray
    offsets: np.ndarray
    query_ids: pa.Array
    doc_ids: pa.Array
    lines: np.ndarray
    features: Any
    n_features: int
    index_base: int
    group_file: str | None = None
    overflow: int = 0
    bytes_read: int = 0

    @property
    def n_rows(self) -> int:
        return len(self.labels)

    @property
    def n_queries(self) -> int:
        return len(self.offsets) - 1


# ---------------------------------------------------------------- queries and finishing


def _group_file(path: str, explicit: str | None) -> str | None:
    if explicit is not None:
        return explicit
    for suffix in (".query", ".group"):
        if os.path.isfile(path + suffix):
            return path + suffix
    return None


def _read_groups(path: str, rows: int) -> np.ndarray:
    with open(path, "rb") as fh:
        text = fh.read().split()
    try:
        counts = np.array(text, dtype=np.int64)
    except ValueError:
        raise ParseError(
            "expected one count of lines per query on each line", source=path
        ) from None
    if len(counts) == 0 or (counts <= 0).any():
        bad = int(np.argmax(counts <= 0)) + 1 if len(counts) else None
        raise ParseError("query sizes must be positive integers", source=path, line=bad)
    if int(counts.sum()) != rows:
        raise ParseError(
            f"query sizes add up to {int(counts.sum())} lines, but the data file has {rows}",
            source=path,
        )
    return counts


def _queries(col: Collector, group_file: str | None) -> tuple[np.ndarray, pa.Array]:
    """CSR offsets and one id per query, from qid: fields or a group file."""
    lines = np.concatenate([b.lines for b in col.blocks])
    qid_parts = [b.qids for b in col.blocks if b.qids is not None]
    if qid_parts and len(qid_parts) != len(col.blocks):
        at = next(b for b in col.blocks if b.qids is None)
        raise ParseError(
            "no qid: on this line, while other lines have one",
            source=col.source,
            line=int(at.lines[0]),
        )
    if qid_parts:
        encoded = pc.dictionary_encode(pa.chunked_array(qid_parts).combine_chunks())
        codes = to_np(encoded.indices).astype(np.int64)
        new = np.ones(len(codes), dtype=bool)
        new[1:] = codes[1:] != codes[:-1]
        starts = np.flatnonzero(new)
        run_codes = codes[starts]
        _, first = np.unique(run_codes, return_index=True)
        if len(first) != len(run_codes):
            again = np.setdiff1d(np.arange(len(run_codes)), first)[0]
            qid = encoded.dictionary[int(run_codes[again])].as_py()
            earlier = int(lines[starts[np.flatnonzero(run_codes == run_codes[again])[0]]])
            raise ParseError(
                f"query {shown(qid)} starts again here (first seen at line {earlier}): the "
                "lines of a query must be consecutive",
                source=col.source,
                line=int(lines[starts[again]]),
            )
        offsets = np.append(starts, len(codes)).astype(np.int64)
        return offsets, encoded.dictionary.take(from_np(run_codes))
    if group_file is None:
        raise InputError(
            "no qid: fields and no group file (FILE.query, LightGBM's form): the queries are "
            "unknown",
            source=col.source,
        )
    counts = _read_groups(group_file, col.rows)
    offsets = np.concatenate(([0], np.cumsum(counts))).astype(np.int64)
    ids = pc.cast(from_np(np.arange(1, len(counts) + 1)), pa.string())
    return offsets, ids


def _finish(
    col: Collector, base: int, n_features: int, layout: str, group_file: str | None
) -> LetorFile:
    offsets, query_ids = _queries(col, group_file)
    lines = np.concatenate([b.lines for b in col.blocks])
    docs = pa.chunked_array([b.doc_ids for b in col.blocks], pa.string()).combine_chunks()
    line_text = pc.cast(from_np(lines), pa.string())
    doc_ids = pc.if_else(pc.is_null(docs), line_text, docs) if docs.null_count else docs
    labels = np.concatenate([b.labels for b in col.blocks])
    if col.overflow:
        warnings.warn(
            f"{col.source}: {col.overflow} feature values beyond the range of {col.dtype} "
            "became ±inf (read with dtype='float64' to keep them)",
            InputWarning,
            stacklevel=4,
        )
    return LetorFile(
        source=col.source,
        labels=labels,
        offsets=offsets,
        query_ids=query_ids,
        doc_ids=doc_ids,
        lines=lines,
        features=col.features(base, n_features, layout),
        n_features=n_features,
        index_base=base,
        group_file=group_file,
        overflow=col.overflow,
        bytes_read=col.bytes_read,
    )


def _collect(path: str, dtype: np.dtype[Any], block_bytes: int) -> Collector:
    plain = os.path.isfile(path) and not _is_gzip(path)
    col = Collector(path, os.path.getsize(path) if plain else None, dtype)
    for data, before in blocks(path, block_bytes):
        col.bytes_read += len(data)
        fast = parse_block_fast(data, before, path) if FAST else None
        col.add(fast if fast is not None else parse_block(data, before, path))
    if col.rows == 0:
        raise EmptyInputError("no data lines (the file is empty or only comments)", source=path)
    return col


def _is_gzip(path: str) -> bool:
    with open(path, "rb") as fh:
        return fh.read(2) == b"\x1f\x8b"


def read_letor_files(
    paths: Sequence[str | os.PathLike[str]],
    *,
    query_files: Sequence[str | None] | None = None,
    index_base: IndexBase = "auto",
    n_features: int | None = None,
    features: FeatureLayout = "auto",
    dtype: ValueType = "float32",
    max_features: int | None = None,
) -> list[LetorFile]:
    """Read several files with one index base and one feature count (the largest), as
    scikit-learn's ``load_svmlight_files``: train, validation and test of one collection.

    A feature count beyond ``max_features`` (default :data:`~assay.io.limits.MAX_FEATURES`,
    or ``ASSAY_MAX_FEATURES``) is refused before anything is built per feature."""
    cap = (
        limit("ASSAY_MAX_FEATURES", MAX_FEATURES)
        if max_features is None
        else integer(max_features, "max_features", minimum=1)
    )
    base_choice = choice(index_base, IndexBase, "index_base")
    layout = choice(features, FeatureLayout, "features")
    value_type = np.dtype(choice(dtype, ValueType, "dtype"))
    names = [os.fspath(p) for p in paths]
    groups = list(query_files) if query_files is not None else [None] * len(names)
    if len(groups) != len(names):
        raise OptionError("query_files must give one entry per file", option="query_files")
    cols = [_collect(p, value_type, BLOCK_BYTES) for p in names]
    lows = [c.min_index for c in cols if c.min_index is not None]
    base = (0 if lows and min(lows) == 0 else 1) if base_choice == "auto" else int(base_choice)
    if lows and min(lows) < base:
        at = next(c for c in cols if c.min_index is not None and c.min_index < base)
        raise ParseError(f"feature index {at.min_index} with index_base={base}", source=at.source)
    width = max([c.max_index - base + 1 for c in cols] + [0])
    if n_features is not None:
        if n_features < width:
            raise OptionError(
                f"n_features={n_features} but the files hold feature index "
                f"{width - 1 + base} (index_base={base})",
                option="n_features",
            )
        width = n_features
    _check_width(cols, base, width, cap, max_features is None)
    return [
        _finish(c, base, width, layout, _group_file(p, g))
        for c, p, g in zip(cols, names, groups, strict=True)
    ]


def read_letor(
    path: str | os.PathLike[str],
    *,
    query_file: str | None = None,
    index_base: IndexBase = "auto",
    n_features: int | None = None,
    features: FeatureLayout = "auto",
    dtype: ValueType = "float32",
    max_features: int | None = None,
) -> LetorFile:
    """Read one SVMlight/LETOR file (or LibSVM lines with a ``.query``/``.group`` file).

    Lines are ``label qid:ID index:value ... # docid = D`` (see the module documentation for
    the rules); :func:`assay.ltr.load` reads a collection's splits into
    :class:`~assay.ltr.LetorDataset` objects.

    Parameters
    ----------
    path : str or path-like
        The file (gzip-compressed files are decompressed).
    query_file : str, optional
        The group file of a file without ``qid:`` fields (default: ``path`` + ``.query`` or
        ``.group``, when there is one).
    index_base : {"auto", 0, 1}
        Whether feature indices start at 0 or 1 (``auto``: 0 when some index is 0).
    n_features : int, optional
        The number of features (default: the largest index read).
    features : {"auto", "dense", "sparse"}
        The layout of the feature matrix (``auto``: dense when at least half the entries
        are stored).
    dtype : {"float32", "float64"}
        The type of the feature values.
    max_features : int, optional
        The most features accepted (default :data:`~assay.io.limits.MAX_FEATURES`, or
        ``ASSAY_MAX_FEATURES``).

    Returns
    -------
    LetorFile
        The rows grouped by query: ``labels``, CSR ``offsets``, ``query_ids``, ``doc_ids``
        and ``features``.

    Examples
    --------
    >>> from assay import ltr
    >>> with open("tiny.letor", "w") as fh:
    ...     _ = fh.write("2 qid:1 1:0.5 2:1 # docid = a\\n0 qid:1 1:0.1 2:0 # docid = b\\n"
    ...                  "1 qid:2 1:0.3 2:2 # docid = c\\n")
    >>> f = ltr.read_letor("tiny.letor")
    >>> f.n_queries, f.n_rows, f.n_features, f.index_base
    (2, 3, 2, 1)
    >>> f.labels.tolist(), f.offsets.tolist(), f.doc_ids.to_pylist()
    ([2.0, 0.0, 1.0], [0, 2, 3], ['a', 'b', 'c'])
    """
    return read_letor_files(
        [path],
        query_files=[query_file],
        index_base=index_base,
        n_features=n_features,
        features=features,
        dtype=dtype,
        max_features=max_features,
    )[0]


def _check_width(cols: list[Collector], base: int, width: int, cap: int, default: bool) -> None:
    """Refuse more features than ``cap``: every per-feature array (statistics, weights, a
    dense matrix) has one entry for each, so one index of 10**8 costs gigabytes."""
    if width <= cap:
        return
    lift = "pass max_features or set ASSAY_MAX_FEATURES" if default else "raise max_features"
    widest = max(cols, key=lambda c: c.max_index)
    raise InputError(
        f"{width} features (index {width - 1 + base} with index_base={base}) is more than "
        f"the {cap} allowed ({lift} to read more)",
        source=widest.source if widest.max_index - base + 1 == width else None,
    )


# ---------------------------------------------------------------- folders

_SPLITS = {"train": ("train",), "vali": ("vali", "valid"), "test": ("test",)}
_SIDE_FILES = (".query", ".group", ".weight", ".init", ".md", ".conf", ".position")


def _split_of(name: str) -> str | None:
    lower = name.lower()
    if lower.endswith(_SIDE_FILES) or lower.startswith("."):
        return None
    hits = [s for s, keys in _SPLITS.items() if any(k in lower for k in keys)]
    return hits[0] if len(hits) == 1 else None


def find_letor_splits(path: str | os.PathLike[str], *, fold: int | None = None) -> dict[str, str]:
    """The files of a collection folder by split (``train``, ``vali``, ``test``).

    A file belongs to the split its name contains (``train.txt``, ``vali.txt``,
    ``set1.valid.txt``, ``rank.test``); ``FoldN`` sub-folders (MSLR, LETOR 4) are chosen with
    ``fold`` (default 1). When two files name one split (``rank.train`` and
    ``rank.train.letor``) the shorter name is read. A file is one ``train`` split.
    """
    p = os.fspath(path)
    if os.path.isfile(p):
        return {"train": p}
    if not os.path.isdir(p):
        raise InputError("no such file or folder", source=p)
    entries = sorted(os.listdir(p))
    folds = sorted(
        e for e in entries if e.lower().startswith("fold") and os.path.isdir(os.path.join(p, e))
    )
    found: dict[str, list[str]] = {}
    for e in entries:
        split = _split_of(e)
        if split is not None and os.path.isfile(os.path.join(p, e)):
            found.setdefault(split, []).append(e)
    if not found and folds:
        chosen = f"Fold{fold if fold is not None else 1}"
        match = [f for f in folds if f.lower() == chosen.lower()]
        if not match:
            raise InputError(f"no {chosen} in the folder (have {', '.join(folds)})", source=p)
        return find_letor_splits(os.path.join(p, match[0]))
    if fold is not None and not folds:
        raise OptionError(f"fold={fold} but {p} has no FoldN sub-folders", option="fold")
    if "train" not in found and "test" not in found:
        raise InputError("no train/vali/test files in the folder", source=p)
    return {
        s: os.path.join(p, min(found[s], key=lambda n: (len(n), n))) for s in _SPLITS if s in found
    }


# ---------------------------------------------------------------- writing


def _number_text(values: np.ndarray) -> pa.Array:
    """Shortest round-trip text of each value; integral labels print without a point."""
    if (
        values.dtype.kind == "f"
        and np.all(np.mod(values, 1) == 0)
        and np.all(np.abs(values) < 2**53)
    ):
        return pc.cast(from_np(values.astype(np.int64)), pa.string())
    return pc.cast(from_np(values), pa.string())


def _feature_text(rows: Any, base: int) -> tuple[pa.Array, np.ndarray]:
    """``index:value`` tokens of some rows and their CSR offsets (dense rows: every column)."""
    if isinstance(rows, np.ndarray):
        n, m = rows.shape
        cols = np.tile(np.arange(m, dtype=np.int64), n)
        vals = rows.ravel()
        offsets = np.arange(n + 1, dtype=np.int64) * m
    else:
        cols = rows.indices.astype(np.int64)
        vals = rows.data
        offsets = rows.indptr.astype(np.int64)
    prefix = pc.binary_join_element_wise(pc.cast(from_np(cols + base), pa.string()), ":", "")
    tokens = pc.binary_join_element_wise(prefix, pc.cast(from_np(vals), pa.string()), "")
    return tokens, offsets


@contextmanager
def _letor_output(path: str | os.PathLike[str]) -> Iterator[Any]:
    """The file to write, whole or not at all; gzip-compressed for a ``.gz`` path."""
    if not os.fspath(path).endswith(".gz"):
        with atomic_open(path) as fh:
            yield fh
        return
    with atomic_path(path) as tmp, pa.CompressedOutputStream(tmp, "gzip") as out:
        yield out


def write_letor(
    path: str | os.PathLike[str],
    labels: np.ndarray,
    offsets: np.ndarray,
    query_ids: Sequence[str] | pa.Array,
    features: Any,  # Any: a dense array or a SciPy CSR matrix (SciPy is imported lazily)
    *,
    doc_ids: Sequence[str] | pa.Array | None = None,
    index_base: int = 1,
    block_rows: int = 1 << 16,
) -> None:
    """Write rows as LETOR lines ``label qid:Q i:v ... [# docid = D]``.

    A block of rows is written at a time (dense rows list every feature, MSLR-style; CSR rows
    their stored entries). Values are written in their shortest round-trip form, so reading
    the file back gives the same numbers. A ``.gz`` path is gzip-compressed; the file is
    written whole or not at all.

    Parameters
    ----------
    path : str or path-like
        The file to write.
    labels : numpy.ndarray
        One label per row.
    offsets : numpy.ndarray
        The CSR offsets of the queries' rows (``n_queries + 1`` entries, from 0).
    query_ids : sequence of str or pyarrow.Array
        One id per query.
    features : numpy.ndarray or scipy.sparse.csr_matrix
        The feature matrix, rows × features.
    doc_ids : sequence of str or pyarrow.Array, optional
        One document id per row, written as ``# docid = D``.
    index_base : int
        The index of the first feature (0 or 1).
    block_rows : int
        The rows formatted at a time.

    Returns
    -------
    None

    Examples
    --------
    >>> import numpy as np
    >>> from assay import ltr
    >>> x = np.array([[0.5, 1.0], [0.1, 0.0], [0.3, 2.0]])
    >>> ltr.write_letor("written.letor", np.array([2.0, 0.0, 1.0]), np.array([0, 2, 3]),
    ...                 ["1", "2"], x, doc_ids=["a", "b", "c"])
    >>> print(open("written.letor").read(), end="")
    2 qid:1 1:0.5 2:1 # docid = a
    0 qid:1 1:0.1 2:0 # docid = b
    1 qid:2 1:0.3 2:2 # docid = c
    """
    labels = np.asarray(labels)
    qids = pa.array(query_ids, pa.string()) if not isinstance(query_ids, pa.Array) else query_ids
    qidx = np.repeat(np.arange(len(offsets) - 1), np.diff(offsets))
    row_qid = pc.binary_join_element_wise("qid:", qids.take(from_np(qidx)), "")
    docs = None if doc_ids is None else pa.array(doc_ids, pa.string())
    with _letor_output(path) as fh:
        for lo in range(0, len(labels), block_rows):
            hi = min(lo + block_rows, len(labels))
            tokens, toff = _feature_text(features[lo:hi], index_base)
            feats = pc.binary_join(
                pa.ListArray.from_arrays(from_np(toff.astype(np.int32)), tokens), " "
            )
            parts = [_number_text(labels[lo:hi]), row_qid[lo:hi], feats]
            if docs is not None:
                parts.append(pc.binary_join_element_wise("# docid =", docs[lo:hi], " "))
            line = pc.binary_join_element_wise(*parts, " ")
            text = pc.binary_join_element_wise(line, "", "\n")
            # The lines are contiguous in the array's data buffer: write it as it is.
            _, offsets_buf, data = text.buffers()
            off = np.frombuffer(offsets_buf, dtype=np.int32, count=len(text) + 1 + text.offset)
            fh.write(memoryview(data)[off[text.offset] : off[-1]])
