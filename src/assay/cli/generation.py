"""``assay generation REFS HYP [HYP...]``: BLEU, chrF, TER and ROUGE of one or more systems
with bootstrap intervals and sacrebleu's paired tests against a baseline."""

from __future__ import annotations

from typing import Annotated

import typer

from ..generation.options import BleuTokenize, GenerationTest
from ._common import (
    AlphaOption,
    ConfidenceOption,
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
    write_documents,
)

__all__ = [
    "generation",
    "register",
]


def _systems(hyps: list[str], baseline: str | None) -> tuple[list[str], str | None]:
    """HYP files with the baseline first (added if it is not one of them); the baseline's
    position in the list is 0 whenever one is given."""
    if baseline is None:
        return hyps, None
    check_baseline(baseline, hyps, "system output")
    if baseline in hyps:
        return [baseline, *(h for h in hyps if h != baseline)], baseline
    return [baseline, *hyps], baseline


def _read(refs: list[str], paths: list[str]) -> tuple[list[list[str]], dict[str, list[str]]]:
    from ..generation import read_reference_streams
    from ..io.segments import check_same_count, read_segments

    distinct_inputs(paths, "system output")
    streams = read_reference_streams(refs)
    outputs = {p: read_segments(p) for p in paths}
    check_same_count({refs[0]: streams[0], **outputs})
    names = unique_names(paths)
    return streams, {name: outputs[p] for name, p in zip(names, paths, strict=True)}


def generation(
    refs: Annotated[str, typer.Argument(help="Reference file: one segment per line.")],
    hyps: Annotated[
        list[str], typer.Argument(help="System output files, aligned with REFS line by line.")
    ],
    metric: Annotated[
        list[str] | None,
        typer.Option(
            "-m",
            "--metric",
            help="Metric (repeat): bleu, chrf, chrf++, ter, rouge1, rouge2, rougeL, rougeLsum. "
            "Default: bleu and chrf.",
        ),
    ] = None,
    ref: Annotated[
        list[str] | None, typer.Option("-r", "--ref", help="Another reference file (repeat).")
    ] = None,
    baseline: Annotated[
        str | None,
        typer.Option(help="The system every other is tested against (default: the first HYP)."),
    ] = None,
    test: Annotated[
        GenerationTest,
        typer.Option(
            help="Paired test: bootstrap (sacrebleu --paired-bs) or randomization (--paired-ar)."
        ),
    ] = "bootstrap",
    n_resamples: Annotated[
        int | None,
        typer.Option(help="Resamples of the test (default 1000 bootstrap, 10000 randomization)."),
    ] = None,
    seed: SeedOption = 12345,
    confidence: ConfidenceOption = 0.95,
    correction: CorrectionOption = "holm",
    alpha: AlphaOption = 0.05,
    tokenize: Annotated[BleuTokenize, typer.Option(help="BLEU's tokenizer.")] = "13a",
    lowercase: Annotated[
        bool,
        typer.Option(
            help="Case-insensitive BLEU and chrF (TER is case-insensitive, as sacrebleu's default)."
        ),
    ] = False,
    stem: Annotated[bool, typer.Option(help="Porter stemming for ROUGE.")] = False,
    fmt: FormatOption = None,
    output: OutputOption = None,
    report: ReportOption = None,
    save: SaveOption = None,
    quiet: QuietOption = False,
) -> None:
    """Generation metrics (sacrebleu, rouge-score) of one or more systems, with bootstrap
    intervals and paired significance tests against a baseline."""
    with errors():
        from ..generation import compare_systems, configure_metrics

        check_report(report)
        paths, base = _systems(list(hyps), baseline)
        streams, named = _read([refs, *(ref or [])], paths)
        specs = configure_metrics(
            metric or ["bleu", "chrf"], tokenize=tokenize, lowercase=lowercase, use_stemmer=stem
        )
        with busy(f"scoring and resampling ({test}, {n_resamples} resamples)", quiet):
            cmp = compare_systems(
                references=streams,
                systems=named,
                metrics=specs,
                baseline=None if base is None else next(iter(named)),
                test=test,
                n_resamples=n_resamples,
                seed=seed,
                confidence=confidence,
                correction=correction,
                alpha=alpha,
            )
        present(cmp.report(), fmt, output)
        if report is not None or save is not None:
            docs = [cmp.document()]
            write_documents(docs, report=report, save=save, title="assay generation", quiet=quiet)


def register(app: typer.Typer) -> None:
    """Add ``assay generation`` to ``app``."""
    app.command("generation")(generation)
