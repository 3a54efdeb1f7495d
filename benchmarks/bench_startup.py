"""Start-up benchmark: how long ``assay --help`` and ``import assay`` take in a fresh process.

Each command runs in a new subprocess (no bytecode written, this checkout's ``src`` first on
``PYTHONPATH``) after one warm-up; commands alternate (A B C A B C ...). Reported: median and
minimum wall time, and the same for ``python -c pass`` (the interpreter's own start-up) so
that assay's share can be read off. The CLI's help must not import NumPy, pyarrow, rich or the
data-frame libraries (tests/cli/test_cli_app.py checks that); this script measures what that buys.

    python benchmarks/bench_startup.py              # 10 runs of each
    python benchmarks/bench_startup.py --runs 30
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src"

COMMANDS = {
    "python -c pass": [sys.executable, "-c", "pass"],
    "python -c 'import assay'": [sys.executable, "-c", "import assay"],
    "assay --help (python -m assay)": [sys.executable, "-m", "assay", "--help"],
    "assay metrics --family ranking -f json": [
        sys.executable,
        "-m",
        "assay",
        "metrics",
        "--family",
        "ranking",
        "-f",
        "json",
    ],
}


def _env() -> dict[str, str]:
    path = os.pathsep.join(p for p in (str(SRC), os.environ.get("PYTHONPATH", "")) if p)
    return {**os.environ, "PYTHONPATH": path, "PYTHONDONTWRITEBYTECODE": "1"}


def _time(command: list[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    subprocess.run(command, env=env, check=True, capture_output=True)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    args = parser.parse_args()
    env = _env()
    times: dict[str, list[float]] = {name: [] for name in COMMANDS}
    for command in COMMANDS.values():
        _time(command, env)  # warm-up (file system cache)
    for _ in range(args.runs):
        for name, command in COMMANDS.items():
            times[name].append(_time(command, env))
    base = statistics.median(times["python -c pass"])
    print(f"| command | median s | min s | median - python s |  ({args.runs} runs)")
    print("|---|---:|---:|---:|")
    for name, values in times.items():
        median = statistics.median(values)
        print(f"| {name} | {median:.3f} | {min(values):.3f} | {median - base:.3f} |")


if __name__ == "__main__":
    main()
