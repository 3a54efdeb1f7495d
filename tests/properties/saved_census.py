"""Census of hostile saved results (the fuzz test ``test_fuzz_saved_results.py``, counted
instead of stopped at the first failure): every example runs through every ``assay report``
format and every ``assay plot`` output; the census counts runs by outcome (shown, refused in
one line, internal error), hostile fragments found live, the slowest run and the process's
peak memory.

    python tests/properties/saved_census.py --examples 3000

Run it from the repository root.
"""

from __future__ import annotations

import argparse
import resource
import sys
import time
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE.parent), str(HERE)]

from hypothesis import HealthCheck, given, settings  # noqa: E402
from test_fuzz_saved_results import RUNS, invoke  # noqa: E402

from strategies.saved import saved_results  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", type=int, default=1000)
    args = parser.parse_args()
    import tempfile

    import test_fuzz_saved_results as fuzz

    outcomes: Counter[str] = Counter()
    live: list[str] = []
    slowest = (0.0, "")
    sizes = []

    @settings(
        max_examples=args.examples,
        derandomize=True,
        database=None,
        deadline=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(saved_results())
    def census(saved: bytes) -> None:
        nonlocal slowest
        sizes.append(len(saved))
        with tempfile.TemporaryDirectory() as d:
            path = Path(d) / "saved.json"
            path.write_bytes(saved)
            for run, fmt in RUNS:
                rest = [a.replace("OUT", str(Path(d) / "out")) for a in run[1:]]
                start = time.perf_counter()
                try:
                    code, out, err = invoke(run[0], path, *rest)
                except Exception as exc:  # an exception the CLI let through
                    code, out, err = 70, "", f"{type(exc).__name__}: {exc}"
                took = time.perf_counter() - start
                slowest = max(slowest, (took, f"{' '.join(run)} on {len(saved)} bytes"))
                if code == 0 and fmt == "svg":
                    out = (Path(d) / "out.svg").read_text("utf-8")
                outcomes[{0: "shown", 2: "refused in one line"}.get(code, "internal error")] += 1
                found = fuzz.problems(fmt, code, out, err)
                if found:
                    live.extend(f"{' '.join(run)}: {p}" for p in found)

        if len(sizes) % 250 == 0:
            summary()

    def summary() -> None:
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        print(f"examples: {len(sizes)} (saved files of {min(sizes)} to {max(sizes)} bytes)")
        print(
            f"runs: {sum(outcomes.values())}: " + ", ".join(f"{k} {v}" for k, v in outcomes.items())
        )
        print(f"problems (internal errors, unescaped fragments, errors not one line): {len(live)}")
        for line in sorted(set(live))[:20]:
            print("  ", line[:300])
        print(f"slowest run: {slowest[0]:.2f} s ({slowest[1]})")
        print(f"peak memory of the process: {peak:.0f} MB", flush=True)

    census()
    summary()


if __name__ == "__main__":
    main()
