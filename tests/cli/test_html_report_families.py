"""``--report`` and ``--save`` on every command that has them: each page holds its tables and
the plots of its family, no script, and a label from the data shown only as text; the saved
result reports to the same page."""

from __future__ import annotations

from html.parser import HTMLParser
from pathlib import Path

import numpy as np
import pytest

import assay
from support.cli import invoke

pytest.importorskip("matplotlib")

HOSTILE = "<i>x&y</i>"


class Tags(HTMLParser):
    def __init__(self, text: str) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[str] = []
        self.text: list[str] = []
        self.feed(text)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)

    def handle_data(self, data: str) -> None:
        self.text.append(data)


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    d = tmp_path_factory.mktemp("family-reports")
    qrels, runs = assay.datasets.synthetic(n_queries=12, docs_per_query=10, seed=5)
    out = {"qrels": d / "qrels.txt"}
    qrels.to_trec(out["qrels"])
    for name, run in list(runs.items())[:2]:
        out[name] = d / f"{name}.txt"
        run.to_trec(out[name])
    rng = np.random.default_rng(0)
    gold = ["a", HOSTILE, "a", HOSTILE, "a", HOSTILE, "a", "a"]
    texts = {
        "gold": gold,
        "pred": ["a", HOSTILE, HOSTILE, HOSTILE, "a", "a", "a", HOSTILE],
        "pred2": ["a", HOSTILE, "a", HOSTILE, "a", "a", "a", "a"],
        "pred3": ["a", "a", "a", HOSTILE, "a", HOSTILE, "a", "a"],
        "scores": [f"{v:.2f}" for v in (0.9, 0.2, 0.4, 0.1, 0.8, 0.6, 0.7, 0.3)],
        "ratings": ["r1,r2,r3", "1,1,2", "2,2,2", "1,2,1", "3,3,3", "2,2,3"],
        "clusters_gold": ["i1\tc1", "i2\tc1", "i3\tc2", "i4\tc2", "i5\tc3"],
        "clusters_pred": ["i1\tk1", "i2\tk2", "i3\tk2", "i4\tk2", "i5\tk3"],
        "clusters_pred2": ["i1\tk1", "i2\tk1", "i3\tk2", "i4\tk3", "i5\tk3"],
        "ref": ["the cat is on the mat", "the dog barked", "it rains"],
        "hyp1": ["the cat sat on the mat", "a dog barked", "it rains"],
        "hyp2": ["the cat", "the dog barked loudly", "it is raining"],
        "y": [str(v) for v in np.linspace(0, 1, 8)],
        "p1": [str(v) for v in np.linspace(0, 1, 8) ** 2],
        "p2": [str(v) for v in np.linspace(0.1, 0.9, 8)],
        "conll": [
            "Paris B-LOC B-LOC",
            "is O O",
            "nice O B-MISC",
            "",
            "Ann B-PER B-PER",
            "ran O O",
        ],
        "rankings": ["a b c", "b a c", "a c b"],
        "emb_labels": [f"c{i % 3}" for i in range(12)],
        "confidence": [f"{v:.3f}" for v in rng.random(12)],
    }
    for key, lines in texts.items():
        out[key] = d / f"{key}.txt"
        out[key].write_text("\n".join(lines) + "\n", encoding="utf-8")
    out["emb"] = d / "emb.npy"
    np.save(out["emb"], rng.normal(size=(12, 4)))
    out["emb2"] = d / "emb2.npy"
    np.save(out["emb2"], rng.normal(size=(12, 4)))
    return out


def _cases(f: dict[str, Path]) -> dict[str, tuple[list[str], int]]:
    """Command -> (arguments, plots on its page)."""
    runs = [str(f["run1"]), str(f["run2"])]
    return {
        "evaluate": (["evaluate", str(f["qrels"]), *runs], 3),
        "compare": (["compare", str(f["qrels"]), *runs, "--n-resamples", "200"], 3),
        "classify": (
            [
                "classify",
                str(f["gold"]),
                str(f["pred"]),
                "--scores",
                str(f["scores"]),
                "--positive",
                "a",
            ],
            4,
        ),
        # several classifiers against a baseline: the tables and the forest plot
        "classify compare": (
            [
                "classify",
                str(f["gold"]),
                str(f["pred"]),
                str(f["pred2"]),
                str(f["pred3"]),
                "-m",
                "accuracy",
                "-m",
                "f1(average='macro')",
                "--test",
                "bootstrap",
                "--n-resamples",
                "50",
            ],
            1,
        ),
        "cluster": (["cluster", str(f["clusters_gold"]), str(f["clusters_pred"])], 1),
        # several systems: the comparison's tables and its forest plot
        "cluster compare": (
            [
                "cluster",
                str(f["clusters_gold"]),
                str(f["clusters_pred"]),
                str(f["clusters_pred2"]),
                "--n-resamples",
                "20",
            ],
            1,
        ),
        "embed compare": (
            ["embed", str(f["emb"]), str(f["emb_labels"]), str(f["emb2"]), "--n-resamples", "20"],
            1,
        ),
        "agree": (["agree", str(f["ratings"])], 1),
        "embed": (
            ["embed", str(f["emb"]), str(f["emb_labels"]), "--confidence", str(f["confidence"])],
            1,
        ),
        "tagging": (["tagging", str(f["conll"])], 0),
        "generation": (
            [
                "generation",
                str(f["ref"]),
                str(f["hyp1"]),
                str(f["hyp2"]),
                "-m",
                "chrf",
                "--n-resamples",
                "20",
            ],
            0,
        ),
        "regression": (
            [
                "regression",
                str(f["y"]),
                str(f["p1"]),
                str(f["p2"]),
                "--n-resamples",
                "20",
                "--zero-target=nan",
            ],
            0,
        ),
        "meta rbo": (["meta", "rbo", *runs], 0),
        "meta discpower": (
            ["meta", "discpower", str(f["qrels"]), *runs, "-m", "P@5", "--n-resamples", "50"],
            0,
        ),
        "aggregate": (["aggregate", str(f["rankings"])], 0),
    }


COMMANDS = [
    "evaluate",
    "compare",
    "classify",
    "classify compare",
    "cluster",
    "cluster compare",
    "agree",
    "embed",
    "embed compare",
    "tagging",
    "generation",
    "regression",
    "meta rbo",
    "meta discpower",
    "aggregate",
]


@pytest.mark.parametrize("command", COMMANDS)
def test_a_command_reports_its_family(files: dict[str, Path], tmp_path: Path, command: str) -> None:
    args, n_plots = _cases(files)[command]
    page, saved = tmp_path / "page.html", tmp_path / "saved.json"
    code, _, err = invoke(*args, "-f", "tsv", "--report", page, "--save", saved)
    assert code == 0, err
    raw = page.read_text(encoding="utf-8")
    tags = Tags(raw)
    assert tags.tags.count("table") >= 1
    assert tags.tags.count("svg") == n_plots
    assert "script" not in tags.tags
    if command == "classify":  # a label from the data, in the tables and the plots
        assert "<i>" not in raw and "i" not in tags.tags
        assert "".join(tags.text).count(HOSTILE) >= 4
    again = tmp_path / "again.html"
    title = f"assay {command.removesuffix(' compare')}"  # "cluster compare": assay cluster
    code, _, err = invoke("report", saved, "-o", again, "--title", title)
    assert code == 0, err
    assert again.read_text(encoding="utf-8") == raw


def test_text_valued_metrics_are_tabled_not_plotted(files: dict[str, Path], tmp_path: Path) -> None:
    page = tmp_path / "page.html"
    args = ["evaluate", files["qrels"], files["run1"], files["run2"], "-m", "relstring", "-m",
            "P@5", "-f", "tsv", "--report", page]  # fmt: skip
    code, _, err = invoke(*args)
    assert code == 0, err
    raw = page.read_text(encoding="utf-8")
    tables = raw[: raw.index("<svg")]
    plots = raw[raw.index("<svg") : raw.rindex("</svg>")]
    assert "relstring" in tables and "relstring" not in plots
    assert "P@5" in plots


def test_a_report_adds_no_warning(tmp_path: Path) -> None:
    qrels = tmp_path / "qrels.txt"
    qrels.write_text("q1 0 d1 1\nq1 0 d2 0\nq2 0 d1 0\n", encoding="utf-8")
    run = tmp_path / "run.txt"
    run.write_text("q1 Q0 d1 1 2.0 r\nq1 Q0 d2 2 1.0 r\nq2 Q0 d1 1 1.0 r\n", encoding="utf-8")
    args = ["evaluate", qrels, run, "-m", "AP", "--no-relevant", "one", "-f", "tsv"]
    code, _, plain = invoke(*args)
    assert code == 0 and "undefined" in plain  # q2 has no relevant document
    code, _, reported = invoke(*args, "--report", tmp_path / "r.html")
    assert code == 0 and reported == plain


def test_a_result_saved_as_parquet_is_records_and_a_report(
    files: dict[str, Path], tmp_path: Path
) -> None:
    import pyarrow.parquet as pq

    args, _ = _cases(files)["compare"]
    page, saved = tmp_path / "page.html", tmp_path / "saved.parquet"
    code, out, err = invoke(*args, "-f", "jsonl", "--report", page, "--save", saved)
    assert code == 0, err
    table = pq.read_table(saved)
    assert table.num_rows == len(out.splitlines())  # one row per record
    assert {"result", "kind", "run", "metric", "value", "p_adjusted"} <= set(table.column_names)
    again = tmp_path / "again.html"
    code, _, err = invoke("report", saved, "-o", again, "--title", "assay compare")
    assert code == 0, err
    assert again.read_bytes() == page.read_bytes()


def test_tagging_in_conlleval_format_still_reports(files: dict[str, Path], tmp_path: Path) -> None:
    page = tmp_path / "page.html"
    code, out, err = invoke("tagging", files["conll"], "-f", "conlleval", "--report", page)
    assert code == 0, err
    assert out.startswith("processed ")  # conlleval's own layout on stdout
    assert Tags(page.read_text(encoding="utf-8")).tags.count("table") >= 1
