"""Evaluation on Dask (extra ``assay[dist]``): runs as Dask DataFrames, evaluated partition
by partition on any scheduler, with the same per-query values as :func:`assay.evaluate`.

Each partition must hold whole queries; :func:`evaluate` shuffles the rows by query first
unless ``shuffled=True`` says they already are. Only per-query values travel back to the
client, and they are combined in the qrels' query order, so the result does not depend on
the number of partitions, workers or threads. :func:`read_trec_run` reads a TREC run file
as a Dask DataFrame in byte ranges (the workers need the file at the same path);
:func:`evaluate_files` evaluates run files on a scheduler (``assay evaluate --dask``).
"""

from __future__ import annotations

from .evaluate import evaluate
from .files import evaluate_files
from .trec import read_trec_run

__all__ = ["evaluate", "evaluate_files", "read_trec_run"]
