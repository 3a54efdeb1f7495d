"""``assay embed EMBEDDINGS QUERY_LABELS [EMBEDDINGS...]``: retrieval measures of embeddings
(Precision@1, R-Precision, MAP@R, Recall@k, MRR, NDCG@k), with error-vs-reject areas when
per-query confidences are given; with several embeddings of the same queries (or
``--baseline``), each against the baseline by paired tests over queries
(:func:`assay.embeddings.compare`). Only typer and the standard library are imported at module level;
NumPy, faiss and :mod:`assay.embeddings` load inside the command."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from .._options import PairedTest
from ..embeddings.options import Distance, EmbeddingView, KnnBackend
from ._common import (
    AlphaOption,
    CorrectionOption,
    FormatOption,
    OutputOption,
    QuietOption,
    ReportOption,
    SaveOption,
    SeedOption,
    busy,
    check_baseline,
    check_report,
    distinct_inputs,
    errors,
    present,
    unique_names,
    warn,
    write_documents,
)

__all__ = ["embed", "register"]

#: The title of the ``--report`` page.
TITLE = "assay embed"


def embed(
    embeddings: Annotated[
        str, typer.Argument(help="Query embeddings: .npy, .npz, .parquet, .csv or .tsv.")
    ],
    query_labels: Annotated[str, typer.Argument(help="Query labels, one per line.")],
    more: Annotated[
        list[str] | None,
        typer.Argument(
            help="More embeddings of the same queries: every one is tested against the "
            "baseline, paired over queries.",
            show_default=False,
        ),
    ] = None,
    reference: Annotated[
        list[str] | None,
        typer.Option(
            "--reference",
            help="Reference embeddings searched (default: the queries, leave-one-out); with "
            "several EMBEDDINGS, one per file, in order.",
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
    baseline: Annotated[
        str | None,
        typer.Option(
            help="The embeddings every other is tested against (default: the first); a file "
            "not among EMBEDDINGS is added."
        ),
    ] = None,
    test: Annotated[
        PairedTest, typer.Option(help="Paired test of the per-query values (several EMBEDDINGS).")
    ] = "randomization",
    n_resamples: Annotated[int, typer.Option(help="Resamples (tests and intervals).")] = 10000,
    seed: SeedOption = 0,
    confidence_level: Annotated[
        float,
        typer.Option(
            "--confidence-level",
            help="Level of the confidence intervals (several EMBEDDINGS; --confidence is the "
            "per-query confidences).",
        ),
    ] = 0.95,
    correction: CorrectionOption = "holm",
    alpha: AlphaOption = 0.05,
    fmt: FormatOption = None,
    output: OutputOption = None,
    report: ReportOption = None,
    save: SaveOption = None,
    quiet: QuietOption = False,
) -> None:
    """Retrieval measures of embeddings: each query is scored by the classes of its nearest
    references (faiss or NumPy, exact, ties to the lower reference index); with several
    embeddings of the same queries, paired tests of each against a baseline."""
    with errors():
        import warnings

        from ..classification import read_labels, read_scores
        from ..embeddings import evaluate
        from ..errors import AssayWarning, InputError, OptionError

        check_report(report)
        _check_comparison(n_resamples, seed, confidence_level, alpha)
        if (reference is None) != (reference_labels is None):
            raise OptionError(
                "give --reference and --reference-labels together", option="reference"
            )
        paths = [embeddings, *(more or [])]
        check_baseline(baseline, paths, "embeddings")
        if baseline is not None and baseline not in paths:
            if reference is not None:
                raise OptionError(
                    "with --reference, --baseline must be one of the EMBEDDINGS files (each "
                    "has its --reference, in order)",
                    option="baseline",
                )
            paths = [baseline, *paths]
        if len(paths) > 1:
            _refuse_single(per_class, per_query, curve, confidence)
            comparison = _compare(
                paths,
                query_labels,
                reference,
                reference_labels,
                key,
                baseline=baseline,
                options={
                    "metrics": metric or None,
                    "k": k,
                    "distance": distance,
                    "exclude_self": exclude_self,
                    "backend": backend,
                    "block_size": block_size,
                    "test": test,
                    "n_resamples": n_resamples,
                    "seed": seed,
                    "confidence": confidence_level,
                    "correction": correction,
                    "alpha": alpha,
                },
                quiet=quiet,
            )
            present(comparison.report(), fmt, output)
            if report is not None or save is not None:
                docs = [comparison.document()]
                write_documents(docs, report=report, save=save, title=TITLE, quiet=quiet)
            return
        if baseline is not None:
            raise InputError(
                f"--baseline {baseline} is the only embeddings file: give at least one other "
                "to compare with it"
            )
        if reference is not None and len(reference) > 1:
            raise OptionError(
                f"{len(reference)} --reference files for one EMBEDDINGS file", option="reference"
            )
        view = _view(per_class, per_query, curve, confidence)
        # Labels first: an .npy/.npz header says how many rows it holds before its data is
        # read, so a count that cannot match is refused without loading the array.
        q_labels = list(read_labels(query_labels, name="labels"))
        q = _read_counted(embeddings, key, q_labels, query_labels)
        r = r_labels = None
        if reference is not None and reference_labels is not None:
            r_labels = list(read_labels(reference_labels, name="labels"))
            r = _read_counted(reference[0], key, r_labels, reference_labels)
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
            write_documents(docs, report=report, save=save, title=TITLE, quiet=quiet)


def _check_comparison(n_resamples: int, seed: int, confidence: float, alpha: float) -> None:
    """The comparison's numeric options, refused when bad even with one EMBEDDINGS file
    (where they are not used): a typo is an error, not a silently ignored option."""
    from .. import _options as opt

    opt.n_resamples(n_resamples)
    opt.seed(seed)
    opt.confidence(confidence)
    opt.alpha(alpha)


def _refuse_single(per_class: bool, per_query: bool, curve: bool, confidence: str | None) -> None:
    """The options of one embedding's report, which a comparison does not have."""
    from ..errors import OptionError

    given = [
        name
        for name, on in (
            ("--per-class", per_class),
            ("--per-query", per_query),
            ("--curve", curve),
            ("--confidence", confidence is not None),
        )
        if on
    ]
    if given:
        raise OptionError(
            f"{', '.join(given)}: for one EMBEDDINGS file; several are compared against the "
            "baseline (scores and differences)",
            option=given[0].lstrip("-").replace("-", "_"),
        )


def _compare(
    paths: list[str],
    query_labels: str,
    reference: list[str] | None,
    reference_labels: str | None,
    key: str | None,
    *,
    baseline: str | None,
    options: dict[str, Any],  # Any: compare's options, of several types
    quiet: bool,
) -> Any:  # Any: a PairedComparison (assay.report loads inside the command)
    """Read every embeddings file (and its reference set), then compare them."""
    import warnings

    from ..classification import read_labels
    from ..embeddings import compare
    from ..errors import AssayWarning, OptionError

    distinct_inputs(paths, "embeddings")
    if reference is not None and len(reference) != len(paths):
        raise OptionError(
            f"give one --reference per EMBEDDINGS file, in order: {len(paths)} files, "
            f"{len(reference)} --reference",
            option="reference",
        )
    names = unique_names(paths)
    q_labels = list(read_labels(query_labels, name="labels"))
    queries = {
        n: _read_counted(p, key, q_labels, query_labels) for n, p in zip(names, paths, strict=True)
    }
    refs = r_labels = None
    if reference is not None and reference_labels is not None:
        r_labels = list(read_labels(reference_labels, name="labels"))
        refs = {
            n: _read_counted(p, key, r_labels, reference_labels)
            for n, p in zip(names, reference, strict=True)
        }
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", AssayWarning)
        with busy(f"nearest neighbours and {options['test']} tests", quiet):
            result = compare(
                queries,
                q_labels,
                refs,
                r_labels,
                baseline=None if baseline is None else names[paths.index(baseline)],
                **options,
            )
    for w in dict.fromkeys(str(w.message) for w in caught):  # each system warns alike
        warn(w)
    return result


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
