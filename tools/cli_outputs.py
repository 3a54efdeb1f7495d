"""The byte-identical check of the command line: every command, in every output format, with
``--report``/``--save`` where it has them, on the shared data; one line per output.

Usage (the tree checked is the one on ``PYTHONPATH``)::

    PYTHONPATH=src python tools/cli_outputs.py --out /tmp/before.tsv [--dir /tmp/before]
    PYTHONPATH=src python tools/cli_outputs.py --out /tmp/after.tsv
    python tools/cli_outputs.py --compare /tmp/before.tsv /tmp/after.tsv

``--out`` writes ``name<TAB>sha256<TAB>bytes`` lines, one per output of each invocation
(``<case> :stdout``, ``:stderr``, ``:exit``, and ``:<file>`` for every file it wrote);
``--dir`` also keeps the outputs themselves, for a diff. ``--compare`` prints what differs
and exits 1 if anything does. Only ``-k WORD`` cases run when given.

The invocations run in process (typer's CliRunner, as the test suite does, on the app the
console script runs for the arguments: ``assay.cli.app_for``) in a fresh working
folder holding the inputs (tools/cli_cases.py), with relative paths, ``COLUMNS=100`` and fixed
seeds, titles and names. One normalisation: the working folder's absolute path, should an
output hold it, is replaced by ``<work>`` (it differs from run to run).
"""

from __future__ import annotations

import argparse
import hashlib
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from cli_cases import cases, prepare

#: ../shared/data next to the repository (the test suite's default), or $ASSAY_SHARED/data.
SHARED = Path(os.environ.get("ASSAY_SHARED", Path(__file__).resolve().parents[2] / "shared"))


def _normalised(data: bytes, work: Path) -> bytes:
    for form in {str(work), str(work.resolve())}:
        data = data.replace(form.encode(), b"<work>")
    return data


def _snapshot(work: Path) -> dict[str, float]:
    return {str(p.relative_to(work)): p.stat().st_mtime_ns for p in work.rglob("*") if p.is_file()}


def run_cases(work: Path, only: list[str]) -> list[tuple[str, bytes]]:
    """(output name, bytes) of every case, in order."""
    os.environ["COLUMNS"] = "100"
    os.environ.pop("ASSAY_DEBUG", None)
    os.environ["NO_COLOR"] = "1"
    from typer.testing import CliRunner

    from assay.cli import app_for

    runner = CliRunner()
    outputs: list[tuple[str, bytes]] = []
    here = Path.cwd()
    os.chdir(work)
    try:
        for name, args in cases().items():
            if only and not any(word in name for word in only):
                continue
            before = _snapshot(work)
            started = time.perf_counter()
            # The app the console script runs for these arguments (only the named command).
            result = runner.invoke(app_for(args), args)
            seconds = time.perf_counter() - started
            print(f"{seconds:7.2f}s  exit {result.exit_code}  {name}", file=sys.stderr)
            outputs.append((f"{name} :exit", str(result.exit_code).encode()))
            outputs.append((f"{name} :stdout", _normalised(result.stdout_bytes, work)))
            outputs.append((f"{name} :stderr", _normalised(result.stderr_bytes, work)))
            after = _snapshot(work)
            for path in sorted(p for p in after if before.get(p) != after[p]):
                data = _normalised((work / path).read_bytes(), work)
                outputs.append((f"{name} :{path}", data))
    finally:
        os.chdir(here)
    return outputs


def _safe(name: str) -> str:
    """A file name for an output: ``evaluate -f tsv :stdout`` -> ``evaluate_-f_tsv.stdout``."""
    case, _, part = name.rpartition(" :")
    return (
        "".join(c if c.isalnum() or c in "-_" else "_" for c in case) + "." + part.replace("/", "_")
    )


def write(outputs: list[tuple[str, bytes]], out: Path, folder: Path | None) -> None:
    lines = [f"{name}\t{hashlib.sha256(data).hexdigest()}\t{len(data)}" for name, data in outputs]
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    if folder is not None:
        folder.mkdir(parents=True, exist_ok=True)
        for name, data in outputs:
            (folder / _safe(name)).write_bytes(data)


def compare(before: Path, after: Path) -> int:
    def read(path: Path) -> dict[str, str]:
        rows = [line.split("\t") for line in path.read_text(encoding="utf-8").splitlines()]
        return {row[0]: "\t".join(row[1:]) for row in rows if row}

    a, b = read(before), read(after)
    differ = [n for n in a if n in b and a[n] != b[n]]
    missing = [n for n in a if n not in b]
    extra = [n for n in b if n not in a]
    for label, names in (("differs", differ), ("only before", missing), ("only after", extra)):
        for name in names:
            print(f"{label}\t{name}")
    same = len(a) - len(differ) - len(missing)
    print(f"{same} of {len(a)} outputs identical; {len(differ)} differ, "
          f"{len(missing)} only before, {len(extra)} only after")  # fmt: skip
    return 1 if differ or missing or extra else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, help="write name<TAB>sha256<TAB>bytes lines here")
    parser.add_argument("--dir", type=Path, help="also keep every output in this folder")
    parser.add_argument("--compare", nargs=2, type=Path, metavar=("BEFORE", "AFTER"))
    parser.add_argument("--shared", type=Path, default=SHARED, help="the shared folder")
    parser.add_argument("-k", action="append", default=[], help="only cases naming WORD")
    args = parser.parse_args(argv)
    if args.compare:
        return compare(*args.compare)
    if args.out is None:
        parser.error("give --out FILE (or --compare BEFORE AFTER)")
    with tempfile.TemporaryDirectory(prefix="cli-outputs-") as tmp:
        work = Path(tmp)
        prepare(args.shared / "data", work)
        outputs = run_cases(work, args.k)
    write(outputs, args.out, args.dir)
    print(f"{len(outputs)} outputs of {len(cases())} invocations -> {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
