"""The documentation site, built strictly and read in headless Chromium (issue 31).

The site is built once (``mkdocs build --strict`` into a temporary folder, as ``make docs``
does into ``site/``; ``ASSAY_SITE=site`` reuses a built one), served on 127.0.0.1 by the
standard library's HTTP server and driven over the DevTools protocol (``support.cdp``): the
start page, a family page, an API page, the CLI reference and the metric catalogue load with
their headings and without a console error, and Material's search finds ``ndcg``.

One test, so that ``pytest -n 2`` builds the site once: the strict build takes about 20 s.
Under CI=true a missing Chromium or MkDocs is a failure, elsewhere a skip.
"""

from __future__ import annotations

import functools
import http.server
import importlib.util
import os
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

import assay
from conftest import ROOT
from support.browser import chromium
from support.cdp import Browser

#: The pages read, each with a heading it must show (``None``: any non-empty ``h1``; the prose
#: pages' titles are their authors').
PAGES = {
    "": None,
    "statistics/": None,
    "ranking/": None,
    "reference/api/assay.stats/": "assay.stats",
    "reference/cli/": "CLI reference",
    "metrics/": None,
}
#: What the search box is asked, and a page its hits must include.
QUERY, HIT = "ndcg", "metrics/"


def _missing(what: str) -> None:
    if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
        pytest.fail(f"{what} not found (CI=true: .ci/run installs it)")
    pytest.skip(f"{what} not found: the documentation site's browser test needs it")


@pytest.fixture(scope="session")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The built site: ``ASSAY_SITE`` if set, else a strict build of this checkout (only
    when there is a browser to read it: without one the test skips before building)."""
    chromium()
    given = os.environ.get("ASSAY_SITE")
    if given:
        return Path(given)
    if importlib.util.find_spec("mkdocs") is None:
        _missing("mkdocs (the docs extra)")
    out = tmp_path_factory.mktemp("site")
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    src = str(Path(assay.__file__).parents[1])
    env["PYTHONPATH"] = os.pathsep.join([src, env.get("PYTHONPATH", "")])
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(out)],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    seconds = time.perf_counter() - start
    assert done.returncode == 0, f"the strict build failed:\n{done.stderr[-4000:]}"
    (out / ".build-seconds").write_text(f"{seconds:.1f}\n")
    return out


@pytest.fixture(scope="session")
def served(site: Path) -> Iterator[str]:
    """The site's base URL on a local HTTP server."""

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, format: str, *args: object) -> None:
            pass

    handler = functools.partial(Quiet, directory=str(site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


_HEADINGS = """[...document.querySelectorAll("article h1, article h2")]
    .map(h => h.textContent.replace("¶", "").trim())"""

_SEARCH = """new Promise(resolve => {
  const input = document.querySelector("input.md-search__input");
  input.focus();
  input.value = %s;
  for (const kind of ["focus", "input", "keyup"]) {
    input.dispatchEvent(new Event(kind, {bubbles: true}));
  }
  const start = Date.now();
  (function poll() {
    const hits = [...document.querySelectorAll(".md-search-result__item a")];
    if (hits.length || Date.now() - start > 15000) {
      resolve(hits.map(a => a.getAttribute("href")));
    } else {
      setTimeout(poll, 100);
    }
  })();
})"""


def test_the_site_renders_searches_and_logs_no_error(site: Path, served: str) -> None:
    assert (site / "search" / "search_index.json").exists()
    with Browser(chromium()) as browser:
        for page, heading in PAGES.items():
            browser.goto(served + page)
            headings = browser.evaluate(_HEADINGS)
            assert headings and headings[0], f"{page}: no h1"
            if heading is not None:
                assert headings[0] == heading, f"{page}: h1 {headings[0]!r}, not {heading!r}"
            assert browser.errors() == [], f"{page}: console errors {browser.errors()}"
        browser.goto(served + "reference/api/assay.stats/")
        entries = browser.evaluate('[...document.querySelectorAll(".doc-heading")].map(h => h.id)')
        assert {f"assay.stats.{n}" for n in assay.stats.__all__} <= set(entries)
        browser.goto(served + "reference/cli/")
        cli = browser.evaluate(_HEADINGS.replace("h1, article h2", "h2, article h3"))
        assert {"assay evaluate", "assay ltr run", "assay meta rbo"} <= set(cli)

        browser.goto(served)
        hits = browser.evaluate(_SEARCH % f'"{QUERY}"')
        assert hits, f"searching {QUERY!r} found nothing"
        assert any(h.split("?")[0] == served + HIT for h in hits), hits
        assert browser.errors() == [], f"search: console errors {browser.errors()}"

        # The error check sees an error: a page that logs one and throws one.
        browser.goto('data:text/html,<script>console.error("e1")</script><script>nope()</script>')
        browser.evaluate("1")
        assert browser.errors()[0] == "e1"
        assert browser.errors()[1].startswith("ReferenceError: nope is not defined")
