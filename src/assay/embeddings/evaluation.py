"""One call from embeddings to what ``assay embed`` prints and writes: :func:`evaluate`
(the retrieval measures, and the error-vs-reject curves when per-query confidences are
given) returning an :class:`EmbeddingEvaluation`, which builds its own report and page."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from numpy.typing import ArrayLike

from .._result import Result
from ..report.reported import Reported
from .confidence import ErrorRejectCurve, error_reject_curve
from .options import Distance, EmbeddingView, KnnBackend
from .report import embedding_report, error_reject_plot
from .result import RetrievalMetrics

if TYPE_CHECKING:
    from ..metrics.registry import Metric
    from ..report.document import Document
    from ..report.output import Report

__all__ = ["EmbeddingEvaluation", "evaluate"]


@dataclass(frozen=True, eq=False, repr=False)
class EmbeddingEvaluation(Result, Reported):
    """The retrieval measures of a set of queries (``retrieval``), the error-vs-reject curve
    of each measure when per-query confidences were given (``curves``, else ``None``) and
    the ``view`` the report shows (``"summary"``, ``"class"``, ``"query"`` or ``"curve"``).

    :meth:`report` is the table ``assay embed`` prints, :meth:`document` its ``--report``
    page's content (the table and the error-vs-reject plot); ``records()`` are the report's.
    :func:`evaluate` builds it.

    Parameters
    ----------
    retrieval : RetrievalMetrics
        The retrieval measures.
    curves : mapping of str to ErrorRejectCurve, optional
        The error-vs-reject curve of each measure (None: no confidences were given).
    view : {"summary", "class", "query", "curve"}
        What the report shows.

    Examples
    --------
    >>> import numpy as np
    >>> from assay.embeddings import EmbeddingEvaluation, retrieval_metrics
    >>> x = np.array([[0.0, 0.0], [0.1, 0.0], [5.0, 5.0], [5.1, 5.0]])
    >>> found = retrieval_metrics(x, ["a", "a", "b", "b"], metrics=["precision@1"], backend="numpy")
    >>> [row["class"] for row in EmbeddingEvaluation(found, view="class").records()]
    ['a', 'b']
    """

    family = "embeddings"

    retrieval: RetrievalMetrics
    curves: Mapping[str, ErrorRejectCurve] | None = None
    view: EmbeddingView = "summary"

    @property
    def provenance(self) -> Mapping[str, Any]:
        """The retrieval's provenance (what produced it)."""
        return self.retrieval.provenance

    def records(self) -> list[dict[str, Any]]:
        return [dict(row) for row in self.report().records]

    def report(self) -> Report:
        return embedding_report(self.retrieval, view=self.view, curves=self.curves)

    def document(self) -> Document:
        from ..report.document import section
        from ..report.sections_tasks import tables_document

        plots = [section("Error against rejection", error_reject_plot(self.curves or {}))]
        return tables_document("Embeddings", self.family, self.report(), sections=plots)


def evaluate(
    query_embeddings: ArrayLike,
    query_labels: ArrayLike,
    reference_embeddings: ArrayLike | None = None,
    reference_labels: ArrayLike | None = None,
    *,
    metrics: str | Metric | Sequence[str | Metric] | None = None,
    k: int | None = None,
    distance: Distance = "euclidean",
    exclude_self: bool | None = None,
    backend: KnnBackend = "auto",
    block_size: int | None = None,
    confidences: ArrayLike | None = None,
    view: EmbeddingView = "summary",
) -> EmbeddingEvaluation:
    """Retrieval measures of embeddings and, with per-query ``confidences``, the
    error-vs-reject curve of each measure: what ``assay embed`` shows.

    Parameters
    ----------
    query_embeddings, query_labels
        The queries (n × d) and their classes (n).
    reference_embeddings, reference_labels
        The set searched (default: the queries, leave-one-out).
    metrics
        Measure names (default: :data:`~assay.embeddings.DEFAULT_METRICS`); ``k``,
        ``distance``, ``exclude_self``, ``backend`` and ``block_size`` as
        :func:`~assay.embeddings.retrieval_metrics`.
    confidences
        One confidence per query (higher: more confident), or ``None``.
    view
        What the report shows: ``"summary"``, ``"class"``, ``"query"`` or ``"curve"`` (the
        curves' points; needs ``confidences``).

    Returns
    -------
    EmbeddingEvaluation
        The measures, the curves and the view; ``report()``, ``document()`` and
        ``html()`` give what ``assay embed`` prints and writes.

    Examples
    --------
    >>> import numpy as np
    >>> from assay.embeddings import evaluate
    >>> x = np.array([[0.0, 0.0], [0.1, 0.0], [5.0, 5.0], [5.1, 5.0]])
    >>> r = evaluate(x, ["a", "a", "b", "b"], metrics=["precision@1"], backend="numpy")
    >>> r.records()[0]["mean"]
    1.0
    """
    from .._options import choice
    from ..errors import InputError
    from .measures import DEFAULT_METRICS
    from .retrieval import retrieval_metrics

    view = choice(view, EmbeddingView, "view")
    result = retrieval_metrics(
        query_embeddings,
        query_labels,
        reference_embeddings,
        reference_labels,
        metrics=list(DEFAULT_METRICS) if metrics is None else metrics,
        k=k,
        distance=distance,
        exclude_self=exclude_self,
        backend=backend,
        block_size=block_size,
    )
    curves: dict[str, ErrorRejectCurve] | None = None
    if confidences is not None:
        import numpy as np

        conf = np.asarray(confidences)
        if conf.ndim != 1 or len(conf) != result.n_queries:
            raise InputError(
                f"{conf.size} confidences given for {result.n_queries} queries (one per query)"
            )
        curves = {m: error_reject_curve(result, conf, metric=m) for m in result.metrics}
    return EmbeddingEvaluation(result, curves, view)
