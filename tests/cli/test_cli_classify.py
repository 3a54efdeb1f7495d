"""``assay classify`` in process: formats, scores, columns, one-line errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from support.cli import assert_one_line_error, invoke
from support.process import run_python


@pytest.fixture
def files(tmp_path: Path) -> dict[str, Path]:
    gold = tmp_path / "gold.txt"
    pred = tmp_path / "pred.txt"
    scores = tmp_path / "scores.txt"
    gold.write_text("pos\nneg\npos\nneg\npos\n")
    pred.write_text("pos\nneg\npos\npos\nneg\n")
    scores.write_text("0.9\n0.1\n0.8\n0.7\n0.3\n")
    both = tmp_path / "both.tsv"
    both.write_text(
        "id\tgold\tpred\tscore\n"
        + "".join(
            f"{i}\t{g}\t{p}\t{s}\n"
            for i, (g, p, s) in enumerate(
                zip(
                    ["pos", "neg", "pos", "neg", "pos"],
                    ["pos", "neg", "pos", "pos", "neg"],
                    [0.9, 0.1, 0.8, 0.7, 0.3],
                    strict=True,
                )
            )
        )
    )
    return {"gold": gold, "pred": pred, "scores": scores, "both": both}


def test_cli_default_tsv(files: dict[str, Path]) -> None:
    code, out, err = invoke("classify", files["gold"], files["pred"])
    assert code == 0, err
    rows = [line.split("\t") for line in out.splitlines()]
    assert all(len(r) == 3 for r in rows)
    values = {(m, lab): v for m, lab, v in rows}
    assert float(values[("accuracy", "")]) == pytest.approx(0.6)
    assert values[("support", "pos")] == "3"
    assert float(values[("f1", "pos")]) == pytest.approx(2 / 3)
    assert float(values[("mcc", "")]) == pytest.approx(1 / 6)


def test_cli_formats_and_scores(files: dict[str, Path]) -> None:
    code, out, err = invoke(
        "classify",
        files["gold"],
        files["pred"],
        "--scores",
        files["scores"],
        "--positive",
        "pos",
        "-f",
        "jsonl",
    )
    assert code == 0, err
    recs = [json.loads(line) for line in out.splitlines()]
    assert all(set(r) <= {"metric", "value", "label"} for r in recs)
    by = {(r["metric"], r.get("label")): r["value"] for r in recs}
    assert by[("roc_auc", "pos")] == pytest.approx(5 / 6)
    assert by[("average_precision", "pos")] == pytest.approx(11 / 12)
    assert by[("accuracy", None)] == pytest.approx(0.6)
    assert ("specificity", "pos") in by and ("iprec_mean", "pos") in by
    for fmt in ("csv", "json", "markdown", "latex", "table", "tsv"):
        code, out, err = invoke("classify", files["gold"], files["pred"], "-f", fmt)
        assert code == 0 and out, (fmt, err)
    code, out, _ = invoke("classify", files["gold"], files["pred"], "-f", "json")
    doc = json.loads(out)
    assert doc["settings"]["zero_division"] == 0 and doc["results"]
    code, out, _ = invoke(
        "classify", files["gold"], files["pred"], "-f", "csv", "--average", "macro"
    )
    assert out.splitlines()[0] == "metric,label,value"
    assert "f1_macro" in out and "f1_micro" not in out
    code, out, _ = invoke(
        "classify", files["gold"], files["pred"], "--average", "binary", "--positive", "pos"
    )
    assert "\tneg\t" not in out and "specificity\tpos\t" in out


def test_cli_columns(files: dict[str, Path]) -> None:
    both = files["both"]
    code, out, err = invoke(
        "classify",
        both,
        both,
        "--gold-column",
        "gold",
        "--pred-column",
        "pred",
        "--scores",
        both,
        "--scores-column",
        "score",
        "--positive",
        "pos",
        "-f",
        "jsonl",
    )
    assert code == 0, err
    by = {(r["metric"], r.get("label")): r["value"] for r in map(json.loads, out.splitlines())}
    assert by[("roc_auc", "pos")] == pytest.approx(5 / 6)
    code, out, err = invoke("classify", both, both, "--column", "gold")
    assert code == 0 and "accuracy\t\t1.0" in out


def test_cli_errors(files: dict[str, Path], tmp_path: Path) -> None:
    short = tmp_path / "short.txt"
    short.write_text("pos\nneg\n")
    assert_one_line_error(*invoke("classify", files["gold"], short), "has 5 labels")
    blank = tmp_path / "blank.txt"
    blank.write_text("pos\n\nneg\npos\nneg\n")
    assert_one_line_error(*invoke("classify", files["gold"], blank), "blank.txt:2:")
    bad_scores = tmp_path / "bad.txt"
    bad_scores.write_text("0.1\nx\n0.3\n0.4\n0.5\n")
    assert_one_line_error(
        *invoke(
            "classify", files["gold"], files["pred"], "--scores", bad_scores, "--positive", "pos"
        ),
        "bad.txt:2:",
    )
    assert_one_line_error(
        *invoke("classify", files["gold"], tmp_path / "missing.txt"), "missing.txt"
    )
    assert_one_line_error(*invoke("classify", files["both"], files["both"]), "--column")
    assert_one_line_error(
        *invoke("classify", files["gold"], files["pred"], "--scores", files["scores"]),
        "--pos-label",
    )
    assert_one_line_error(
        *invoke("classify", files["gold"], files["pred"], "--positive", "x"), "--pos-label"
    )
    assert_one_line_error(
        *invoke("classify", files["gold"], files["pred"], "--zero-division", "2"), "zero-division"
    )


def test_cli_module_is_light() -> None:
    code = (
        "import sys, assay.cli.classify; "
        "print(any(m == 'numpy' or m.startswith('numpy.') for m in sys.modules))"
    )
    assert run_python(code).stdout.strip() == "False"


def test_the_positive_class_has_the_glossary_name_and_the_old_one(files):
    """``--pos-label`` (the glossary's name) and ``--positive`` (its old name) are one option."""
    args = ("classify", files["gold"], files["pred"], "--average", "binary", "-f", "tsv")
    new = invoke(*args, "--pos-label", "pos")
    old = invoke(*args, "--positive", "pos")
    assert new[0] == 0 and new == old


# ---------------------------------------------------------------- several PRED: a comparison


@pytest.fixture
def systems(tmp_path: Path) -> dict[str, Path]:
    import numpy as np

    rng = np.random.default_rng(1)
    gold = rng.choice(["x", "y", "z"], size=120)
    out = {"gold": tmp_path / "gold.txt"}
    out["gold"].write_text("".join(f"{g}\n" for g in gold))
    for i, skill in enumerate((0.5, 0.6, 0.9)):
        pred = np.where(rng.uniform(size=120) < skill, gold, rng.choice(["x", "y", "z"], 120))
        out[f"p{i}"] = tmp_path / f"p{i}.txt"
        out[f"p{i}"].write_text("".join(f"{p}\n" for p in pred))
    return out


def _rows(out: str) -> list[dict[str, str]]:
    lines = out.splitlines()
    header = lines[0].split("\t")
    return [dict(zip(header, line.split("\t"), strict=True)) for line in lines[1:]]


def test_several_preds_are_compared_with_the_first(systems: dict[str, Path]) -> None:
    from assay import classification

    code, out, err = invoke("classify", systems["gold"], systems["p0"], systems["p1"],
                            systems["p2"], "--mcnemar", "mid-p")  # fmt: skip
    assert code == 0, err
    rows = _rows(out)
    diffs = [r for r in rows if r["kind"] == "difference"]
    assert [(r["system"], r["baseline"]) for r in diffs] == [
        ("p1.txt", "p0.txt"),
        ("p2.txt", "p0.txt"),
    ]
    labels = {k: [x.strip() for x in v.read_text().splitlines()] for k, v in systems.items()}
    api = classification.compare(
        labels["gold"],
        {"p0.txt": labels["p0"], "p1.txt": labels["p1"], "p2.txt": labels["p2"]},
        mcnemar="mid-p",
    )
    for row in diffs:
        pair = api.pair(row["system"])
        assert float(row["pvalue"]) == pytest.approx(pair.p_value, rel=1e-12)
        assert int(row["wins"]) == pair.wins and row["significant"] == str(pair.significant)


def test_baseline_metrics_and_tests(systems: dict[str, Path]) -> None:
    code, out, err = invoke("classify", systems["gold"], systems["p0"], systems["p1"],
                            "--baseline", systems["p2"], "-m", "accuracy",
                            "-m", "f1(average='macro')", "--test", "randomization",
                            "--n-resamples", "200", "--seed", "3", "-f", "json")  # fmt: skip
    assert code == 0, err
    rows = json.loads(out)["records"]
    diffs = [r for r in rows if r["kind"] == "difference"]
    assert {r["baseline"] for r in diffs} == {"p2.txt"}
    assert {r["metric"] for r in diffs} == {"accuracy", "f1(average='macro')"}
    assert all(r["value"] < 0 for r in diffs)  # p2 is the best classifier
    again = invoke("classify", systems["gold"], systems["p0"], systems["p1"],
                   "--baseline", systems["p2"], "-m", "accuracy", "-m", "f1(average='macro')",
                   "--test", "randomization", "--n-resamples", "200", "--seed", "3",
                   "-f", "json")  # fmt: skip
    assert again[1] == out  # same seed, same numbers


def test_the_comparison_table(systems: dict[str, Path]) -> None:
    code, out, err = invoke("classify", systems["gold"], systems["p0"], systems["p2"],
                            systems["p1"], "-f", "table")  # fmt: skip
    assert code == 0, err
    assert "▲" in out and "cochran_q" in out and "mcnemar (exact)" in out


@pytest.mark.parametrize(
    ("extra", "needles"),
    [
        (["-m", "mcc"], ("test='mcnemar'", "randomization")),
        (["--average", "macro"], ("--average", "--metric")),
        (["--scores", "SCORES"], ("--scores",)),
        (["--baseline", "nope.txt"], ("--baseline", "nope.txt")),
        (["--test", "anova"], ("anova",)),
        (["--mcnemar", "fisher"], ("fisher",)),
        (["-m", "roc_auc", "--test", "bootstrap"], ("scores",)),
        (["--pos-label", "Q"], ("--pos-label 'Q'",)),
    ],
)
def test_comparison_errors_are_one_line(
    systems: dict[str, Path], extra: list[str], needles: tuple[str, ...]
) -> None:
    args = [str(systems["p0"]) if x == "SCORES" else x for x in extra]
    code, out, err = invoke("classify", systems["gold"], systems["p0"], systems["p1"], *args)
    assert_one_line_error(code, out, err, *needles)


def test_a_short_pred_is_named(systems: dict[str, Path], tmp_path: Path) -> None:
    short = tmp_path / "short.txt"
    short.write_text("x\ny\n")
    code, out, err = invoke("classify", systems["gold"], systems["p0"], short)
    assert_one_line_error(code, out, err, "short.txt", "2")
    code, out, err = invoke("classify", systems["gold"], systems["p0"], systems["p0"])
    assert code == 2 and "p0.txt" in err
