"""trec_eval's ``-Z zscores_file``: every per-topic value becomes a z-score against a reference
(mean, standard deviation) given per topic and output name, before it is printed and averaged.

As trec_eval 10.0 does it (``get_zscores.c``, ``convert_zscores.c``, ``trec_eval.c``,
``meas_print_*.c``):

- the file has lines ``qid measure mean stddev`` (whitespace-separated, exactly four fields;
  any other line, a blank one included, is malformed);
- each per-topic value ``v`` of an output named ``measure`` (``P_5``, ``num_ret``, ``gm_map``'s
  log(max(AP, 1e-5)), ``num_q``'s 1, ...) becomes ``(v - mean) / stddev``; with ``stddev`` 0 it
  becomes 0 when ``v == mean`` and -1000000 otherwise; a (topic, output) pair absent from the
  file gives -1000000 (:data:`MISSING_ZSCORE`);
- the ``all`` line of each output is made from the z-scores by that output's usual rule (mean;
  counts summed; ``gm_*`` geometric; ``num_q`` the number of topics; with ``-c`` ``num_rel``
  stays the raw count of relevant qrels lines: QUIRK);
- every numeric line prints as ``Z%-22s\\t%s\\t%6.4f`` (counts too); ``relstring`` and
  ``runid`` print unchanged.

Deliberate differences: a mean or stddev that is not a number is an error (trec_eval's ``atof``
reads it as 0), and so is a (topic, measure) pair given twice (trec_eval's binary search picks
either).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import InputError
from ._te_measure_specs import TrecEvalError

#: What trec_eval prints for a value whose mean and stddev are not in the file.
MISSING_ZSCORE = -1000000.0

#: ``{query: {output name: (mean, stddev)}}``
ZScores = dict[str, dict[str, tuple[float, float]]]


def read_zscores(path: str | os.PathLike[str]) -> ZScores:
    """The reference means and standard deviations of a trec_eval z-scores file.

    A line that is not ``qid measure mean stddev`` raises one :class:`~assay.errors.InputError`
    naming the file and the line.
    """
    source = os.fspath(path)
    try:
        data = Path(source).read_bytes()
    except OSError as exc:
        raise InputError(f"cannot read z-scores file: {exc.strerror}", source=source) from None
    if not data:
        raise InputError("z-scores file is empty", source=source)
    text = data.decode("utf-8", errors="surrogateescape")
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    out: ZScores = {}
    for i, line in enumerate(lines, start=1):
        fields = line.split()
        if len(fields) != 4:
            raise InputError(
                f"malformed z-scores line: expected 'qid measure mean stddev', got "
                f"{len(fields)} field(s)",
                source=source,
                line=i,
            )
        qid, meas, mean, std = fields
        try:
            pair = (float(mean), float(std))
        except ValueError:
            raise InputError(
                f"malformed z-scores line: mean and stddev must be numbers, got {mean!r} {std!r}",
                source=source,
                line=i,
            ) from None
        per = out.setdefault(qid, {})
        if meas in per:
            raise InputError(
                f"z-scores line repeats topic {qid!r} measure {meas!r}", source=source, line=i
            )
        per[meas] = pair
    return out


def coerce_zscores(zscores: Any) -> ZScores:
    """``zscores=`` as given to :func:`~assay.compat.trec_eval.evaluate_trec`: a path (read
    with :func:`read_zscores`) or a mapping ``{query: {measure: (mean, stddev)}}``."""
    if isinstance(zscores, (str, os.PathLike)):
        return read_zscores(zscores)
    if not isinstance(zscores, Mapping):
        raise TrecEvalError(
            "zscores must be a path or a mapping {query: {measure: (mean, stddev)}}, got "
            f"{type(zscores).__name__}"
        )
    out: ZScores = {}
    for qid, per in zscores.items():
        if not isinstance(per, Mapping):
            raise TrecEvalError(f"zscores[{qid!r}] must be a mapping {{measure: (mean, stddev)}}")
        row: dict[str, tuple[float, float]] = {}
        for meas, pair in per.items():
            try:
                mean, std = pair
                row[str(meas)] = (float(mean), float(std))
            except (TypeError, ValueError):
                raise TrecEvalError(
                    f"zscores[{qid!r}][{meas!r}] must be a pair (mean, stddev) of numbers, "
                    f"got {pair!r}"
                ) from None
        out[str(qid)] = row
    return out


def zscore(value: float, mean: float, stddev: float) -> float:
    """One z-score as trec_eval computes it (``convert_zscores.c``)."""
    if stddev != 0:  # NaN counts as non-zero, as in C
        return (value - mean) / stddev
    return 0.0 if value == mean else MISSING_ZSCORE


def convert(name: str, values: Any, queries: list[str], zscores: ZScores) -> np.ndarray:
    """The z-scores of one output's per-topic values (``values[i]`` of ``queries[i]``)."""
    arr = np.asarray(values, dtype=np.float64)
    out = np.empty(len(arr), dtype=np.float64)
    for i, (q, v) in enumerate(zip(queries, arr.tolist(), strict=True)):
        ref = zscores.get(q, {}).get(name)
        out[i] = MISSING_ZSCORE if ref is None else zscore(v, ref[0], ref[1])
    return out
