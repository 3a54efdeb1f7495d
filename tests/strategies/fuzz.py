"""Realistic but hostile inputs for the fuzz suite (tests/properties/test_fuzz_*.py).

Two kinds of input for every reader:

- **valid** inputs written in awkward ways (random field separators, CRLF line ends, a BOM,
  gzip, comment and blank lines, quoted ids holding delimiters, quotes and line ends,
  Unicode look-alikes of white space inside ids, numbers in every legal spelling), each drawn
  with the rows it holds, so a test can check that every row written is read back;
- **hostile** bytes: a valid input run through mutations (invalid UTF-8, control characters,
  lone CRs, NUL, stray quotes and delimiters, duplicated or deleted lines, NaN/inf and huge
  numbers, hexadecimal, truncation, truncated gzip), which a reader must either read or refuse
  with one :class:`assay.AssayError`.

``FUZZ_EXAMPLES`` (environment ``ASSAY_FUZZ_EXAMPLES``, default small) sets how many examples
each fuzz test draws; hypothesis runs derandomized, so a run is reproducible.
"""

from __future__ import annotations

import csv
import gzip
import io
import json
import os
from dataclasses import dataclass
from typing import Any

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

#: Examples per fuzz test: small under `make test`, thousands when asked for.
FUZZ_EXAMPLES = int(os.environ.get("ASSAY_FUZZ_EXAMPLES", "0") or 0)


def fuzz_settings(default: int) -> Any:
    """Derandomized hypothesis settings: ``default`` examples, or ASSAY_FUZZ_EXAMPLES."""
    return settings(
        max_examples=FUZZ_EXAMPLES or default,
        derandomize=True,
        database=None,
        deadline=None,
        suppress_health_check=[
            HealthCheck.too_slow,
            HealthCheck.data_too_large,
            HealthCheck.filter_too_much,
            HealthCheck.function_scoped_fixture,
        ],
    )


# ---------------------------------------------------------------- building blocks

#: Characters of ids: ASCII, punctuation that matters to some format, and look-alikes of
#: white space and line ends that are *not* ASCII white space (they belong to the id).
_ID_CHARS = st.sampled_from(
    [
        *"abcxyzQD0179_-.:/",
        *['"', "'", ",", ";", "|", "#", "\\", "%", "&", "<", ">", "[", "]", "{", "}", "$"],
        *["é", "ß", "数", "\u200b", "\u00a0", "\u0085", "\u2028", "\u2029", "\x1b", "\x7f"],
    ]
)
PLAIN_IDS = st.text(alphabet=st.sampled_from(list("abcqd0123456789_-.")), min_size=1, max_size=6)
HOSTILE_IDS = st.text(alphabet=_ID_CHARS, min_size=1, max_size=6)
IDS = st.one_of(PLAIN_IDS, PLAIN_IDS, HOSTILE_IDS)


def _spell_float(value: float, how: int) -> str:
    if how == 0:
        return repr(value)
    if how == 1:
        return f"{value:.6e}"
    if how == 2:
        return f"{value:+.3f}"
    return f"{value:g}"


@st.composite
def scores(draw: st.DrawFn) -> tuple[str, float]:
    """A finite score and one of its legal spellings (the value the spelling reads as)."""
    value = draw(
        st.one_of(
            st.integers(-1000, 1000).map(float),
            st.floats(-1e6, 1e6, allow_nan=False, allow_infinity=False, width=32),
            st.sampled_from([0.0, -0.0, 1e-300, 1.7e308, -1.7e308, 5e-324]),
        )
    )
    text = _spell_float(value, draw(st.integers(0, 3)))
    return text, float(text)


@st.composite
def grades(draw: st.DrawFn) -> tuple[str, int]:
    """An integer grade and a legal spelling (``+2``, ``007``, ``-1``)."""
    value = draw(st.one_of(st.integers(-2, 4), st.integers(-(2**31), 2**31 - 1)))
    prefix = draw(st.sampled_from(["", "", "+", "0", "00"])) if value >= 0 else ""
    return f"{prefix}{value}", value


#: Tokens that no reader should take for a value: non-finite, hexadecimal, huge, foreign
#: digits, Python-only spellings, empty.
BAD_NUMBERS = [
    "nan", "NaN", "-nan", "inf", "-inf", "Infinity", "1e400", "-1e400", "0x10", "0X1f",
    "0xFFFFFFFFFFFFFFFF", "1_000", "\u0661", "\u0967", "99999999999999999999", "2147483648",
    "--1", "1e", ".", "+", "", "1.5", "١٢", "٣.٥", "1,5", " ", "true", "None",
]  # fmt: skip

#: Byte sequences that mutations insert.
INSERTS = [
    b"\xff", b"\xfe\xff", b"\xc3", b"\xed\xa0\x80", b"\x00", b"\r", b"\n", b"\r\n", b"\t",
    b" ", b"\x0b", b"\x0c", b'"', b'""', b",", b"#", b"\xef\xbb\xbf", b"\x1b[2J", b"\x07",
    "\u2028".encode(), "\u0085".encode(), b"\\", b"{", b"}", b"[", b"]", b":",
]  # fmt: skip


@st.composite
def mutated(draw: st.DrawFn, data: bytes) -> bytes:
    """``data`` with a few hostile edits (see the module documentation)."""
    out = bytearray(data)
    for _ in range(draw(st.integers(1, 3))):
        kind = draw(st.integers(0, 6))
        at = draw(st.integers(0, len(out)))
        if kind <= 1:
            out[at:at] = draw(st.sampled_from(INSERTS))
        elif kind == 2:
            out[at:at] = draw(st.sampled_from(BAD_NUMBERS)).encode()
        elif kind == 3 and out:
            end = min(len(out), at + draw(st.integers(1, 8)))
            del out[at:end]
        elif kind == 4:
            lines = bytes(out).split(b"\n")
            i = draw(st.integers(0, len(lines) - 1))
            lines.insert(i, lines[i])
            out = bytearray(b"\n".join(lines))
        elif kind == 5:
            del out[at:]
        else:
            out[at:at] = draw(st.binary(min_size=1, max_size=4))
    return bytes(out)


@st.composite
def packaging(draw: st.DrawFn, data: bytes, *, hostile: bool) -> bytes:
    """``data`` as stored: plain, after a BOM, gzipped, or (hostile) truncated gzip."""
    how = draw(st.sampled_from(["plain", "plain", "bom", "gzip"] + (["cut"] if hostile else [])))
    if how == "bom":
        return b"\xef\xbb\xbf" + data
    if how == "gzip":
        return gzip.compress(data, mtime=0)
    if how == "cut":
        packed = gzip.compress(data, mtime=0)
        return packed[: draw(st.integers(2, max(2, len(packed) - 1)))]
    return data


# ---------------------------------------------------------------- TREC qrels and runs


@dataclass(frozen=True)
class Written:
    """Bytes written and the rows they hold: ``rows`` maps (query, doc) to the value."""

    data: bytes
    rows: dict[tuple[str, str], Any]


def _trec_ids() -> st.SearchStrategy[str]:
    # TREC text has no quoting: ids are free of ASCII white space and, in the first column,
    # do not start with '#'.
    return IDS.filter(lambda s: not any(c in s for c in " \t\n\r\x0b\x0c"))


@st.composite
def trec(draw: st.DrawFn, kind: str, *, fast: bool = False) -> Written:
    """A TREC qrels (``kind="qrels"``) or run file. ``fast`` draws files the fast path can
    read (one delimiter, LF line ends, no comment or blank line)."""
    pairs = draw(
        st.lists(st.tuples(_trec_ids(), _trec_ids()), min_size=1, max_size=12, unique=True)
    )
    pairs = [(q, d) for q, d in pairs if not q.startswith("#")] or [("q", "d")]
    delim = draw(st.sampled_from([" ", "\t"]))
    lines: list[str] = []
    rows: dict[tuple[str, str], Any] = {}
    for rank, (q, d) in enumerate(pairs, 1):
        if not fast and draw(st.integers(0, 5)) == 0:
            lines.append(draw(st.sampled_from(["# a comment", "", "   ", "#", "\t"])))
        if kind == "qrels":
            text, value = draw(grades())
            fields = [q, "0", d, text]
        else:
            text, value = draw(scores())
            fields = [q, "Q0", d, str(rank), text, "tag"]
            if not fast and draw(st.booleans()):
                fields.append("extra")
        sep = delim if fast else draw(st.sampled_from([" ", "\t", "  ", " \t", "\x0b", "\x0c"]))
        lead = "" if fast else draw(st.sampled_from(["", "", " ", "\t"]))
        lines.append(lead + sep.join(fields))
        rows[(q, d)] = value
    end = "\n" if fast else draw(st.sampled_from(["\n", "\r\n"]))
    text = end.join(lines) + (end if fast or draw(st.booleans()) else "")
    data = text.encode()
    return Written(data if fast else draw(packaging(data, hostile=False)), rows)


# ---------------------------------------------------------------- CSV, TSV, JSON Lines


@st.composite
def delimited(draw: st.DrawFn, kind: str, delimiter: str) -> Written:
    """A CSV/TSV with the three columns of ``kind`` (qrels: query, doc, relevance; run:
    query, doc, score) among others, quoted by Python's csv writer."""
    value_col = "relevance" if kind == "qrels" else "score"
    ids = IDS.filter(lambda s: "\r" not in s)  # a quoted lone CR is legal but mapped by Arrow
    pairs = draw(st.lists(st.tuples(ids, ids), min_size=1, max_size=10, unique=True))
    extra = draw(st.lists(st.sampled_from(["x", "note", "rank", "q0", "tag"]), unique=True))
    header = [*extra, "query", "doc", value_col]
    header = draw(st.permutations(header))
    out = io.StringIO()
    quoting = draw(st.sampled_from([csv.QUOTE_MINIMAL, csv.QUOTE_ALL, csv.QUOTE_NONNUMERIC]))
    end = draw(st.sampled_from(["\n", "\r\n"]))
    writer = csv.writer(out, delimiter=delimiter, quoting=quoting, lineterminator=end)
    writer.writerow(header)
    rows: dict[tuple[str, str], Any] = {}
    for q, d in pairs:
        text, value = draw(grades() if kind == "qrels" else scores())
        junk = draw(st.sampled_from(["1", "a", "", "x y", "0x1", "nan", '"q"']))
        cells = {"query": q, "doc": d, value_col: text}
        writer.writerow([cells.get(h, junk) for h in header])
        if draw(st.integers(0, 6)) == 0:
            out.write(end)  # an empty line: not a row
        rows[(q, d)] = value
    data = out.getvalue().encode()
    return Written(draw(packaging(data, hostile=False)), rows)


@st.composite
def jsonl(draw: st.DrawFn, kind: str) -> Written:
    """JSON Lines with the three fields of ``kind`` and extra fields of one type each."""
    value_field = "relevance" if kind == "qrels" else "score"
    pairs = draw(st.lists(st.tuples(IDS, IDS), min_size=1, max_size=10, unique=True))
    lines: list[str] = []
    rows: dict[tuple[str, str], Any] = {}
    for q, d in pairs:
        _, value = draw(grades() if kind == "qrels" else scores())
        obj: dict[str, Any] = {"query": q, "doc": d, value_field: value}
        if draw(st.booleans()):
            obj["note"] = draw(st.text(max_size=4))
        keys = draw(st.permutations(list(obj)))
        lines.append(json.dumps({k: obj[k] for k in keys}, ensure_ascii=draw(st.booleans())))
        if draw(st.integers(0, 6)) == 0:
            lines.append(draw(st.sampled_from(["", "  ", "\t"])))
        rows[(q, d)] = value
    end = draw(st.sampled_from(["\n", "\r\n"]))
    data = (end.join(lines) + end).encode()
    return Written(draw(packaging(data, hostile=False)), rows)


# ---------------------------------------------------------------- Parquet


@st.composite
def parquet_columns(draw: st.DrawFn, kind: str, *, hostile: bool) -> dict[str, Any]:
    """Columns for a Parquet file (pyarrow arrays): ids as string, large string,
    dictionary or binary; values in any numeric type Parquet writers use (float16 too).
    ``hostile`` adds nulls, NaN, invalid UTF-8, out-of-range and non-numeric values."""
    import numpy as np
    import pyarrow as pa

    n = draw(st.integers(1, 8))
    q = [f"q{draw(st.integers(0, 2))}" for _ in range(n)]
    d = [f"d{i}" for i in range(n)]
    id_type = draw(st.sampled_from(["string", "large_string", "dictionary", "binary"]))

    def ids(values: list[str]) -> Any:
        if id_type == "dictionary":
            return pa.array(values).dictionary_encode()
        if id_type == "binary":
            return pa.array([v.encode() for v in values], pa.binary())
        return pa.array(values, getattr(pa, id_type)())

    if kind == "qrels":
        vtype = draw(st.sampled_from(["int8", "int16", "int32", "int64", "uint8", "float64"]))
        values = pa.array(np.arange(n) % 3, getattr(pa, vtype)())
    else:
        vtype = draw(st.sampled_from(["float16", "float32", "float64", "int32", "dictionary"]))
        raw = np.linspace(0, 1, n)
        if vtype == "dictionary":
            values = pa.array(raw).dictionary_encode()
        else:
            values = pa.array(raw.astype(vtype if vtype != "int32" else "int64"))
    cols = {"query": ids(q), "doc": ids(d), "relevance" if kind == "qrels" else "score": values}
    if hostile:
        name, i = draw(st.sampled_from(list(cols))), draw(st.integers(0, n - 1))
        how = draw(st.integers(0, 4))
        col = cols[name].to_pylist()
        if how == 0:
            col[i] = None
            cols[name] = pa.array(col, cols[name].type if id_type != "dictionary" else None)
        elif how == 1:
            cols[name] = pa.array(
                [b"\xff\xfe", *[str(x).encode() for x in col[1:]]], pa.binary()
            ).cast(pa.string(), safe=False)
        elif how == 2:
            cols[name] = pa.array(
                [float("nan"), *[float(x) if isinstance(x, int | float) else 0.0 for x in col[1:]]]
            )
        elif how == 3:
            cols[name] = pa.array([2**63 - 1] + [1] * (n - 1), pa.uint64())
        else:
            cols[name] = pa.array([[1, 2]] * n)
    return cols


# ---------------------------------------------------------------- dicts


#: Values a dict input may hold where a number is expected.
ODD_VALUES = st.one_of(
    st.integers(-(2**70), 2**70),
    st.floats(allow_nan=True, allow_infinity=True),
    st.booleans(),
    st.none(),
    st.text(max_size=3),
    st.lists(st.integers(0, 3), max_size=3),
    st.dictionaries(st.text(max_size=2), st.integers(), max_size=2),
    st.binary(max_size=3),
)
ODD_KEYS = st.one_of(
    IDS, st.integers(-5, 5), st.booleans(), st.none(), st.binary(max_size=3), st.floats(0, 1)
)


@st.composite
def nested_dicts(draw: st.DrawFn) -> Any:
    """``{query: {doc: value}}`` with hostile keys and values, or not a dict at all."""
    inner = st.dictionaries(ODD_KEYS, ODD_VALUES, max_size=4)
    return draw(
        st.one_of(
            st.dictionaries(ODD_KEYS, inner, max_size=4),
            st.dictionaries(IDS, st.one_of(inner, ODD_VALUES), max_size=3),
            ODD_VALUES,
        )
    )


# ---------------------------------------------------------------- task files


#: Text of one-value-per-line files: may hold separators that are not line ends.
LABEL_CHARS = st.sampled_from(
    [*"abcxyz01 -_.,'\"#", "\x0b", "\x0c", "\u0085", "\u2028", "\u00a0", "é", "\x1b"]
)
LABELS = st.text(alphabet=LABEL_CHARS, min_size=1, max_size=6).filter(lambda s: bool(s.strip()))


def join_lines(lines: list[str], end: str, final: bool) -> bytes:
    return (end.join(lines) + (end if final else "")).encode()


# ---------------------------------------------------------------- feature-family files

_FEATURE_VALUES = st.sampled_from(["0", "1", "2", "0.5", "-1", "x", "1e400", "nan"])
_TAGS = st.sampled_from(["O", "B-PER", "I-PER", "E-LOC", "S-LOC", "I-", "X"])


@st.composite
def feature_file(draw: st.DrawFn, kind: str) -> tuple[bytes, str]:
    """(clean bytes, file name) of a LETOR file, a CoNLL file or a CSV of embeddings, with
    odd values (``x``, ``1e400``, ``nan``, broken tags) among the good ones."""
    values = _FEATURE_VALUES
    if kind == "letor":
        n = draw(st.integers(1, 8))
        lines = [
            f"{draw(values)} qid:{1 + i // 3} 1:{draw(values)} 3:{i}.25 # docid = d{i}"
            for i in range(n)
        ]
        return ("\n".join(lines) + "\n").encode(), "d.txt"
    if kind == "conll":
        sentences = draw(st.lists(st.lists(st.tuples(_TAGS, _TAGS), min_size=1), max_size=4))
        text = "\n".join("".join(f"w {g} {p}\n" for g, p in s) for s in sentences)
        return text.encode(), "t.conll"
    rows = draw(st.lists(st.lists(values, min_size=2, max_size=2), min_size=1, max_size=6))
    return "".join(",".join(r) + "\n" for r in rows).encode(), "e.csv"
