"""``assay fuse RUN RUN ...`` (run fusion) and ``assay aggregate FILE`` (rank aggregation).

Registered by :func:`assay.cli._register_task_commands`. Only typer and the standard library
are imported here; NumPy and :mod:`assay.fusion` are imported when a command runs.

Vote files for ``aggregate``: one ranking per line, best first, candidates separated by white
space or commas (a line holding a comma is split on commas, with the white space around each
candidate trimmed; otherwise on white space). Blank lines and lines starting with ``#`` are
skipped; ``-`` reads stdin; ``.gz`` is decompressed.
"""

from __future__ import annotations

import sys
from enum import StrEnum
from typing import Annotated, Any

import typer


class AggFormat(StrEnum):
    table = "table"
    tsv = "tsv"
    jsonl = "jsonl"


class AggMethod(StrEnum):
    borda = "borda"
    weighted_borda = "weighted_borda"
    dowdall = "dowdall"
    copeland = "copeland"
    kemeny = "kemeny"
    mc4 = "mc4"


class Partial(StrEnum):
    zero = "zero"
    average = "average"


def _weights(text: str | None) -> list[float] | None:
    from .errors import InputError

    if text is None or not text.strip():
        return None
    try:
        return [float(x) for x in text.split(",")]
    except ValueError:
        raise InputError(
            f"--weights must be a comma-separated list of numbers, got {text!r}"
        ) from None


def _read_votes(path: str) -> list[list[str]]:
    from .errors import EmptyInputError, ParseError
    from .io.text import read_text

    text = read_text(path)
    votes = []
    for no, line in enumerate(text.splitlines(), 1):
        s = line.strip()
        if not s or s.startswith("#"):
            continue
        items = [c.strip() for c in s.split(",")] if "," in s else s.split()
        if any(not c for c in items):
            raise ParseError("empty candidate", source=path, line=no)
        if len(set(items)) != len(items):
            raise ParseError("a candidate appears twice in this ranking", source=path, line=no)
        votes.append(items)
    if not votes:
        raise EmptyInputError("no rankings", source=path)
    return votes


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
    k: Annotated[float, typer.Option("-k", help="RRF constant.")] = 60,
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
    from .cli import _errors

    with _errors():
        from .data import Run
        from .errors import InputError
        from .fusion import fuse as _fuse

        if len(runs) < 2:
            raise InputError("give two or more runs to fuse")
        loaded = [Run.from_trec(p) for p in runs]
        fused = _fuse(
            loaded,
            method=method,
            norm=norm,
            weights=_weights(weights),
            rrf_k=k,
            depth=depth,
            name=name,
        )
        if output == "-":
            fused.to_trec(sys.stdout.buffer)
            sys.stdout.flush()
        else:
            fused.to_trec(output)


def aggregate(
    path: Annotated[
        str, typer.Argument(help="Vote file: one ranking per line, best first; - for stdin.")
    ],
    method: Annotated[AggMethod, typer.Option("-m", "--method", help="Method.")] = AggMethod.borda,
    weights: Annotated[
        str | None, typer.Option("-w", "--weights", help="Voter weights, comma-separated.")
    ] = None,
    partial: Annotated[
        Partial, typer.Option("--partial", help="Points for candidates a ranking omits.")
    ] = Partial.zero,
    damping: Annotated[float, typer.Option("--damping", help="MC4 teleport probability.")] = 0.15,
    fmt: Annotated[
        AggFormat | None,
        typer.Option(
            "-f", "--format", help="Output format (default: table on a terminal, else tsv)."
        ),
    ] = None,
) -> None:
    """Consensus of rankings (Borda, Dowdall, Copeland, Kemeny, MC4): order and scores."""
    from .cli import _errors

    with _errors():
        import json

        from .fusion import aggregate as _aggregate

        votes = _read_votes(path)
        res = _aggregate(
            votes,
            method=method.value,
            weights=_weights(weights),
            partial=partial.value,
            damping=damping,
        )
        chosen = fmt.value if fmt is not None else ("table" if sys.stdout.isatty() else "tsv")
        rows: list[tuple[int, Any, float]] = [
            (i + 1, c, s) for i, (c, s) in enumerate(zip(res.order, res.scores, strict=True))
        ]
        if chosen == "table":
            from rich.console import Console
            from rich.markup import escape
            from rich.table import Table

            table = Table(
                caption=escape(f"{path}: {len(votes)} rankings, {method.value}"),
                caption_justify="left",
            )
            table.add_column("rank", justify="right")
            table.add_column("candidate", no_wrap=True)
            table.add_column("score", justify="right")
            for r, c, s in rows:
                table.add_row(str(r), escape(str(c)), f"{s:.6g}")
            Console().print(table)
            return
        if chosen == "tsv":
            out = "rank\tcandidate\tscore\n" + "".join(f"{r}\t{c}\t{s!r}\n" for r, c, s in rows)
        else:
            out = "".join(
                json.dumps({"rank": r, "candidate": c, "score": s}) + "\n" for r, c, s in rows
            )
        sys.stdout.write(out)
        sys.stdout.flush()
