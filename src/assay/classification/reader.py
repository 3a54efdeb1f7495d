"""Readers of the classification files: labels and scores, one value per item, in the layouts
of :mod:`assay.io.lines` (``.csv`` / ``.tsv`` with a header line and a named column, or one
value per line; ``-`` reads stdin; gzip is decompressed). Scores are finite numbers.
"""

from __future__ import annotations

import os

from ..io.lines import PathLike, read_column

__all__ = ["read_labels", "read_scores"]


def read_labels(
    path: PathLike,
    *,
    column: str | None = None,
    name: str = "labels",
    column_hint: str = "the column argument",
) -> list[str]:
    """The labels of a file, one per item, as strings (white space around them trimmed).

    ``column`` names the column of a ``.csv``/``.tsv`` file (needed when it has several);
    ``name`` is what the values are called in error messages and ``column_hint`` how the
    message tells the reader to name a column (the CLI passes its flags).

    Parameters
    ----------
    path
        The file (``-``: stdin; gzip decompressed).
    column, name, column_hint
        The column to read; what the values and the column option are called in messages.

    Returns
    -------
    list of str

    Examples
    --------
    >>> import pathlib, tempfile
    >>> from assay.classification import read_labels
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "gold.csv"
    >>> _ = path.write_text("id,label\\n1,cat\\n2,dog\\n")
    >>> read_labels(path, column="label")
    ['cat', 'dog']
    """
    values, _ = read_column(path, column=column, name=name, column_hint=column_hint)
    return values


def read_scores(
    path: PathLike,
    *,
    column: str | None = None,
    name: str = "scores",
    column_hint: str = "the column argument",
) -> list[float]:
    """The scores of a file, one finite number per item (same layouts as
    :func:`read_labels`); a value that is not a finite number is a :class:`ParseError`.

    Parameters
    ----------
    path
        The file (``-``: stdin; gzip decompressed).
    column, name, column_hint
        The column to read; what the values and the column option are called in messages.

    Returns
    -------
    list of float

    Examples
    --------
    >>> import pathlib, tempfile
    >>> from assay.classification import read_scores
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "scores.txt"
    >>> _ = path.write_text("0.9\\n-1e-3\\n")
    >>> read_scores(path)
    [0.9, -0.001]
    """
    from ..io.text import parse_number

    source = os.fspath(path)
    values, lines = read_column(path, column=column, name=name, column_hint=column_hint)
    return [parse_number(v, source, line) for v, line in zip(values, lines, strict=True)]
