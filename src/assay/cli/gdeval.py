"""``assay gdeval``: the TREC Web track's gdeval.pl byte for byte, with gdeval's own flags."""

from __future__ import annotations

import typer

from ._common import errors

__all__ = ["gdeval", "register"]


def gdeval(ctx: typer.Context) -> None:
    """gdeval.pl 1.3 (TREC Web track) byte for byte: [-c] [-k K] [-baseline RUN]
    [-riskAlpha A] QRELS RUN. Prints runid,topic,ndcg@K,err@K per topic and the mean
    (amean); with a baseline, each topic's risk-weighted difference (losses weigh 1+A)."""
    # gdeval's own flag syntax (-k 20, -riskAlpha 1, flags before the files) is parsed by
    # assay.compat.gdeval, so every argument is passed through untouched.
    with errors():
        from ..compat.gdeval import main as gdeval_main
        from ._terminal import stdout_text

        code = gdeval_main(list(ctx.args), out=stdout_text())
    if code:
        raise typer.Exit(code)


def register(app: typer.Typer) -> None:
    """Add ``assay gdeval`` to ``app`` (every argument goes to gdeval's parser)."""
    app.command(
        "gdeval",
        context_settings={
            "allow_extra_args": True,
            "ignore_unknown_options": True,
            "help_option_names": [],
        },
        add_help_option=False,
    )(gdeval)
