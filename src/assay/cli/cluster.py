"""``assay cluster GOLD PRED [PRED...]``: evaluate a clustering against a gold clustering;
with several, compare them against a baseline (paired tests over items).

Files are read by :func:`assay.clustering.read_clusterings` (item<TAB>cluster lines, one
cluster per line with optional ``item:weight`` weights, or one cluster label per line for
items numbered by line, as scikit-learn's ``labels_true``: found when every line holds one
token and some token repeats, or said with ``--layout``; the two files may differ; one may be
``-``) and measured by :func:`assay.clustering.evaluate`, which chooses the hard-clustering
measures or the soft-clustering ones. Several predicted clusterings (or ``--baseline``) are
compared by :func:`assay.clustering.compare`: hard clusterings of the gold items only.

Only typer and the standard library are imported at module level; NumPy and
:mod:`assay.clustering` load inside the command.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, cast

import typer

from .._options import ResamplingTest as ClusteringTest
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
    warn,
    write_documents,
)

if TYPE_CHECKING:
    from .._options import Correction
    from ..clustering.options import ClusteringLayout
    from ..report.paired import PairedComparison
    from ..report.reported import Reported

#: The title of the ``--report`` page.
TITLE = "assay cluster"

__all__ = ["cluster", "register"]


def cluster(
    gold: Annotated[
        str,
        typer.Argument(
            help="Gold clustering: item<TAB>cluster lines, or one cluster per line (items "
            "separated by spaces, item:weight for weights); - for stdin."
        ),
    ],
    preds: Annotated[
        list[str],
        typer.Argument(
            help="Predicted clustering(s), same layouts; several: compared against a baseline."
        ),
    ],
    layout: Annotated[
        str,
        typer.Option(
            "--layout",
            help="Layout of both files: auto (from the content), labels (item<TAB>cluster), "
            "clusters (one cluster per line), lines (one cluster label per line; items are "
            "line numbers).",
        ),
    ] = "auto",
    baseline: Annotated[
        str | None,
        typer.Option(
            help="The clustering every other is tested against (default: the first PRED); "
            "a file not among PRED is added."
        ),
    ] = None,
    metric: Annotated[
        list[str] | None,
        typer.Option(
            "-m",
            "--metric",
            help="Measure compared, repeatable (several PRED): adjusted_rand_index, nmi, ami, "
            "rand_index, fowlkes_mallows, pairwise_f, purity_f1... "
            "(default: adjusted_rand_index nmi).",
        ),
    ] = None,
    test: Annotated[
        ClusteringTest,
        typer.Option(
            help="Paired test over items: bootstrap, or randomization (swaps; a test of "
            "exchangeability, which rejects too often as a test of equal quality)."
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
    fmt: FormatOption = None,
    output: OutputOption = None,
    report: ReportOption = None,
    save: SaveOption = None,
    quiet: QuietOption = False,
) -> None:
    """Evaluate a clustering against a gold clustering (hard: pairwise P/R/F, Rand, ARI,
    purity, NMI, AMI, B-Cubed...; overlapping or weighted: nmPU, niPU, pairwise); with
    several, test each against a baseline by resampling items."""
    with errors():
        from ..clustering import evaluate, read_clusterings
        from ..errors import InputError

        check_report(report)
        _check_comparison(n_resamples, seed, confidence, alpha)
        # --layout is free text here: read_clustering validates it and names it in its error.
        chosen = cast("ClusteringLayout", layout)
        paths = list(preds)
        check_baseline(baseline, paths, "clustering")
        if baseline is not None and baseline not in paths:
            paths = [baseline, *paths]
        if len(paths) == 1:
            if baseline is not None:
                raise InputError(
                    f"--baseline {baseline} is the only clustering: give at least one other "
                    "PRED to compare with it"
                )
            if gold == "-" and paths[0] == "-":
                raise InputError("gold and pred cannot both be read from stdin")
            result = evaluate(*read_clusterings(gold, paths[0], layout=chosen))
            for note in result.notes:
                warn(note)
            present(result.report(), fmt, output)
            documented: Reported = result
        else:
            comparison = _compare(
                gold,
                paths,
                chosen,
                baseline=baseline,
                metric=metric,
                test=test,
                n_resamples=n_resamples,
                seed=seed,
                confidence=confidence,
                correction=correction,
                alpha=alpha,
                quiet=quiet,
            )
            present(comparison.report(), fmt, output)
            documented = comparison
        if report is not None or save is not None:
            # the page only when asked for: its contingency table is work a printout skips
            write_documents(
                [documented.document()], report=report, save=save, title=TITLE, quiet=quiet
            )


def _check_comparison(n_resamples: int | None, seed: int, confidence: float, alpha: float) -> None:
    """The comparison's numeric options, refused when bad even with one PRED (where they
    are not used): a typo is an error, not a silently ignored option."""
    from .. import _options as opt

    if n_resamples is not None:
        opt.n_resamples(n_resamples)
    opt.seed(seed)
    opt.confidence(confidence)
    opt.alpha(alpha)


def _compare(
    gold: str,
    paths: list[str],
    layout: ClusteringLayout,
    *,
    baseline: str | None,
    metric: list[str] | None,
    test: ClusteringTest,
    n_resamples: int | None,
    seed: int,
    confidence: float,
    correction: Correction,
    alpha: float,
    quiet: bool,
) -> PairedComparison:
    """Read GOLD and every PRED as hard clusterings of the same items, then compare them."""
    from ..clustering import compare, read_clusterings
    from ..clustering.comparison import DEFAULT_METRICS
    from ..errors import InputError

    distinct_inputs(paths, "clustering")
    if gold == "-":
        # GOLD is read with each PRED (its layout can depend on the PRED's)
        raise InputError("GOLD cannot be read from stdin when several clusterings are compared")
    names = unique_names(paths)
    gold_labels: list[int] = []
    labels: dict[str, list[int]] = {}
    for name, path in zip(names, paths, strict=True):
        g, p = read_clusterings(gold, path, layout=layout)
        for c in (g, p):
            if not c.hard:
                raise InputError(
                    f"{c.source}: comparing clusterings needs hard clusterings (every item in "
                    "exactly one cluster, no weights)"
                )
        if p.items != g.items:
            only_gold, only_pred = len(g.items - p.items), len(p.items - g.items)
            raise InputError(
                f"{path} does not cluster the items of {gold}: {only_gold} item(s) only in "
                f"{gold}, {only_pred} only in {path}; comparing clusterings needs the same items"
            )
        items = sorted(g.items)
        truth, found = g.labels(), p.labels()
        gold_labels = [truth[i] for i in items]
        labels[name] = [found[i] for i in items]
    with busy(f"comparing clusterings ({test})", quiet):
        return compare(
            gold_labels,
            labels,
            baseline=None if baseline is None else names[paths.index(baseline)],
            metrics=tuple(metric) if metric else DEFAULT_METRICS,
            test=test,
            n_resamples=n_resamples,
            seed=seed,
            confidence=confidence,
            correction=correction,
            alpha=alpha,
        )


def register(app: typer.Typer) -> None:
    """Add ``assay cluster`` to ``app``."""
    app.command("cluster")(cluster)
