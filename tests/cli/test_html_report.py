"""The HTML report of ``assay demo`` (issue 16): tables and plots present, nothing fetched and
nothing run, hostile run names shown as text; saved results reported later to the same page;
tables of saved results as Markdown/LaTeX; plots exported as PNG/SVG/PDF. Then the page in a
real browser (headless Chromium): the DOM holds the tables and the plots and no script, and a
screenshot is saved."""

from __future__ import annotations

import subprocess
import sys
import tempfile
from html.parser import HTMLParser
from pathlib import Path

import pytest

from support.browser import chromium
from support.cli import assert_one_line_error, invoke

pytest.importorskip("lightgbm")
pytest.importorskip("matplotlib")

HOSTILE = "<script>alert(1)</script>"
SECTIONS = (
    "Models × metrics",
    "Per-query distributions",
    "Per-query differences against linear",
    "Precision-recall",
    "Metric against the number of trees",
    "Feature importance",
    "Effectiveness by query length",
)


class Page(HTMLParser):
    """Tags, attributes and text of a page, as a browser's tokenizer reads them."""

    def __init__(self, text: str) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[str] = []
        self.attrs: list[tuple[str, str | None]] = []
        self.text: list[str] = []
        self.feed(text)
        self.close()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        self.attrs += attrs

    def handle_data(self, data: str) -> None:
        self.text.append(data)

    def count(self, tag: str) -> int:
        return self.tags.count(tag)


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """``assay demo`` on 40 queries with --report and --save, and the saved result with the
    second model renamed to a hostile name, reported again."""
    d = tmp_path_factory.mktemp("html-report")
    files = {"html": d / "demo.html", "saved": d / "demo.json", "hostile": d / "hostile.html"}
    code, _, err = invoke("demo", "--queries", "40", "--report", files["html"],
                          "--save", files["saved"])  # fmt: skip
    assert code == 0, err
    text = files["saved"].read_text(encoding="utf-8")
    files["hostile_saved"] = d / "hostile.json"
    files["hostile_saved"].write_text(text.replace("lambdamart", HOSTILE), encoding="utf-8")
    code, _, err = invoke("report", files["hostile_saved"], "-o", files["hostile"])
    assert code == 0, err
    return files


def test_the_demo_report_has_its_tables_and_plots(demo: dict[str, Path]) -> None:
    page = Page(demo["html"].read_text(encoding="utf-8"))
    assert page.count("table") >= 4  # models x metrics, trees, importance, query length
    assert page.count("svg") == 6  # distributions, differences, PR, trees, importance, length
    assert page.count("script") == 0
    headings = "".join(page.text)
    for name in SECTIONS:
        assert name in headings, name
    assert "lambdamart − linear" in headings


def test_the_page_is_self_contained(demo: dict[str, Path]) -> None:
    raw = demo["html"].read_text(encoding="utf-8")
    page = Page(raw)
    for name, value in page.attrs:
        if name in ("src", "href", "xlink:href") and value is not None:
            assert value.startswith("#"), (name, value)
        if value is not None and "://" in value:
            assert name.startswith("xmlns"), (name, value)  # a namespace, never fetched
    assert page.count("link") == 0 and page.count("img") == 0 and page.count("iframe") == 0
    assert "@import" not in raw and "url(http" not in raw
    assert "default-src 'none'" in raw  # the Content-Security-Policy


def test_a_hostile_run_name_is_text_everywhere(demo: dict[str, Path]) -> None:
    raw = demo["hostile"].read_text(encoding="utf-8")
    page = Page(raw)
    assert page.count("script") == 0
    assert "<script" not in raw
    text = "".join(page.text)
    # in the table, the plot titles, the legends of the SVG plots and the provenance
    assert text.count(HOSTILE) >= 10
    assert page.count("svg") == 6


def test_a_saved_result_reports_to_the_same_page(demo: dict[str, Path], tmp_path: Path) -> None:
    again = tmp_path / "again.html"
    code, _, err = invoke("report", demo["saved"], "-o", again, "--title", "assay demo")
    assert code == 0, err
    assert again.read_text(encoding="utf-8") == demo["html"].read_text(encoding="utf-8")


def test_saved_tables_as_latex_and_markdown(demo: dict[str, Path]) -> None:
    code, latex, _ = invoke("report", demo["saved"], "-f", "latex")
    assert code == 0
    assert "\\toprule" in latex and "\\bottomrule" in latex
    code, markdown, _ = invoke("report", demo["hostile_saved"], "-f", "markdown")
    assert code == 0
    assert "\\<script\\>" in markdown and "<script>" not in markdown


@pytest.mark.parametrize(("suffix", "magic"), [("png", b"\x89PNG"), ("svg", b"<?xml"),
                                               ("pdf", b"%PDF")])  # fmt: skip
def test_a_saved_plot_exports(demo: dict[str, Path], tmp_path: Path, suffix: str,
                              magic: bytes) -> None:  # fmt: skip
    out = tmp_path / f"plot.{suffix}"
    code, _, err = invoke("plot", demo["saved"], "-n", "4", "-o", out)
    assert code == 0, err
    assert out.read_bytes().startswith(magic)


def test_the_plots_are_listed(demo: dict[str, Path]) -> None:
    code, out, _ = invoke("plot", demo["saved"], "-f", "tsv")
    assert code == 0
    rows = out.splitlines()
    assert rows[0] == "number\tresult\tsection\ttitle" and len(rows) == 7


def test_what_is_not_a_saved_result_is_one_line(demo: dict[str, Path], tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "assay-report", "version": 99, "documents": []}\n')
    assert_one_line_error(*invoke("report", bad), "version 99")
    bad.write_text("not json\n")
    assert_one_line_error(*invoke("report", bad), "not JSON")
    assert_one_line_error(*invoke("plot", demo["saved"], "-n", "9", "-o", tmp_path / "x.png"),
                          "plot 9")  # fmt: skip


def test_a_report_without_matplotlib_is_an_install_hint(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib fails
    out = tmp_path / "r.html"
    assert_one_line_error(*invoke("demo", "--queries", "5", "--report", out), "assay[plot]")
    assert not out.exists()


# ---------------------------------------------------------------- a real browser


def _browse(page: Path, *args: str) -> str:
    """Headless Chromium (as root too) on ``page``; its stdout."""
    with tempfile.TemporaryDirectory() as profile:
        cmd = [chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
               "--no-first-run", "--disable-background-networking",
               "--disable-component-update", "--disable-sync", f"--user-data-dir={profile}",
               *args, page.as_uri()]  # fmt: skip
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=180, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


def test_chromium_shows_the_tables_and_plots(demo: dict[str, Path], tmp_path: Path) -> None:
    dom = _browse(demo["hostile"], "--dump-dom")
    page = Page(dom)
    assert page.count("table") >= 4
    assert page.count("svg") == 6
    assert page.count("script") == 0
    assert HOSTILE in "".join(page.text)
    shot = tmp_path / "demo.png"
    _browse(demo["html"], f"--screenshot={shot}", "--window-size=1280,2000")
    assert shot.read_bytes().startswith(b"\x89PNG")
    assert shot.stat().st_size > 50_000  # a page of tables and plots, not a blank one


@pytest.fixture(scope="module")
def letor(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from assay import ltr

    folder = tmp_path_factory.mktemp("letor")
    for split, data in ltr.mslr_like_splits(30, seed=2, mean_docs=15).items():
        data.to_letor(folder / f"{split}.txt")
    return folder


def test_ltr_run_reports_the_same_sections(letor: Path, tmp_path: Path) -> None:
    page = tmp_path / "ltr.html"
    code, _, err = invoke("ltr", "run", letor, "--models", "linear,lambdamart",
                          "--n-resamples", "200", "-f", "tsv", "--report", page)  # fmt: skip
    assert code == 0, err
    parsed = Page(page.read_text(encoding="utf-8"))
    assert parsed.count("svg") == 6 and parsed.count("script") == 0
    text = "".join(parsed.text)
    for name in SECTIONS:
        assert name in text, name


@pytest.mark.parametrize(("analysis", "heading", "plots"), [
    ("trees", "Metric against the number of trees", 1),
    ("length", "Effectiveness by query length", 1),
    ("queries", "over queries", 0),
])  # fmt: skip
def test_an_ltr_analysis_reports_its_plot_and_table(
    letor: Path, tmp_path: Path, analysis: str, heading: str, plots: int
) -> None:
    page = tmp_path / "analysis.html"
    code, _, err = invoke("ltr", "analyze", letor, analysis, "--step", "5", "-f", "tsv",
                          "--report", page)  # fmt: skip
    assert code == 0, err
    parsed = Page(page.read_text(encoding="utf-8"))
    assert parsed.count("svg") == plots and parsed.count("table") == 1
    assert heading in "".join(parsed.text)


def test_chromium_shows_a_classifier_comparison(tmp_path: Path) -> None:
    # several classifiers against a baseline (issue 29): the scores, the differences and
    # Cochran's Q as tables, the forest plot of the differences, a hostile system name as text
    gold = tmp_path / "gold.txt"
    gold.write_text("a\nb\na\nb\na\nb\na\na\nb\nb\n", encoding="utf-8")
    preds = []
    for name, labels in (("base", "aaaaabaabb"), (HOSTILE, "abababaabb"), ("third", "abaaabaabb")):
        path = tmp_path / f"{len(preds)}.txt"
        path.write_text("".join(f"{x}\n" for x in labels), encoding="utf-8")
        preds.append((name, path))
    page = tmp_path / "classify.html"
    saved = tmp_path / "classify.json"
    code, _, err = invoke("classify", gold, *[p for _, p in preds], "-f", "tsv",
                          "--test", "randomization", "--n-resamples", "200",
                          "-m", "accuracy", "-m", "mcc", "--save", saved)  # fmt: skip
    assert code == 0, err
    text = saved.read_text(encoding="utf-8").replace("1.txt", HOSTILE.replace('"', '\\"'))
    saved.write_text(text, encoding="utf-8")
    code, _, err = invoke("report", saved, "-o", page)
    assert code == 0, err
    dom = Page(_browse(page, "--dump-dom"))
    assert dom.count("table") >= 3
    assert dom.count("svg") == 1
    assert dom.count("script") == 0
    shown = "".join(dom.text)
    assert HOSTILE in shown and "cochran_q" in shown and "mcc" in shown
