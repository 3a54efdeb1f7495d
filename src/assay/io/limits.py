"""Caps on the work a small input can ask for (docs/inputs.md, "Caps").

A file of a few bytes can claim a feature index of a hundred million, expand a
thousandfold out of gzip or a zip member, or declare an array shape that its data does
not hold. Each cap below is checked before the work or the allocation it bounds, and a
refusal is one :class:`~assay.errors.InputError` naming the file and the environment
variable that lifts the cap, for the rare real input that needs more.
"""

from __future__ import annotations

import os
from typing import Any

from ..errors import InputError, OptionError

__all__ = [
    "DENSE_BYTES",
    "DENSE_RATIO",
    "EXPANSION",
    "EXPANSION_FLOOR",
    "MAX_CLASSES",
    "MAX_FEATURES",
    "check_dense",
    "check_expansion",
    "check_parquet",
    "expansion_cap",
    "limit",
]

#: Most features (highest index) of a LETOR file (``max_features=``, ``ASSAY_MAX_FEATURES``).
MAX_FEATURES = 1 << 20
#: Most distinct labels of a classification (``ASSAY_MAX_CLASSES``): its confusion matrix
#: has one cell per pair of them.
MAX_CLASSES = 2048
#: Bytes out per compressed byte in (gzip, a zip member), beyond EXPANSION_FLOOR
#: (``ASSAY_MAX_EXPANSION``): text compresses 3-20 fold, a bomb a thousandfold.
EXPANSION = 32
#: Bytes any compressed input may expand to, whatever its ratio.
EXPANSION_FLOOR = 32 << 20
#: Largest dense matrix built from a file, in bytes (``ASSAY_MAX_DENSE_BYTES``), unless it
#: is at most DENSE_RATIO times the bytes read: a dense file's matrix is never larger.
DENSE_BYTES = 256 << 20
DENSE_RATIO = 4


def limit(variable: str, default: int) -> int:
    """A cap: ``default``, or the positive integer in the environment ``variable``."""
    text = os.environ.get(variable, "").strip()
    if not text:
        return default
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value <= 0:
        raise OptionError(f"{variable} must be a positive integer, got {text[:40]!r}")
    return value


def expansion_cap(compressed: int) -> int:
    """The most bytes ``compressed`` bytes of gzip or deflate may expand to."""
    return max(EXPANSION_FLOOR, limit("ASSAY_MAX_EXPANSION", EXPANSION) * compressed)


def check_expansion(produced: int, compressed: int, source: str) -> None:
    """Refuse ``produced`` bytes out of ``compressed`` beyond :func:`expansion_cap`."""
    if produced > expansion_cap(compressed):
        ratio = limit("ASSAY_MAX_EXPANSION", EXPANSION)
        raise InputError(
            f"decompresses to more than {produced >> 20} MiB from {compressed} bytes, over "
            f"{ratio} times its size: a compression bomb? (set ASSAY_MAX_EXPANSION to allow "
            "more)",
            source=source,
        )


#: Bytes a decoded Parquet value is counted as (a number; a string's offset and text).
PARQUET_VALUE_BYTES = 8


def check_parquet(metadata: Any, file_bytes: int, source: str) -> None:
    """Refuse a Parquet file whose values, decoded, would exceed :func:`expansion_cap` of its
    size: run-length and dictionary encoding let a few hundred kilobytes claim billions of
    rows, and its metadata says how many before any is decoded."""
    values = 0
    for g in range(metadata.num_row_groups):
        group = metadata.row_group(g)
        values += sum(group.column(c).num_values for c in range(group.num_columns))
    values = max(values, metadata.num_rows)
    if values * PARQUET_VALUE_BYTES > expansion_cap(file_bytes):
        ratio = limit("ASSAY_MAX_EXPANSION", EXPANSION)
        raise InputError(
            f"{metadata.num_rows} rows ({values} values) in {file_bytes} bytes of Parquet would "
            f"decode to over {ratio} times the file's size: a compression bomb? (set "
            "ASSAY_MAX_EXPANSION to allow more)",
            source=source,
        )


def check_dense(
    shape: tuple[int, ...], itemsize: int, *, read_bytes: int | None, source: str | None
) -> None:
    """Refuse a dense array of ``shape`` before it is allocated, when it is larger than
    DENSE_BYTES and than DENSE_RATIO times the ``read_bytes`` it comes from."""
    size = itemsize
    for n in shape:
        size *= max(int(n), 0)
    cap = limit("ASSAY_MAX_DENSE_BYTES", DENSE_BYTES)
    if size <= cap or (read_bytes is not None and size <= DENSE_RATIO * read_bytes):
        return
    dims = " x ".join(str(int(n)) for n in shape)
    raise InputError(
        f"a dense {dims} matrix would take {size / 2**20:.0f} MiB, more than the "
        f"{cap / 2**20:.0f} MiB allowed for an input of this size (set ASSAY_MAX_DENSE_BYTES "
        "to allow more)",
        source=source,
    )
