"""Shared fixtures. Real reference data lives in ../shared/data (never copied here):
under CI=true a missing file is a failure, elsewhere a skip with a reason."""

from __future__ import annotations

import atexit
import gc
import os
import shutil
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

# One BLAS thread per process: `make test` runs two workers on two cores, and each worker's
# OpenBLAS started two threads of its own, which wait on each other on busy cores (a least
# squares fit of a 3,000 x 137 LETOR matrix took 0.6-3 s instead of 0.08 s). Set before NumPy
# loads OpenBLAS (pytest has not imported it yet); subprocesses of the tests inherit it.
for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import pytest  # noqa: E402
import typer  # noqa: E402
import typer.testing  # noqa: E402

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


#: The click command typer built for each app, with the app (held, so its id stays its own).
_BUILT: dict[int, tuple[typer.Typer, Any]] = {}  # Any: typer's own click command


def _command_built_once(app: typer.Typer) -> Any:  # Any: typer's own click command
    """typer's ``get_command``, once per app: ``CliRunner.invoke`` turns every registered
    command into a click command (reading 34 signatures, ~0.07 s) before each invocation,
    and the suite invokes the CLI thousands of times. The app is not changed after import
    (commands register at import), and click keeps no state in a command between runs."""
    hit = _BUILT.get(id(app))
    if hit is None or hit[0] is not app:
        hit = _BUILT[id(app)] = (app, _typer_get_command(app))
    return hit[1]


_typer_get_command = typer.testing._get_command
typer.testing._get_command = _command_built_once


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


@pytest.fixture
def gc_collect_skipped(monkeypatch: pytest.MonkeyPatch) -> None:
    """``gc.collect()`` a no-op for the test: statsmodels' ``multipletests`` calls it after
    every Holm correction (a memory hint, no part of the result), and a full collection walks
    every object the worker made since the tests were collected (~0.1 s each, late in a
    session; a test of 60 corrections spent its time there)."""
    monkeypatch.setattr(gc, "collect", lambda generation=2: 0)


def pytest_collection_finish(session: pytest.Session) -> None:
    """Everything alive once the tests are collected (modules, test items, hypothesis'
    strategies: hundreds of thousands of objects) lives to the end of the session; moved to
    the permanent generation, it is no longer walked by each full collection. statsmodels'
    Holm correction calls ``gc.collect()`` on every call, which otherwise walked that whole
    heap each time (~0.4 s a call in a worker of the full suite)."""
    gc.collect()
    gc.freeze()
