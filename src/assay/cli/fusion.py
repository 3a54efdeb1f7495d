"""``assay fuse RUN RUN ...`` (run fusion) and ``assay aggregate FILE`` (rank aggregation).

Vote files for ``aggregate`` are read by :func:`assay.fusion.read_votes`: one ranking per line,
best first, candidates separated by white space or commas; blank lines and ``#`` lines are
skipped. Only typer and the standard library are imported at module level; NumPy and
:mod:`assay.fusion` load inside the commands.
"""

from __future__ import annotations

from typing import Annotated, Any

import typer

from ..fusion.options import AggregationMethod, Partial
from ._common import (
    FormatOption,
    QuietOption,
    ReportOption,
    SaveOption,
    check_report,
    errors,
    present,
    write_documents,
)

__all__ = ["aggregate", "fuse", "register"]


def _weights(text: str | None) -> list[float] | None:
    """``--weights``: comma-separated numbers (empty: none)."""
    from ..errors import OptionError

    if text is None or not text.strip():
        return None
    try:
        return [float(x) for x in text.split(",")]
    except ValueError:
        raise OptionError(
            f"--weights must be a comma-separated list of numbers, got {text!r}", option="weights"
        ) from None


def fuse(
    runs: Annotated[list[str], typer.Argument(help="TREC run files to fuse (two or more).")],
    method: Annotated[
        str,
        typer.Option(
            "-m",
            "--method",
            help="combsum, combmnz, combanz, combmax, combmin, combmed, combgmnz, wsum, rrf, "
            "isr, borda, condorcet (ranx names such as sum, mnz also work).",
        ),
    ] = "rrf",
    norm: Annotated[
        str,
        typer.Option(
            "-n",
            "--norm",
            help="Score normalisation: none, min-max, max, sum, zscore, rank, borda.",
        ),
    ] = "min-max",
    weights: Annotated[
        str | None, typer.Option("-w", "--weights", help="Run weights, comma-separated.")
    ] = None,
    rrf_k: Annotated[float, typer.Option("--rrf-k", help="RRF constant k (rank + k).")] = 60,
    depth: Annotated[
        int | None, typer.Option("--depth", min=1, help="Keep the top N per query.")
    ] = None,
    output: Annotated[
        str, typer.Option("-o", "--output", help="Fused TREC run file ('-': stdout).")
    ] = "-",
    name: Annotated[
        str | None, typer.Option("--name", help="Run tag (default: the method).")
    ] = None,
) -> None:
    """Fuse TREC runs (CombSUM/MNZ/..., RRF, ISR, Borda, Condorcet) into one TREC run."""
    with errors():
        from ..errors import InputError
        from ..fusion import fuse_files

        if len(runs) < 2:
            raise InputError("give two or more runs to fuse")
        options: dict[str, Any] = {
            "method": method,
            "norm": norm,
            "weights": _weights(weights),
            "rrf_k": rrf_k,
            "depth": depth,
            "name": name,
        }
        # Block by block or in memory: the library decides (fuse_files(stream=None)).
        if output != "-":
            fuse_files(runs, output, stream=None, **options)
            return
        from ._terminal import stdout_bytes

        stream = stdout_bytes()
        fuse_files(runs, stream, stream=None, **options)
        stream.flush()


def aggregate(
    path: Annotated[
        str, typer.Argument(help="Vote file: one ranking per line, best first; - for stdin.")
    ],
    method: Annotated[AggregationMethod, typer.Option("-m", "--method", help="Method.")] = "borda",
    weights: Annotated[
        str | None, typer.Option("-w", "--weights", help="Voter weights, comma-separated.")
    ] = None,
    partial: Annotated[
        Partial, typer.Option("--partial", help="Points for candidates a ranking omits.")
    ] = "zero",
    damping: Annotated[float, typer.Option("--damping", help="MC4 teleport probability.")] = 0.15,
    fmt: FormatOption = None,
    report: ReportOption = None,
    save: SaveOption = None,
    quiet: QuietOption = False,
) -> None:
    """Consensus of rankings (Borda, Dowdall, Copeland, Kemeny, MC4): order and scores."""
    with errors():
        from ..fusion import aggregate as consensus
        from ..fusion import read_votes

        check_report(report)
        votes = read_votes(path)
        w = _weights(weights)
        res = consensus(
            votes, method=method, weights=w, partial=partial, damping=damping, source=path
        )
        present(res.report(), fmt)
        if report is not None or save is not None:
            doc = res.document()
            write_documents([doc], report=report, save=save, title="assay aggregate", quiet=quiet)


def register(app: typer.Typer) -> None:
    """Add ``assay fuse`` and ``assay aggregate`` to ``app``."""
    app.command("fuse")(fuse)
    app.command("aggregate")(aggregate)
