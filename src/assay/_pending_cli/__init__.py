"""Commands waiting for the ``assay.cli`` package: each module exposes
``register(app: typer.Typer) -> None`` and imports only typer and the standard library at
module level (assay's public APIs inside the command)."""
