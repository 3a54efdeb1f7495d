"""Zero-copy NumPy <-> Arrow conversion for numeric columns.

``pa.array``, ``pa.scalar`` and ``Array.to_numpy`` consult pyarrow's pandas shim, which imports
pandas (about 0.2 s) the first time, even for plain NumPy input. assay moves numeric columns
through Arrow buffers directly instead, which is also copy-free.
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa

_TO_NP = {
    pa.int8(): np.int8,
    pa.int16(): np.int16,
    pa.int32(): np.int32,
    pa.int64(): np.int64,
    pa.uint8(): np.uint8,
    pa.uint16(): np.uint16,
    pa.uint32(): np.uint32,
    pa.uint64(): np.uint64,
    pa.float32(): np.float32,
    pa.float64(): np.float64,
}
_TO_PA = {np.dtype(v): k for k, v in _TO_NP.items()}


def from_np(values: np.ndarray) -> pa.Array:
    """A numeric or boolean NumPy array as an Arrow array (no nulls), sharing memory."""
    a = np.ascontiguousarray(values)
    if a.dtype == np.bool_:
        bits = np.packbits(a, bitorder="little")
        return pa.Array.from_buffers(pa.bool_(), len(a), [None, pa.py_buffer(bits)])
    typ = _TO_PA.get(a.dtype)
    if typ is None:
        raise TypeError(f"no Arrow type for {a.dtype}")
    return pa.Array.from_buffers(typ, len(a), [None, pa.py_buffer(a)])


def to_np(values: pa.Array | pa.ChunkedArray, fill: float | int | None = None) -> np.ndarray:
    """A numeric or boolean Arrow array as NumPy; nulls become ``fill`` (required if any)."""
    if isinstance(values, pa.ChunkedArray):
        values = values.combine_chunks() if values.num_chunks != 1 else values.chunk(0)
    n = len(values)
    if pa.types.is_boolean(values.type):
        buf = values.buffers()[1]
        bits = np.frombuffer(buf, dtype=np.uint8) if buf is not None else np.zeros(0, np.uint8)
        out: np.ndarray = np.unpackbits(bits, bitorder="little", count=values.offset + n)[
            values.offset :
        ].astype(bool)
    else:
        dtype = _TO_NP.get(values.type)
        if dtype is None:
            raise TypeError(f"no NumPy type for Arrow {values.type}")
        buf = values.buffers()[1]
        out = (
            np.frombuffer(buf, dtype=dtype, count=values.offset + n)[values.offset :]
            if n
            else np.zeros(0, dtype=dtype)
        )
    if values.null_count:
        if fill is None:
            raise ValueError("array has nulls and no fill value was given")
        out = out.copy()
        out[~valid_mask(values)] = fill
    return out


def valid_mask(values: pa.Array) -> np.ndarray:
    """Boolean mask of the non-null entries."""
    n = len(values)
    if values.null_count == 0:
        return np.ones(n, dtype=bool)
    bitmap = values.buffers()[0]
    bits = np.frombuffer(bitmap, dtype=np.uint8)
    return np.unpackbits(bits, bitorder="little", count=values.offset + n)[values.offset :].astype(
        bool
    )
