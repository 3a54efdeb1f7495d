"""trec_eval 10.0's own test files (../shared/data/trec_eval) and ``assay trec-eval``."""

from __future__ import annotations

import re
from pathlib import Path

from conftest import shared_file
from support.cli import invoke


def data(name: str) -> Path:
    return shared_file("trec_eval", name)


def argv(args: str) -> list[str]:
    """The arguments with file names resolved under ../shared/data/trec_eval."""
    out = []
    for a in args.split():
        if not a.startswith("-") and re.match(r"^((qrels|results|prefs)\.|zscores_file$)", a):
            out.append(str(data(a)))
        else:
            out.append(a)
    return out


def expected(name: str) -> str:
    return data(name).read_text(encoding="utf-8")


def trec_eval(*args: str, input: bytes | None = None) -> tuple[int, str, str]:
    """(exit code, stdout, stderr) of ``assay trec-eval ARGS``."""
    return invoke("trec-eval", *args, input=input)


def parse_output(text: str) -> dict[tuple[str, str], str]:
    """trec_eval's ``measure <tab> query <tab> value`` lines -> {(measure, query): value}."""
    out = {}
    for line in text.splitlines():
        name, q, value = line.split("\t")
        out[(name.strip(), q)] = value
    return out
