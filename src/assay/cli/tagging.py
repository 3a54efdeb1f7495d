"""``assay tagging FILE [FILE...]``: span (chunk/entity) evaluation of CoNLL column files,
conlleval's way or strictly, and paired tests between taggers on the same gold tags."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from ..tagging.options import TaggingFormat, TaggingMode, TaggingScheme, TaggingTest
from ._common import (
    AlphaOption,
    ConfidenceOption,
    CorrectionOption,
    OutputOption,
    QuietOption,
    ReportOption,
    SaveOption,
    SeedOption,
    busy,
    check_report,
    emit,
    errors,
    present,
    unique_names,
    write_documents,
)

if TYPE_CHECKING:
    from ..tagging.conll import TagSequences

__all__ = ["register", "tagging"]

TaggingFormatOption = Annotated[
    TaggingFormat | None,
    typer.Option(
        "-f",
        "--format",
        help="Output format (default: table on a terminal, else tsv); conlleval: conlleval's "
        "own text.",
    ),
]


def _names(paths: list[str], columns: list[int]) -> list[str]:
    """One name per (file, prediction column): the file's name, with ``:COLUMN`` when a file
    gives several predictions."""
    files = unique_names(paths)
    if len(columns) == 1:
        return files
    return [f"{f}:{c}" for f in files for c in columns]


def _read(
    paths: list[str], gold: int, columns: list[int]
) -> tuple[TagSequences, dict[str, TagSequences]]:
    from ..tagging.conll import check_same_tags, read_conll

    data = [read_conll(p, gold=gold, pred=columns) for p in paths]
    for other in data[1:]:
        check_same_tags(data[0].gold, other.gold)
    preds = [seqs for d in data for seqs in d.predictions]
    return data[0].gold, dict(zip(_names(paths, columns), preds, strict=True))


def tagging(
    files: Annotated[
        list[str],
        typer.Argument(
            help="CoNLL column files (token ... gold prediction; a blank line between "
            "sentences; -DOCSTART- lines skipped). Several files: one tagger each, same gold."
        ),
    ],
    scheme: Annotated[
        TaggingScheme, typer.Option(help="Tagging scheme: which prefixes a tag may have.")
    ] = "iob2",
    mode: Annotated[
        TaggingMode,
        typer.Option(
            help="conlleval: an I- tag may open a chunk (conlleval, seqeval's default); "
            "strict: only well-formed chunks (seqeval's strict mode)."
        ),
    ] = "conlleval",
    gold_column: Annotated[
        int, typer.Option(help="Column of the gold tags, from 0 (or from the end: -1 is the last).")
    ] = -2,
    pred_column: Annotated[
        list[int] | None,
        typer.Option(
            help="Column of the predicted tags (repeat for several taggers). Default: -1."
        ),
    ] = None,
    baseline: Annotated[
        str | None,
        typer.Option(help="The tagger every other is tested against (default: the first)."),
    ] = None,
    test: Annotated[
        TaggingTest,
        typer.Option(
            help="Paired test on span F1, resampling sentences: bootstrap or randomization."
        ),
    ] = "bootstrap",
    n_resamples: Annotated[
        int | None,
        typer.Option(help="Resamples of the test (default 1000 bootstrap, 10000 randomization)."),
    ] = None,
    seed: SeedOption = 0,
    confidence: ConfidenceOption = 0.95,
    correction: CorrectionOption = "holm",
    alpha: AlphaOption = 0.05,
    fmt: TaggingFormatOption = None,
    output: OutputOption = None,
    report: ReportOption = None,
    save: SaveOption = None,
    quiet: QuietOption = False,
) -> None:
    """Span precision, recall and F1 per type (conlleval's numbers), token accuracy and
    nervaluate's partial matches; with several taggers, paired tests on span F1."""
    with errors():
        from ..tagging import evaluate

        check_report(report)
        gold, named = _read(files, gold_column, pred_column or [-1])
        # the spinner only where resampling makes it worth one: several taggers
        with busy(f"comparing taggers ({test}, {n_resamples} resamples)", quiet or len(named) < 2):
            result = evaluate(
                gold,
                named,
                scheme=scheme,
                mode=mode,
                baseline=baseline,
                test=test,
                n_resamples=n_resamples,
                seed=seed,
                confidence=confidence,
                correction=correction,
                alpha=alpha,
            )
        if fmt == "conlleval":
            emit(result.conlleval(), output)
        else:
            present(result.report(), fmt, output)
        if report is not None or save is not None:
            docs = [result.document()]
            write_documents(docs, report=report, save=save, title="assay tagging", quiet=quiet)


def register(app: typer.Typer) -> None:
    """Add ``assay tagging`` to ``app``."""
    app.command("tagging")(tagging)
