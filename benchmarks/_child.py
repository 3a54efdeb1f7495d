"""One command timed in its own process: wall time and the child's peak RSS.

The command runs under a small Python wrapper, so the figures cover only that process (its
imports and reading included), with its output written to a file, never to a pipe.
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
from pathlib import Path

WRAPPER = (
    "import json, resource, subprocess, sys, time\n"
    "t = time.perf_counter()\n"
    "p = subprocess.run(sys.argv[2:], stdout=open(sys.argv[1], 'w'))\n"
    "w = time.perf_counter() - t\n"
    "if p.returncode: sys.exit(p.returncode)\n"
    "print(json.dumps({'wall_s': w, "
    "'peak_mb': resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024}))\n"
)


def measure(cmd: list[str], out: Path) -> dict[str, float]:
    """Run ``cmd`` with stdout to ``out``; ``{"wall_s": ..., "peak_mb": ...}``."""
    proc = subprocess.run(
        [sys.executable, "-c", WRAPPER, str(out), *cmd], capture_output=True, text=True
    )
    if proc.returncode:
        raise SystemExit(f"{' '.join(cmd)} failed: {proc.stderr.strip()[-500:]}")
    result: dict[str, float] = json.loads(proc.stdout)
    return result


def measure_in_turn(
    tools: dict[str, list[str]], folder: Path, runs: int
) -> dict[str, tuple[float, float, bytes]]:
    """Each command ``runs`` times, in turn (A B C A B C ...): per tool its median wall
    time, its largest peak RSS and the bytes it printed."""
    walls: dict[str, list[float]] = {name: [] for name in tools}
    peaks = dict.fromkeys(tools, 0.0)
    outs = {name: folder / f"out{i}" for i, name in enumerate(tools)}
    for _ in range(runs):
        for name, cmd in tools.items():
            r = measure(cmd, outs[name])
            walls[name].append(r["wall_s"])
            peaks[name] = max(peaks[name], r["peak_mb"])
    return {
        name: (statistics.median(walls[name]), peaks[name], outs[name].read_bytes())
        for name in tools
    }
