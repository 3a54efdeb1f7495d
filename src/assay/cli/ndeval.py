"""``assay ndeval``: ndeval (TREC Web track diversity evaluation) byte for byte, with
ndeval's own option syntax."""

from __future__ import annotations

import typer

from ._common import errors

__all__ = ["ndeval", "register"]


def ndeval(ctx: typer.Context) -> None:
    """ndeval 4.5 byte for byte: [-alpha A] [-beta B] [-traditional] [-c] [-M DEPTH]
    [-baseline RUN [-riskAlpha A]] QRELS RUN. QRELS lines are `topic subtopic docno
    judgment`; prints ndeval's CSV (alpha-nDCG, ERR-IA, NRBP, MAP-IA, P-IA, strec)."""
    # ndeval's option syntax is parsed by assay.compat.ndeval: arguments pass untouched.
    with errors():
        from ..compat.ndeval import main as ndeval_main
        from ._terminal import stdout_text

        code = ndeval_main(list(ctx.args), out=stdout_text())
    if code:
        raise typer.Exit(code)


def register(app: typer.Typer) -> None:
    """Add ``assay ndeval`` to ``app`` (every argument goes to ndeval's parser)."""
    app.command(
        "ndeval",
        context_settings={
            "allow_extra_args": True,
            "ignore_unknown_options": True,
            "help_option_names": [],
        },
        add_help_option=False,
    )(ndeval)
