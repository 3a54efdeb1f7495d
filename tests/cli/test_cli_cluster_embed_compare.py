"""``assay cluster GOLD PRED PRED...`` and ``assay embed EMBEDDINGS LABELS EMBEDDINGS...``
in process: several systems are compared against ``--baseline`` and print the numbers of
:func:`assay.clustering.compare` / :func:`assay.embeddings.compare`; one system prints what
it always printed; bad inputs are one-line errors."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import numpy as np
import pytest

from assay import clustering as C
from assay import embeddings as E
from support.browser import chromium
from support.cli import assert_one_line_error, invoke

GOLD = [0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3, 0, 1, 2, 3]
GOOD = [5, 5, 5, 6, 6, 6, 7, 7, 7, 8, 8, 8, 5, 6, 7, 7]
POOR = [0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2, 0]


def _labels(path: Path, labels: list[int]) -> Path:
    path.write_text("".join(f"item{i}\tc{v}\n" for i, v in enumerate(labels)), encoding="utf-8")
    return path


def _records(out: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(out), delimiter="\t"))


@pytest.fixture
def clusterings(tmp_path: Path) -> dict[str, Path]:
    return {
        name: _labels(tmp_path / f"{name}.tsv", labels)
        for name, labels in (("gold", GOLD), ("good", GOOD), ("poor", POOR))
    }


def test_several_clusterings_print_the_comparison(clusterings: dict[str, Path]) -> None:
    f = clusterings
    args = ["--n-resamples", "200", "--seed", "3", "-m", "adjusted_rand_index", "-m", "purity"]
    code, out, err = invoke("cluster", f["gold"], f["poor"], f["good"], *args)
    assert code == 0, err
    order = sorted(range(len(GOLD)), key=lambda i: f"item{i}")  # the CLI sorts items by name
    gold, poor, good = ([x[i] for i in order] for x in (GOLD, POOR, GOOD))
    expected = C.compare(
        gold,
        {"poor.tsv": poor, "good.tsv": good},
        n_resamples=200,
        seed=3,
        metrics=["adjusted_rand_index", "purity"],
    )
    rows = _records(out)
    assert [r["kind"] for r in rows] == ["score"] * 4 + ["difference"] * 2
    for row, want in zip(rows, expected.records(), strict=True):
        assert row["system"] == want["system"] and row["metric"] == want["metric"]
        assert float(row["value"]) == pytest.approx(want["value"], abs=1e-12)
        assert float(row["ci_low"]) == pytest.approx(want["ci_low"], abs=1e-12)
    assert float(rows[4]["pvalue"]) == expected.pairs[0].p_value


def test_a_baseline_file_is_added_and_the_tests_are_chosen(clusterings: dict[str, Path]) -> None:
    f = clusterings
    code, out, err = invoke(
        "cluster",
        f["gold"],
        f["good"],
        "--baseline",
        f["poor"],
        "--test",
        "randomization",
        "--n-resamples",
        "99",
        "-f",
        "json",
    )
    assert code == 0, err
    doc = json.loads(out)
    assert doc["settings"]["baseline"] == "poor.tsv" and doc["settings"]["test"] == "randomization"
    diffs = [r for r in doc["records"] if r["kind"] == "difference"]
    assert [(r["system"], r["metric"]) for r in diffs] == [
        ("good.tsv", "adjusted_rand_index"),
        ("good.tsv", "nmi"),
    ]
    assert all(r["pvalue"] == pytest.approx(1 / 100) for r in diffs)


def test_one_clustering_prints_what_it_always_did(clusterings: dict[str, Path]) -> None:
    f = clusterings
    plain = invoke("cluster", f["gold"], f["good"])
    assert plain[0] == 0 and plain[1].startswith("metric\tvalue\n")
    # the comparison's options do nothing to one clustering's report
    same = invoke("cluster", f["gold"], f["good"], "--test", "randomization", "--seed", "9")
    assert same == plain


def test_outputs_and_the_report_page(clusterings: dict[str, Path], tmp_path: Path) -> None:
    f = clusterings
    out_file, page = tmp_path / "out.csv", tmp_path / "page.html"
    code, out, err = invoke(
        "cluster",
        f["gold"],
        f["poor"],
        f["good"],
        "--n-resamples",
        "50",
        "-o",
        out_file,
        "--report",
        page,
    )
    assert code == 0, err and out == ""
    assert out_file.read_text(encoding="utf-8").startswith("kind,system,baseline,metric")
    html = page.read_text(encoding="utf-8")
    assert "Clustering: systems against poor.tsv" in html and html.count("<svg") == 1


def test_bad_clustering_inputs_are_one_line_errors(
    clusterings: dict[str, Path], tmp_path: Path
) -> None:
    f = clusterings
    result = invoke("cluster", f["gold"], f["good"], "--baseline", tmp_path / "nope.tsv")
    assert_one_line_error(*result, "--baseline", "neither one of the clustering files")
    result = invoke("cluster", f["gold"], f["good"], "--baseline", f["good"])
    assert_one_line_error(*result, "only clustering")
    short = _labels(tmp_path / "short.tsv", GOOD[:-2])
    result = invoke("cluster", f["gold"], f["good"], short)
    assert_one_line_error(*result, "short.tsv", "2 item(s) only in")
    soft = tmp_path / "soft.txt"
    soft.write_text(" ".join(f"item{i}:0.5" for i in range(16)) + "\n", encoding="utf-8")
    result = invoke("cluster", f["gold"], f["good"], soft)
    assert_one_line_error(*result, "needs hard clusterings")
    result = invoke("cluster", f["gold"], f["good"], f["poor"], "--test", "t")
    assert result[0] == 2 and "t" in result[2]
    result = invoke("cluster", f["gold"], f["good"], f["poor"], "-m", "ari")
    assert_one_line_error(*result, "'ari' is not a hard-clustering measure")
    result = invoke("cluster", f["gold"], f["good"], f["good"])
    assert_one_line_error(*result, "given twice")
    result = invoke("cluster", "-", f["good"], f["poor"], input="item0\tc0\n")
    assert_one_line_error(*result, "GOLD cannot be read from stdin")


@pytest.fixture
def spaces(tmp_path: Path) -> dict[str, Path]:
    rng = np.random.default_rng(0)
    labels = rng.integers(0, 3, 30)
    centers = rng.normal(size=(3, 5))
    out = {"labels": tmp_path / "labels.txt"}
    out["labels"].write_text("".join(f"k{v}\n" for v in labels), encoding="utf-8")
    for name, noise in (("tight", 0.5), ("loose", 2.0), ("mid", 1.0)):
        out[name] = tmp_path / f"{name}.npy"
        np.save(out[name], centers[labels] + rng.normal(scale=noise, size=(30, 5)))
    return out


def test_several_embeddings_print_the_comparison(spaces: dict[str, Path]) -> None:
    f = spaces
    code, out, err = invoke(
        "embed",
        f["loose"],
        f["labels"],
        f["tight"],
        f["mid"],
        "--backend",
        "numpy",
        "--test",
        "wilcoxon",
        "--n-resamples",
        "300",
        "-m",
        "map@r",
        "--confidence-level",
        "0.9",
    )
    assert code == 0, err
    labels = f["labels"].read_text(encoding="utf-8").split()
    expected = E.compare(
        {n: np.load(f[n]) for n in ("loose", "tight", "mid")},
        labels,
        metrics="map@r",
        backend="numpy",
        test="wilcoxon",
        n_resamples=300,
        confidence=0.9,
    )
    rows = _records(out)
    diffs = [r for r in rows if r["kind"] == "difference"]
    assert [r["system"] for r in diffs] == ["tight.npy", "mid.npy"]
    for row, pair in zip(diffs, expected.pairs, strict=True):
        assert float(row["pvalue"]) == pytest.approx(pair.p_value, rel=1e-12)
        assert float(row["ci_low"]) == pytest.approx(pair.ci_low, rel=1e-12)
        assert (int(row["wins"]), int(row["ties"]), int(row["losses"])) == (
            pair.wins,
            pair.ties,
            pair.losses,
        )


def test_one_embedding_prints_what_it_always_did(spaces: dict[str, Path], tmp_path: Path) -> None:
    f = spaces
    plain = invoke("embed", f["tight"], f["labels"], "--backend", "numpy")
    assert plain[0] == 0 and plain[1].startswith("metric\tmean\tclass_mean")
    same = invoke("embed", f["tight"], f["labels"], "--backend", "numpy", "--test", "t")
    assert same == plain
    page = tmp_path / "p.html"
    code, _, err = invoke(
        "embed",
        f["tight"],
        f["labels"],
        "--baseline",
        f["loose"],
        "--backend",
        "numpy",
        "--n-resamples",
        "50",
        "--report",
        page,
    )
    assert code == 0, err
    assert "Embeddings: systems against loose.npy" in page.read_text(encoding="utf-8")


def test_bad_embedding_inputs_are_one_line_errors(spaces: dict[str, Path], tmp_path: Path) -> None:
    f = spaces
    two = [f["tight"], f["labels"], f["loose"], "--backend", "numpy"]
    assert_one_line_error(*invoke("embed", *two, "--per-class"), "--per-class", "one EMBEDDINGS")
    assert_one_line_error(*invoke("embed", *two, "--confidence", f["labels"]), "--confidence")
    result = invoke("embed", *two, "--reference", f["tight"], "--reference-labels", f["labels"])
    assert_one_line_error(*result, "one --reference per EMBEDDINGS file")
    result = invoke("embed", f["tight"], f["labels"], "--baseline", f["tight"])
    assert_one_line_error(*result, "only embeddings file")
    result = invoke("embed", *two, "--baseline", tmp_path / "nope.npy")
    assert_one_line_error(*result, "neither one of the embeddings files")
    np.save(tmp_path / "short.npy", np.zeros((29, 5)))
    result = invoke("embed", f["tight"], f["labels"], tmp_path / "short.npy")
    assert_one_line_error(*result, "30 labels but", "29 embeddings")
    result = invoke("embed", *two, "--n-resamples", "0")
    assert_one_line_error(*result, "n_resamples")


def test_chromium_shows_both_comparison_pages(
    clusterings: dict[str, Path], spaces: dict[str, Path], tmp_path: Path
) -> None:
    """The pages as a real browser reads them: the tables (scores, differences) and the
    forest plot, no script."""
    import subprocess
    import tempfile

    browser = chromium()
    c, s = clusterings, spaces
    runs = {
        "cluster.html": ["cluster", c["gold"], c["poor"], c["good"], "--n-resamples", "50"],
        "embed.html": [
            "embed",
            s["loose"],
            s["labels"],
            s["tight"],
            "--backend",
            "numpy",
            "--n-resamples",
            "50",
        ],
    }
    for name, args in runs.items():
        page = tmp_path / name
        code, _, err = invoke(*args, "--report", page)
        assert code == 0, err
        with tempfile.TemporaryDirectory() as profile:
            cmd = [
                browser,
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                f"--user-data-dir={profile}",
                "--dump-dom",
                page.as_uri(),
            ]
            done = subprocess.run(cmd, capture_output=True, text=True, timeout=180, check=False)
        assert done.returncode == 0, done.stderr[-2000:]
        dom = done.stdout
        assert dom.count("<table") >= 2, name
        assert dom.count("<svg") == 1 and "<script" not in dom, name
        assert "Differences against" in dom, name


def test_one_reference_set_per_embeddings_file(spaces: dict[str, Path], tmp_path: Path) -> None:
    f = spaces
    rng = np.random.default_rng(1)
    refs = {}
    for name in ("tight", "loose"):
        refs[name] = tmp_path / f"ref_{name}.npy"
        np.save(refs[name], np.load(f[name]) + rng.normal(scale=0.1, size=(30, 5)))
    code, out, err = invoke(
        "embed",
        f["tight"],
        f["labels"],
        f["loose"],
        "--reference",
        refs["tight"],
        "--reference",
        refs["loose"],
        "--reference-labels",
        f["labels"],
        "--backend",
        "numpy",
        "--n-resamples",
        "100",
        "-m",
        "precision@1",
    )
    assert code == 0, err
    labels = f["labels"].read_text(encoding="utf-8").split()
    for name, row in zip(("tight", "loose"), _records(out)[:2], strict=True):
        alone = E.retrieval_metrics(
            np.load(f[name]),
            labels,
            np.load(refs[name]),
            labels,
            metrics="precision@1",
            backend="numpy",
        )
        assert float(row["value"]) == pytest.approx(alone.mean("precision@1"), abs=1e-15)
