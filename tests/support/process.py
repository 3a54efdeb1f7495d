"""Python code run in a fresh interpreter (import-time checks need an empty sys.modules)."""

from __future__ import annotations

import subprocess
import sys


def run_python(code: str) -> subprocess.CompletedProcess[str]:
    """``python -c CODE`` with text output captured; a non-zero exit fails the test."""
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120
    )
