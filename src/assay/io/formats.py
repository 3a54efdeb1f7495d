"""Which format a file is in, from its name: a module of its own so that reading a TREC run
does not load the tabular readers."""

from __future__ import annotations

import os

__all__ = [
    "FORMATS",
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


def detect_format(path: PathLike) -> str:
    """'trec' unless the extension (before .gz) names a tabular format."""
    p = os.fspath(path).lower()
    if p.endswith(".gz"):
        p = p[:-3]
    for ext, fmt in _EXT.items():
        if p.endswith(ext):
            return fmt
    return "trec"
