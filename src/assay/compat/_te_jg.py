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
are then summed per topic in order.
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
        groups = jgs.groups
        self.queries = list(groups)
        self.nq = len(self.queries)
        sep = "\t"  # ids hold no white space, so (topic, JG) pairs keep their byte order
        composite = np.array(
            [q + sep + g for q, g in zip(jgs.query.tolist(), jgs.jg.tolist(), strict=True)],
            dtype=object,
        )
        qrels = Qrels.from_columns(composite, jgs.doc, jgs.grade, source=jgs.source)
        index = {str(t): i for i, t in enumerate(run.query_ids.to_pylist())}
        off = np.asarray(run.offsets)
        table = run.to_arrow()
        docs = np.array(table.column("doc").to_pylist(), dtype=object)
        scores = np.asarray(run.scores, dtype=np.float64)
        parts_q: list[np.ndarray] = []
        parts_d: list[np.ndarray] = []
        parts_s: list[np.ndarray] = []
        self.n_groups = np.zeros(self.nq, dtype=np.int64)
        for i, (q, gs) in enumerate(groups.items()):
            self.n_groups[i] = len(gs)
            t = index.get(q)
            if t is None and not complete:
                raise MissingQueryError(
                    f"qrels_jg topic {q!r} has no results in run {run.name!r}; trec_eval 10 "
                    "stops here: use -c (complete=True) to score topics without results"
                )
            if t is None:
                d, s = np.array([stand_in], dtype=object), np.array([1.0])
            else:
                d, s = docs[off[t] : off[t + 1]], scores[off[t] : off[t + 1]]
            for g in gs:
                parts_q.append(np.full(len(d), q + sep + g, dtype=object))
                parts_d.append(d)
                parts_s.append(s)
        expanded = Run.from_columns(
            np.concatenate(parts_q),
            np.concatenate(parts_d),
            np.concatenate(parts_s),
            name=run.name,
            tag=run.tag,
        )
        conv = Conventions(ties="docno", missing="zero", judged_only=judged_only)
        ranked, _ = rank(qrels, expanded, conv, depth=depth)
        self.ctx = TrecContext(ranked, relevance_level)
        at = {str(c): i for i, c in enumerate(ranked.query_ids.tolist())}
        self.order = np.array(
            [at[q + sep + g] for q, gs in groups.items() for g in gs], dtype=np.int64
        )

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
