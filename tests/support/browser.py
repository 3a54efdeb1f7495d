"""The Chromium binary the browser tests drive: a failure under CI (``.ci/run`` installs the
Debian package), a skip with a reason elsewhere."""

from __future__ import annotations

import os
import shutil

import pytest


def chromium() -> str:
    """The path of ``chromium`` (or ``chromium-browser``)."""
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found is None:
        if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
            pytest.fail("chromium not found (CI=true: .ci/run installs the Debian package)")
        pytest.skip("chromium not found: apt-get install chromium to run the browser test")
    return found
