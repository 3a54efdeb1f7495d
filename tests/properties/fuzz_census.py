"""Census of the fuzz suite's hostile inputs, reader by reader: how many cases were read (and
whether the rows add up), refused with a located error, refused without a line, or ended in a
traceback (by exception type). The tests stop at the first failure; this counts them all.

    python tests/properties/fuzz_census.py --examples 4000 [--readers trec-run csv-run ...]

Run it from the repository root; with ``PYTHONPATH=<other checkout>/src`` it measures another
version of assay with the same inputs (the figures in the closing note of issue 11).
"""

from __future__ import annotations

import argparse
import inspect
import json
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE.parent), str(HERE)]

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from test_fuzz_readers import (  # noqa: E402
    _FILE_LEVEL,
    attempt,
    csv_records,
    json_values,
    logical_text,
    trec_records,
    written,
)

import assay  # noqa: E402
from strategies import fuzz  # noqa: E402

Case = tuple[bytes, str, Callable[[Path], Any], Callable[[str], int] | None]


def _table_case(kind: str, ext: str) -> Callable[[st.DataObject], Case]:
    reader = assay.Qrels if kind == "qrels" else assay.Run

    def build(data: st.DataObject) -> Case:
        if ext == "txt":
            clean, count = data.draw(fuzz.trec(kind)).data, trec_records
        elif ext == "jsonl":
            clean, count = data.draw(fuzz.jsonl(kind)).data, json_values
        else:
            sep = "," if ext == "csv" else "\t"
            clean = data.draw(fuzz.delimited(kind, sep)).data
            count = lambda t, sep=sep: csv_records(t, sep)  # noqa: E731
        stored = data.draw(fuzz.packaging(data.draw(fuzz.mutated(clean)), hostile=True))
        return stored, f"{kind}.{ext}", reader.read, count

    return build


def _task_case(name: str) -> Callable[[st.DataObject], Case]:
    import test_fuzz_tasks as tasks

    from assay.agreement import read_ratings
    from assay.classification import read_labels
    from assay.clustering import read_clustering
    from assay.fusion import read_votes
    from assay.io.segments import read_numbers, read_segments

    def build(data: st.DataObject) -> Case:
        if name == "labels":
            clean, _ = data.draw(tasks.label_file())
            return _hostile(data, clean), "gold.txt", read_labels, None
        if name == "labels-csv":
            clean, _ = data.draw(tasks.label_table(","))
            return _hostile(data, clean), "gold.csv", lambda p: read_labels(p, column="label"), None
        if name == "clusterings":
            clean, _ = data.draw(tasks.clustering_file())
            return _hostile(data, clean), "c.txt", read_clustering, None
        if name == "ratings":
            clean, file_name, options, _ = data.draw(tasks.ratings_file())
            known = inspect.signature(read_ratings).parameters  # older versions: fewer
            options = {k: v for k, v in options.items() if k in known}
            return _hostile(data, clean), file_name, lambda p: read_ratings(p, **options), None
        if name == "votes":
            clean, _ = data.draw(tasks.votes_file())
            return _hostile(data, clean), "v.txt", read_votes, None
        if name == "segments":
            lines = data.draw(st.lists(tasks.SEGMENTS, min_size=1, max_size=8))
            return _hostile(data, ("\n".join(lines) + "\n").encode()), "h.txt", read_segments, None
        drawn = data.draw(st.lists(fuzz.scores(), min_size=1, max_size=10))
        clean = ("\n".join(t for t, _ in drawn) + "\n").encode()
        return _hostile(data, clean), "y.txt", read_numbers, None

    return build


def _other_case(name: str) -> Callable[[st.DataObject], Case]:
    """Readers of the feature families: Parquet qrels and runs, LETOR, CoNLL, embeddings."""
    from test_fuzz_readers import _parquet_bytes, feature_readers

    def build(data: st.DataObject) -> Case:
        if name.startswith("parquet-"):
            kind = name.removeprefix("parquet-")
            stored = _parquet_bytes(data.draw(fuzz.parquet_columns(kind, hostile=True)))
            if data.draw(st.booleans()):
                stored = data.draw(fuzz.mutated(stored))
            reader = assay.Qrels if kind == "qrels" else assay.Run
            return stored, f"{kind}.parquet", reader.read, None
        clean, file_name = data.draw(fuzz.feature_file(name))
        return _hostile(data, clean), file_name, feature_readers()[name], None

    return build


def _hostile(data: st.DataObject, clean: bytes) -> bytes:
    return data.draw(fuzz.packaging(data.draw(fuzz.mutated(clean)), hostile=True))


READERS: dict[str, Callable[[st.DataObject], Case]] = {
    "trec-qrels": _table_case("qrels", "txt"),
    "trec-run": _table_case("run", "txt"),
    "csv-qrels": _table_case("qrels", "csv"),
    "csv-run": _table_case("run", "csv"),
    "tsv-run": _table_case("run", "tsv"),
    "jsonl-qrels": _table_case("qrels", "jsonl"),
    "jsonl-run": _table_case("run", "jsonl"),
    **{
        name: _task_case(name)
        for name in [
            "labels",
            "labels-csv",
            "clusterings",
            "ratings",
            "votes",
            "segments",
            "numbers",
        ]
    },
    **{
        name: _other_case(name)
        for name in ["parquet-qrels", "parquet-run", "letor", "conll", "embeddings"]
    },
}


def census(name: str, examples: int) -> Counter[str]:
    outcomes: Counter[str] = Counter()

    @given(data=st.data())
    @settings(
        max_examples=examples,
        derandomize=True,
        database=None,
        deadline=None,
        suppress_health_check=list(HealthCheck),
    )
    def one(data: st.DataObject) -> None:
        stored, file_name, read, count = READERS[name](data)
        with written(stored, file_name) as path:
            try:
                got = attempt(lambda: read(path))
            except AssertionError:  # attempt() saw a warning that is not one of assay's
                outcomes["untyped-warning"] += 1
                return
            except Exception as exc:  # a traceback in the real world
                outcomes[f"crash:{type(exc).__name__}"] += 1
                return
        if isinstance(got, assay.AssayError):
            line = getattr(got, "line", None)
            level = isinstance(got, assay.errors.EmptyInputError) or _FILE_LEVEL.search(str(got))
            outcomes["refused" if line is not None or level else "refused-without-line"] += 1
            return
        text = logical_text(stored, strict=False)
        if count is None or text is None:
            outcomes["read"] += 1
        else:
            outcomes["read" if len(got) == count(text) else "read-miscounted"] += 1

    one()
    return outcomes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--examples", type=int, default=4000)
    parser.add_argument("--readers", nargs="*", default=list(READERS))
    args = parser.parse_args()
    for name in args.readers:
        start = time.perf_counter()
        outcomes = census(name, args.examples)
        seconds = time.perf_counter() - start
        print(
            json.dumps(
                {
                    "reader": name,
                    "cases": sum(outcomes.values()),
                    "seconds": round(seconds, 1),
                    **outcomes,
                }
            ),
            flush=True,
        )


if __name__ == "__main__":
    main()
