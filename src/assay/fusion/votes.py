"""The reader of rank aggregation's vote files (:func:`assay.fusion.aggregate`, ``assay
aggregate``); the generic line and column helpers are :mod:`assay.io.lines`.

- **votes** — one ranking per line, best first; a line holding a comma is split on commas
  (white space around each candidate trimmed), otherwise on white space. Blank lines and lines
  starting with ``#`` are skipped; a candidate twice in one ranking is an error. A file whose
  every line is one candidate, each a different one, is warned about (an
  :class:`~assay.errors.InputWarning`): it is most likely one ranking written vertically.
"""

from __future__ import annotations

import os
import re
import warnings

from ..errors import EmptyInputError, InputWarning, ParseError
from ..io.lines import SPACE as _SPACE
from ..io.lines import PathLike, split_lines
from ..io.lines import file_text as _text

__all__ = ["read_votes"]

_PLAIN = re.compile(f"[^{_SPACE}]+")


def read_votes(path: PathLike) -> list[list[str]]:
    """Read a vote file: one ranking per line, best first.

    A line holding a comma is split on commas (white space around each candidate trimmed),
    otherwise on white space. Blank lines and lines starting with ``#`` are skipped. A file
    whose every line is one candidate, each a different one, is warned about (an
    :class:`~assay.errors.InputWarning`): it is most likely one ranking written vertically.

    Parameters
    ----------
    path : str or path-like
        The vote file, UTF-8 (gzip-compressed files are decompressed; ``-`` reads standard
        input).

    Returns
    -------
    list of list of str
        The rankings, in file order, each best first; :func:`aggregate` takes them.

    Raises
    ------
    ParseError
        A ranking with an empty candidate, or a candidate twice in one ranking.
    EmptyInputError
        A file without rankings.

    Examples
    --------
    >>> from assay.fusion import aggregate, read_votes
    >>> with open("votes.txt", "w") as fh:
    ...     _ = fh.write("# one ranking per line\\nA B C\\nA C B\\nB, A, C\\n")
    >>> votes = read_votes("votes.txt")
    >>> votes
    [['A', 'B', 'C'], ['A', 'C', 'B'], ['B', 'A', 'C']]
    >>> aggregate(votes).order
    ['A', 'B', 'C']
    """
    source = os.fspath(path)
    votes = []
    for no, line in enumerate(split_lines(_text(path), source), 1):
        s = line.strip(_SPACE)
        if not s or s.startswith("#"):
            continue
        items = [c.strip(_SPACE) for c in s.split(",")] if "," in s else _PLAIN.findall(s)
        if any(not c for c in items):
            raise ParseError("empty candidate", source=source, line=no)
        if len(set(items)) != len(items):
            raise ParseError("a candidate appears twice in this ranking", source=source, line=no)
        votes.append(items)
    if not votes:
        raise EmptyInputError("no rankings", source=source)
    _check_vertical(votes, source)
    return votes


def _check_vertical(votes: list[list[str]], source: str) -> None:
    """Warn when every ranking holds one candidate, each a different one: either votes for
    a single favourite that all differ (every candidate ties) or, far likelier, one ranking
    written one candidate per line, which is read as that many one-candidate votes."""
    if len(votes) < 2 or any(len(v) != 1 for v in votes):
        return
    if len({v[0] for v in votes}) == len(votes):
        warnings.warn(
            f"{source}: every one of the {len(votes)} rankings holds one candidate, each a "
            "different one, so all of them tie; a vote file holds one ranking per line "
            "(best first: a b c): write a ranking on one line",
            InputWarning,
            stacklevel=2,
        )
