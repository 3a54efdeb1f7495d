"""ir_datasets datasets registered from local files, for the ``irds:`` tests: no download,
no network (the suite's ``IR_DATASETS_HOME`` is a folder of its own, see conftest)."""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

_COUNTER = itertools.count()


def register(qrels: Path, *, subtopics: bool = False) -> str:
    """Register a dataset whose qrels are the TREC file ``qrels`` (``query iter doc grade``;
    with ``subtopics``, ``query subtopic doc grade``) under a new id, and return the id.
    ir_datasets' registry cannot forget an id, so every call makes a new one."""
    import ir_datasets
    from ir_datasets.formats import TrecQrels, TrecSubQrels
    from ir_datasets.util import LocalDownload

    name = f"assay-test/{Path(qrels).name}/{next(_COUNTER)}"
    handler: Any = (TrecSubQrels if subtopics else TrecQrels)(
        LocalDownload(Path(qrels).resolve()), {}
    )
    ir_datasets.registry.register(name, ir_datasets.Dataset(handler))
    return name
