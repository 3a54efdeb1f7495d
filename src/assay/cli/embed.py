"""``assay embed EMBEDDINGS QUERY_LABELS``: retrieval measures of embeddings (Precision@1,
R-Precision, MAP@R, Recall@k, MRR, NDCG@k), with error-vs-reject areas when per-query
confidences are given. Only typer and the standard library are imported at module level;
NumPy, faiss and :mod:`assay.embeddings` load inside the command."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from ..embeddings.options import Distance, EmbeddingView, KnnBackend
from ._common import (
    FormatOption,
    OutputOption,
    QuietOption,
    ReportOption,
    SaveOption,
    busy,
    check_report,
    errors,
    present,
    warn,
    write_documents,
)

__all__ = ["embed", "register"]


def embed(
    embeddings: Annotated[
        str, typer.Argument(help="Query embeddings: .npy, .npz, .parquet, .csv or .tsv.")
    ],
    query_labels: Annotated[str, typer.Argument(help="Query labels, one per line.")],
    reference: Annotated[
        str | None,
        typer.Option(
            "--reference",
            help="Reference embeddings searched (default: the queries, leave-one-out).",
        ),
    ] = None,
    reference_labels: Annotated[
        str | None, typer.Option("--reference-labels", help="Reference labels, one per line.")
    ] = None,
    metric: Annotated[
        list[str] | None,
        typer.Option(
            "-m",
            "--metric",
            help="Metric, repeatable: precision@1, r_precision, map@r, recall@4, recall_ir@10, "
            "mrr, ndcg@10, map (default: precision@1 r_precision map@r).",
        ),
    ] = None,
    distance: Annotated[
        Distance, typer.Option(help="euclidean (squared L2), cosine or inner (product).")
    ] = "euclidean",
    k: Annotated[
        int | None,
        typer.Option(
            "-k", help="Cutoff of the metrics named without one (default: the largest R)."
        ),
    ] = None,
    exclude_self: Annotated[
        bool | None,
        typer.Option(
            "--exclude-self/--include-self",
            help="Query i is reference i and not its own neighbour (default: exactly when "
            "there is no --reference).",
        ),
    ] = None,
    backend: Annotated[
        KnnBackend, typer.Option(help="k-NN search: auto (faiss when installed), faiss, numpy.")
    ] = "auto",
    block_size: Annotated[
        int | None, typer.Option(help="Queries per search block (bounds the memory).")
    ] = None,
    confidence: Annotated[
        str | None,
        typer.Option(
            "--confidence",
            help="Per-query confidences, one number per line (higher: more confident): adds "
            "the error-vs-reject areas (AURC).",
        ),
    ] = None,
    key: Annotated[
        str | None, typer.Option(help="Array (.npz) or list column (.parquet) to read.")
    ] = None,
    per_class: Annotated[bool, typer.Option("--per-class", help="One row per class.")] = False,
    per_query: Annotated[bool, typer.Option("--per-query", help="One row per query.")] = False,
    curve: Annotated[
        bool, typer.Option("--curve", help="The error-vs-reject curves (needs --confidence).")
    ] = False,
    fmt: FormatOption = None,
    output: OutputOption = None,
    report: ReportOption = None,
    save: SaveOption = None,
    quiet: QuietOption = False,
) -> None:
    """Retrieval measures of embeddings: each query is scored by the classes of its nearest
    references (faiss or NumPy, exact, ties to the lower reference index)."""
    with errors():
        import warnings

        from ..classification import read_labels, read_scores
        from ..embeddings import evaluate
        from ..errors import AssayWarning, InputError, OptionError

        check_report(report)
        view = _view(per_class, per_query, curve, confidence)
        if (reference is None) != (reference_labels is None):
            raise OptionError(
                "give --reference and --reference-labels together", option="reference"
            )
        # Labels first: an .npy/.npz header says how many rows it holds before its data is
        # read, so a count that cannot match is refused without loading the array.
        q_labels = list(read_labels(query_labels, name="labels"))
        q = _read_counted(embeddings, key, q_labels, query_labels)
        r = r_labels = None
        if reference is not None and reference_labels is not None:
            r_labels = list(read_labels(reference_labels, name="labels"))
            r = _read_counted(reference, key, r_labels, reference_labels)
        conf = None
        if confidence is not None:
            conf = read_scores(confidence, name="confidences")
            if len(conf) != len(q_labels):  # one query per label
                raise InputError(
                    f"{confidence} has {len(conf)} confidences but {embeddings} has "
                    f"{len(q_labels)} queries"
                )
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", AssayWarning)
            with busy("nearest neighbours and metrics", quiet):
                result = evaluate(
                    q,
                    q_labels,
                    r,
                    r_labels,
                    metrics=metric or None,
                    k=k,
                    distance=distance,
                    exclude_self=exclude_self,
                    backend=backend,
                    block_size=block_size,
                    confidences=conf,
                    view=view,
                )
        for w in caught:
            warn(str(w.message))
        present(result.report(), fmt, output)
        if report is not None or save is not None:
            docs = [result.document()]
            write_documents(docs, report=report, save=save, title="assay embed", quiet=quiet)


def _view(per_class: bool, per_query: bool, curve: bool, confidence: str | None) -> EmbeddingView:
    """The report's view: summary unless one flag asks otherwise."""
    flags: tuple[tuple[EmbeddingView, bool], ...] = (
        ("class", per_class),
        ("query", per_query),
        ("curve", curve),
    )
    chosen = [name for name, on in flags if on]
    from ..errors import OptionError

    if len(chosen) > 1:
        raise OptionError("choose one of --per-class, --per-query and --curve", option="view")
    if chosen == ["curve"] and confidence is None:
        raise OptionError("--curve needs --confidence (per-query confidences)", option="curve")
    return chosen[0] if chosen else "summary"


def _read_counted(embeddings: str, key: str | None, labels: list[str], path: str) -> Any:
    """The embeddings of ``embeddings``, one per label of ``path``: the count is checked from
    an .npy/.npz header before the data is read, and from the array otherwise."""
    from ..embeddings.reader import embeddings_shape, read_embeddings

    shape = embeddings_shape(embeddings, key=key)
    if shape is not None:
        _same_count(labels, path, shape[0], embeddings)
    arr = read_embeddings(embeddings, key=key)
    _same_count(labels, path, arr.shape[0], embeddings)
    return arr


def _same_count(labels: list[str], path: str, n: int, embeddings: str) -> None:
    from ..errors import InputError

    if len(labels) != n:
        raise InputError(f"{path} has {len(labels)} labels but {embeddings} has {n} embeddings")


def register(app: typer.Typer) -> None:
    """Add ``assay embed`` to ``app``."""
    app.command("embed")(embed)
