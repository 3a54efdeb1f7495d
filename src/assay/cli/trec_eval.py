"""``assay trec-eval``: trec_eval 10.0 byte for byte, with trec_eval's own flag syntax."""

from __future__ import annotations

import typer

from ._common import errors

__all__ = ["register", "trec_eval"]


def trec_eval(ctx: typer.Context) -> None:
    """trec_eval 10.0 byte for byte: [-q] [-c] [-n] [-J] [-l N] [-M N] [-m MEASURE[.PARAMS]]...
    QRELS RUN. `assay trec-eval -h` lists flags and measures. On a terminal, control
    characters in ids and the run tag are shown escaped (\x1b); files and pipes get
    trec_eval's bytes."""
    # trec_eval's own flag syntax (-mP.5, -M100, -qc, options after the files) is parsed by
    # assay.compat.trec_eval, so every argument is passed through untouched.
    with errors():
        from ..compat.trec_eval import main as trec_eval_main
        from ._terminal import stdout_text

        # Byte for byte to a file or a pipe; on a terminal, control characters of ids and the
        # run tag are shown escaped instead of being run (see assay.cli._terminal).
        code = trec_eval_main(list(ctx.args), out=stdout_text())
    if code:
        raise typer.Exit(code)


def register(app: typer.Typer) -> None:
    """Add ``assay trec-eval`` to ``app`` (every argument goes to trec_eval's parser)."""
    app.command(
        "trec-eval",
        context_settings={
            "allow_extra_args": True,
            "ignore_unknown_options": True,
            "help_option_names": [],
        },
        add_help_option=False,
    )(trec_eval)
