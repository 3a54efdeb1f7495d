"""The data model: relevance judgments (:class:`Qrels`), system output (:class:`Run`), the
evaluation conventions, and the join that turns them into ranked lists (:func:`rank`).

Ids are strings kept exactly, as integer codes into Arrow dictionaries; rows are grouped by
query with CSR offsets. See :mod:`assay.data.ranked` for the joined form the metrics read.

:data:`RunLike` and :data:`QrelsLike` are the types of what functions accept in place of a
:class:`Run` or :class:`Qrels` (a path, a data frame, a ``{query: {doc: value}}`` dict): what
``Run.coerce`` and ``Qrels.coerce`` turn into one.
"""

from .conventions import DESCRIPTIONS, Conventions
from .join import RankInfo, missing_message, rank, rank_absent
from .qrels import Qrels, QrelsLike
from .ranked import NONPOOL, UNJUDGED, Ranked, seg_rev_cummax
from .run import Run, RunLike, default_name, trec_order
from .subtopics import Intents, RankedIntents, subtopic_codes

__all__ = [
    "DESCRIPTIONS",
    "NONPOOL",
    "UNJUDGED",
    "Conventions",
    "Intents",
    "Qrels",
    "QrelsLike",
    "RankInfo",
    "Ranked",
    "RankedIntents",
    "Run",
    "RunLike",
    "default_name",
    "missing_message",
    "rank",
    "rank_absent",
    "seg_rev_cummax",
    "subtopic_codes",
    "trec_order",
]
