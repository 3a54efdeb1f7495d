"""The real ndeval binary for differential tests: ``ASSAY_NDEVAL`` names one (``make test``
builds it in ``.ndeval/``); otherwise it is compiled with gcc from pyndeval's source
distribution (which holds ndeval.c 4.5) into a temporary folder. Without gcc or the source the
tests skip, and fail under ``CI=true``."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest

PYNDEVAL_SDIST = "pyndeval==0.0.8"


def _unavailable(reason: str) -> None:
    if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
        pytest.fail(f"ndeval binary unavailable under CI=true: {reason}")
    pytest.skip(f"ndeval binary unavailable: {reason}")


def build_ndeval(folder: Path) -> Path:
    """The path of an ndeval binary (see the module docstring)."""
    given = os.environ.get("ASSAY_NDEVAL")
    if given:
        return Path(given)
    gcc = shutil.which("gcc")
    if gcc is None:
        _unavailable("gcc not found")
    download = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "download",
            "--quiet",
            "--no-deps",
            "--no-binary",
            ":all:",
            PYNDEVAL_SDIST,
            "-d",
            str(folder),
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    archives = list(folder.glob("pyndeval-*.tar.gz"))
    if download.returncode != 0 or not archives:
        _unavailable(f"cannot download {PYNDEVAL_SDIST}'s source: {download.stderr.strip()[-200:]}")
    with tarfile.open(archives[0]) as tar:
        member = next(m for m in tar.getmembers() if m.name.endswith("src/ndeval.c"))
        source = folder / "ndeval.c"
        extracted = tar.extractfile(member)
        assert extracted is not None
        source.write_bytes(extracted.read())
    binary = folder / "ndeval"
    subprocess.run(
        [str(gcc), "-O2", "-o", str(binary), str(source), "-lm"], check=True, timeout=300
    )
    return binary
