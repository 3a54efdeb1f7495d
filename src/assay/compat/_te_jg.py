"""trec_eval 10.0's judgment-group measures (``-R qrels_jg``, ``-m qrels_jg``): ``map_avgjg``,
``P_avgjg`` and ``Rprec_mult_avgjg``.

As ``form_res_rels_jg.c`` and ``m_*_avgjg.c`` compute them: every judgment group (JG) of a
topic is an ordinary set of judgments, and the run's ranking (ties by docno descending, ``-M``,
``-J`` and ``-l`` as usual) is scored against each; the topic's value is the sum over its JGs
in JG byte order, divided by the number of JGs when there is more than one. Topics are then
averaged as usual.

Here every (topic, JG) pair becomes one query of an ordinary evaluation (the run's ranking of
the topic repeated for each of its JGs), scored by the kernels of ``map``, ``P`` and
``Rprec_mult`` — their per-JG arithmetic is the same as the ``avgjg`` code's — and the values
are then summed per topic in order. The repeated rankings are built by indexing: the run's
document codes, id table and scores are taken row by row for every group (integer arrays, no
per-topic copies of ids), so the extra memory is a few integers per repeated row.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ..data import Conventions, Qrels, Run, rank
from ..errors import MissingQueryError
from ._te_context import TrecContext
from ._te_formats import JudgmentGroups

Kernel = Callable[[TrecContext, Any], list[Any]]  # Any: a measure's parsed parameters; outputs


class JgContext:
    """A run scored against every judgment group of every topic."""

    def __init__(
        self,
        jgs: JudgmentGroups,
        run: Run,
        *,
        relevance_level: int,
        depth: int | None,
        judged_only: bool,
        complete: bool,
        stand_in: str,
    ) -> None:
        import pyarrow as pa
        import pyarrow.compute as pc

        from .._arrow import to_np
        from ._te_prefs_fast import byte_codes

        # (topic, JG) pairs in byte order: the groups, numbered 0.. (composite ids
        # "topic<TAB>jg" sort the same way, as ids hold no white space)
        tcode, jcode = byte_codes(jgs.query), byte_codes(jgs.jg)
        nj = int(jcode.max()) + 1 if len(jcode) else 1
        ukey, first = np.unique(tcode * nj + jcode, return_index=True)
        gq = jgs.query[first]
        self.queries = [str(q) for q in gq[np.flatnonzero(np.diff(ukey // nj, prepend=-1))]]
        self.nq = len(self.queries)
        gt = np.cumsum(np.diff(ukey // nj, prepend=-1) != 0) - 1  # each group's topic
        self.n_groups = np.bincount(gt, minlength=self.nq).astype(np.int64)
        sep = "\t"
        ids = pa.array([f"{q}{sep}{g}" for q, g in zip(gq, jgs.jg[first], strict=True)])
        composite = pc.binary_join_element_wise(
            pa.array(jgs.query, pa.string()), pa.array(jgs.jg, pa.string()), sep
        )
        qrels = Qrels.from_columns(composite, jgs.doc, jgs.grade, source=jgs.source)
        # every group ranks its topic's results: rows of the run taken by index, no copies of
        # ids (the run's document codes and id table are shared)
        found = pc.index_in(pa.array(self.queries, pa.string()), run.query_ids)
        t = to_np(pc.fill_null(found, -1)).astype(np.int64)
        if not complete and (t < 0).any():
            q = self.queries[int(np.flatnonzero(t < 0)[0])]
            raise MissingQueryError(
                f"qrels_jg topic {q!r} has no results in run {run.name!r}; trec_eval 10 "
                "stops here: use -c (complete=True) to score topics without results"
            )
        off = np.asarray(run.offsets).astype(np.int64)
        doc_ids = run.doc_ids
        dcodes = np.asarray(run.doc_codes).astype(np.int64)
        scores = np.asarray(run.scores, dtype=np.float64)
        if (t < 0).any():  # -c: a topic without results ranks the stand-in document alone
            extra = len(doc_ids)
            doc_ids = pa.concat_arrays([doc_ids.cast(pa.string()), pa.array([stand_in])])
            dcodes = np.append(dcodes, extra)
            scores = np.append(scores, 1.0)
        tg = t[gt]
        lo = np.where(tg >= 0, off[np.maximum(tg, 0)], len(scores) - 1)
        size = np.where(tg >= 0, off[np.maximum(tg, 0) + 1] - lo, 1)
        cut = np.cumsum(size)
        rows = np.arange(int(cut[-1]) if len(cut) else 0) - np.repeat(cut - size - lo, size)
        expanded = Run.from_codes(
            ids,
            doc_ids,
            np.repeat(np.arange(len(ukey)), size),
            dcodes[rows],
            scores[rows],
            name=run.name,
            tag=run.tag,
        )
        del rows
        conv = Conventions(ties="docno", missing="zero", judged_only=judged_only)
        ranked, _ = rank(qrels, expanded, conv, depth=depth)
        self.ctx = TrecContext(ranked, relevance_level)
        at = pc.index_in(ids, pa.array(ranked.query_ids.tolist(), pa.string()))
        self.order = to_np(at).astype(np.int64)

    def averaged(self, kernel: Kernel, params: Any) -> list[Any]:  # Any: as Kernel's
        """``kernel``'s outputs per JG, summed per topic in JG order and divided by the
        number of JGs when there is more than one."""
        first = np.concatenate(([0], np.cumsum(self.n_groups)[:-1]))
        out = []
        for values in kernel(self.ctx, params):
            v = np.asarray(values, dtype=np.float64)[self.order]
            # 0.0 + v0 + v1 + ... in JG order, one JG index at a time for all topics (adding
            # 0.0 where a topic has no more JGs leaves its sum unchanged)
            per = np.zeros(self.nq)
            for j in range(int(self.n_groups.max()) if self.nq else 0):
                has = j < self.n_groups
                per = per + np.where(has, v[np.minimum(first + j, len(v) - 1)], 0.0)
            out.append(np.where(self.n_groups > 1, per / np.maximum(self.n_groups, 1), per))
        return out
