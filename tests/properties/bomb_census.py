"""Census of the size bombs (tests/strategies/bombs.py): each command run under a memory
limit and a timeout (tests/support/sandbox.py), counted by family: exit codes, internal
errors, commands ended by a signal or out of memory, the largest input, the longest time and
the highest peak memory. The suite (test_size_bombs.py) stops at the first failure; this
counts them all and lists every case over the targets (10 s, 1 GB).

    python tests/properties/bomb_census.py --examples 260 [--seed 1] [--families npz-bomb ...]

Run it from the repository root.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections import Counter, defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE.parent)]

from strategies.bombs import FAMILIES, cases  # noqa: E402
from support.sandbox import run_commands  # noqa: E402

SECONDS, MEGABYTES = 10.0, 1024.0


def verdict(code: int | None, signal: int | None, stderr: str) -> str:
    """ok (exit 0), refused (exit 2, one error line), or what went wrong."""
    if signal is not None:
        return f"signal {signal}"
    if "out of memory" in stderr:
        return "out of memory"
    if code == 0:
        return "ok"
    lines = [line for line in stderr.splitlines() if not line.startswith("assay: warning:")]
    if code == 2 and len(lines) == 1 and lines[0].startswith("assay: error: "):
        return "refused"
    return f"exit {code}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--examples", type=int, default=len(FAMILIES) * 4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--families", nargs="*", choices=sorted(FAMILIES))
    parser.add_argument("--show", action="store_true", help="one stderr line per family")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as root:
        drawn = cases(args.seed, args.examples, Path(root), args.families)
        done = run_commands([c.argv for c in drawn], cwd=Path(root))
    by_family: dict[str, list[tuple[int, str, float, float]]] = defaultdict(list)
    over = []
    for case, outcome in zip(drawn, done, strict=True):
        v = verdict(outcome.code, outcome.signal, outcome.stderr)
        by_family[case.family].append((case.input_bytes, v, outcome.seconds, outcome.max_rss_mb))
        if (
            v not in ("ok", "refused")
            or outcome.seconds > SECONDS
            or outcome.max_rss_mb > MEGABYTES
        ):
            over.append((case, outcome, v))
    print(f"{'family':15} {'cases':>5} {'max input':>10} {'max s':>6} {'max MB':>7}  verdicts")
    for family, rows in sorted(by_family.items()):
        counts = Counter(v for _, v, _, _ in rows)
        print(
            f"{family:15} {len(rows):5d} {max(r[0] for r in rows):10d} "
            f"{max(r[2] for r in rows):6.1f} {max(r[3] for r in rows):7.0f}  {dict(counts)}"
        )
    if args.show:
        seen = set()
        for case, outcome in zip(drawn, done, strict=True):
            if case.family not in seen:
                seen.add(case.family)
                tail = outcome.stderr.strip().splitlines()[-1:] or ["(nothing on stderr)"]
                print(f"  e.g. {case.family}: {tail[0][:160]}")
    everything = [r for rows in by_family.values() for r in rows]
    internal = sum(1 for r in everything if r[1] not in ("ok", "refused"))
    print(
        f"\n{len(everything)} cases, {internal} not ok/refused, max input "
        f"{max(r[0] for r in everything)} bytes, max {max(r[2] for r in everything):.1f} s, "
        f"max {max(r[3] for r in everything):.0f} MB; {len(over)} over the targets"
    )
    for case, outcome, v in over:
        line = outcome.stderr.strip().splitlines()[-1:] or [""]
        print(
            f"  {case.family}: {v}, {outcome.seconds:.1f} s, {outcome.max_rss_mb:.0f} MB: "
            f"{' '.join(case.argv)[:150]} -> {line[0][:200]}"
        )


if __name__ == "__main__":
    main()
