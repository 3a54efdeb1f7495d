"""Helpers shared by several test files (``from support.cli import invoke``): running the CLI
in process, writing and comparing files, the ranking harness, worked examples used in more
than one place, and the checks every result or option must pass. Hypothesis strategies and
seeded data generators live in ``strategies``; slow reference implementations in
``references``."""
