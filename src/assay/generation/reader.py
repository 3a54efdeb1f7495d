"""Reference files of generation: several plain-text files whose k-th lines are the
references of the k-th item (sacrebleu's reference files; the line rules are
:mod:`assay.io.segments`')."""

from __future__ import annotations

from collections.abc import Sequence

from ..errors import EmptyInputError, InputError
from ..io.segments import check_same_count, read_segments
from ..io.text import PathLike, source_name

__all__ = ["read_reference_streams"]


def read_reference_streams(paths: Sequence[PathLike]) -> list[list[str]]:
    """Reference streams from several files (the k-th line of every file is a reference of
    the k-th item), checked to hold the same number of segments.

    Parameters
    ----------
    paths
        The reference files (a list, even of one).

    Returns
    -------
    list of list of str
        One stream per file (sacrebleu's layout: ``streams[j][i]``).

    Examples
    --------
    >>> from pathlib import Path
    >>> from assay.generation import read_reference_streams
    >>> _ = Path("ref1.txt").write_text("a cat\\nthe dog\\n", encoding="utf-8")
    >>> _ = Path("ref2.txt").write_text("one cat\\na dog\\n", encoding="utf-8")
    >>> read_reference_streams(["ref1.txt", "ref2.txt"])
    [['a cat', 'the dog'], ['one cat', 'a dog']]
    """
    if isinstance(paths, str | bytes):
        raise InputError("give a list of reference files, not a single path string")
    if not paths:
        raise EmptyInputError("no reference file given")
    streams = {source_name(p): read_segments(p) for p in paths}
    if len(streams) != len(paths):
        raise InputError("the same reference file is given twice")
    check_same_count(streams)
    return list(streams.values())
