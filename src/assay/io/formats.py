"""Which format a file is in, from its name: a module of its own so that reading a TREC run
does not load the tabular readers."""

from __future__ import annotations

import os

from ..errors import OptionError

__all__ = [
    "FORMATS",
    "check_format",
    "detect_format",
]

PathLike = str | os.PathLike[str]

FORMATS = ("trec", "csv", "tsv", "parquet", "jsonl")

_EXT = {
    ".parquet": "parquet",
    ".pq": "parquet",
    ".csv": "csv",
    ".tsv": "tsv",
    ".jsonl": "jsonl",
    ".ndjson": "jsonl",
}


def check_format(fmt: str, path: PathLike) -> str:
    """``fmt`` if it is a format assay reads, else an :class:`OptionError`."""
    from .._options import InputFormat, choice

    try:
        return str(choice(fmt, InputFormat, "format"))
    except OptionError as exc:
        raise OptionError(f"{os.fspath(path)}: {exc}", option="format") from None


def detect_format(path: PathLike) -> str:
    """'trec' unless the extension (before .gz) names a tabular format."""
    p = os.fspath(path).lower()
    if p.endswith(".gz"):
        p = p[:-3]
    for ext, fmt in _EXT.items():
        if p.endswith(ext):
            return fmt
    return "trec"
