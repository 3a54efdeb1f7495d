"""CSV/TSV records with the line where each starts (Python's csv module, strict), for the
readers of the families' files (ratings, labels, ...): the public face of
:mod:`assay.io._csv`, whose module documentation gives the rules."""

from __future__ import annotations

from ._csv import MAX_FIELD, csv_rows

__all__ = ["MAX_FIELD", "csv_rows"]
