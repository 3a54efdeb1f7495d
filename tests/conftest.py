"""Shared fixtures. Real reference data lives in ../shared/data (never copied here):
under CI=true a missing file is a failure, elsewhere a skip with a reason."""

from __future__ import annotations

import atexit
import os
import shutil
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("ASSAY_SHARED", ROOT.parent / "shared")) / "data"


def shared_file(*parts: str) -> Path:
    """Path of a file under ../shared/data; fails under CI, skips elsewhere, when absent."""
    path = SHARED.joinpath(*parts)
    if not path.exists():
        message = f"shared test data not found: {path}"
        if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
            pytest.fail(message + " (CI=true: ../shared must be present)")
        pytest.skip(message)
    return path


@pytest.fixture
def trec_dir() -> Path:
    """../shared/data/trec_eval: trec_eval 10.0's own test inputs and expected outputs."""
    return shared_file("trec_eval", "qrels.test").parent


# A bug in a command must fail the test that meets it, with its traceback, instead of being
# reported as one line "assay: internal error" (what users see).
os.environ.setdefault("ASSAY_DEBUG", "1")
# Table layout follows the terminal's width ($COLUMNS); the suite must not depend on the shell
# it runs in (the 80-column tests set it themselves).
os.environ.pop("COLUMNS", None)
# ir_datasets keeps its downloads in IR_DATASETS_HOME and makes folders there when imported. The
# suite reads only datasets registered from local files (support.irds): a folder of its own
# means no test can read a developer's cache, find a dataset there or write next to it.
_IRDS_HOME = tempfile.mkdtemp(prefix="assay-irds-home-")
os.environ["IR_DATASETS_HOME"] = _IRDS_HOME
atexit.register(shutil.rmtree, _IRDS_HOME, ignore_errors=True)


@pytest.fixture(autouse=True)
def _dask_scheduler_kept() -> Iterator[None]:
    """dask's global ``scheduler`` option as each test found it. distributed's ``Client`` sets
    it to ``dask.distributed`` and puts back what it found when it closes; a client closed
    late (the deadline tests stop clusters that hang, on purpose) puts it back out of order,
    and a later test in the same worker would then ask for a client that no longer exists."""
    dask = sys.modules.get("dask")
    before = dask.config.get("scheduler", None) if dask is not None else None
    yield
    dask = sys.modules.get("dask")
    if dask is not None and dask.config.get("scheduler", None) != before:
        if before is None:
            dask.config.config.pop("scheduler", None)
        else:
            dask.config.set(scheduler=before)
