"""Relevance judgments from crowds (:func:`assay.judgments.crowd_qrels`): small cases worked by
hand, the grade rules, the task ids, bad input naming file and line, the agreement per topic,
the ranking change, the qrels file, and escaping in every output."""

from __future__ import annotations

import csv
import io
import json
import math
from pathlib import Path

import numpy as np
import pytest

import assay
from assay import Qrels
from assay.agreement import krippendorff_alpha
from assay.errors import InputError, OptionError
from assay.judgments import CrowdQrels, crowd_qrels

#: 2 queries, 3 judged documents, 3 workers. q1/d1 is unanimous (2), q1/d2 is 0, 0, 1 and
#: q2/d3 is 1, 1, 3.
ROWS = {
    "query": ["q1", "q1", "q1", "q1", "q1", "q1", "q2", "q2", "q2"],
    "doc": ["d1", "d1", "d1", "d2", "d2", "d2", "d3", "d3", "d3"],
    "worker": ["a", "b", "c", "a", "b", "c", "a", "b", "c"],
    "grade": [2, 2, 2, 0, 0, 1, 1, 1, 3],
}


def _csv(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


def test_a_case_worked_by_hand() -> None:
    res = crowd_qrels(ROWS, method="majority_vote")
    assert isinstance(res, CrowdQrels)
    assert list(res.qrels) == [("q1", "d1", 2), ("q1", "d2", 0), ("q2", "d3", 1)]
    assert res.grades == (0, 1, 2, 3)
    assert res.query.to_pylist() == ["q1", "q1", "q2"]
    assert res.doc.to_pylist() == ["d1", "d2", "d3"]
    assert res.n_labels.tolist() == [3, 3, 3]
    # majority vote's posterior is the vote share of each grade
    third = 1 / 3
    np.testing.assert_allclose(
        res.posterior, [[0, 0, 1, 0], [2 * third, third, 0, 0], [0, 2 * third, 0, third]]
    )
    assert res.n_changed == 0
    assert res.majority_qrels is not None and list(res.majority_qrels) == list(res.qrels)


@pytest.mark.parametrize(
    "method",
    ["majority_vote", "wawa", "zbs", "dawid_skene", "one_coin_dawid_skene", "glad", "mace"],
)
def test_unanimous_documents_keep_their_grade(method: str) -> None:
    rows = {
        "query": ["q1"] * 6 + ["q2"] * 6,
        "doc": ["d1"] * 3 + ["d2"] * 3 + ["d1"] * 3 + ["d4"] * 3,
        "worker": ["a", "b", "c"] * 4,
        "grade": [2, 2, 2, 0, 0, 0, 1, 1, 1, 0, 1, 1],
    }
    res = crowd_qrels(rows, method=method)
    grades = {(q, d): g for q, d, g in res.qrels}
    assert grades[("q1", "d1")] == 2
    assert grades[("q1", "d2")] == 0
    assert grades[("q2", "d1")] == 1
    np.testing.assert_allclose(res.posterior.sum(axis=1), 1.0)
    assert res.posterior.shape == (4, 3)


def test_the_expected_grade_rule_rounds_the_posterior_mean() -> None:
    # one document split between 1 and 3: argmax picks a side, the expected grade is 2
    rows = {
        "query": ["q"] * 4 + ["q"] * 3,
        "doc": ["d"] * 4 + ["e"] * 3,
        "worker": ["a", "b", "c", "d", "a", "b", "c"],
        "grade": [1, 3, 1, 3, 0, 0, 1],
    }
    argmax = crowd_qrels(rows, method="majority_vote", grades=[0, 1, 2, 3])
    expected = crowd_qrels(rows, method="majority_vote", grades=[0, 1, 2, 3], grade_rule="expected")
    assert dict(((q, d), g) for q, d, g in argmax.qrels)[("q", "d")] in (1, 3)
    assert [g for _, _, g in expected.qrels] == [2, 0]  # 2 = (1 + 3) / 2; 1/3 rounds to 0
    # the majority-vote reference is always the argmax
    assert expected.majority_grade.tolist() == argmax.grade.tolist()
    assert expected.n_changed == 1


def test_the_expected_rule_keeps_to_the_grades_of_the_scale() -> None:
    # scale 0, 1, 3: a mean of 2 is halfway between 1 and 3 (the higher), 1.75 is nearer 1
    rows = {
        "query": ["q"] * 8,
        "doc": ["d"] * 4 + ["e"] * 4,
        "worker": ["a", "b", "c", "d"] * 2,
        "grade": [1, 3, 1, 3, 1, 1, 0, 3],
    }
    res = crowd_qrels(rows, method="majority_vote", grade_rule="expected")
    assert res.grades == (0, 1, 3)
    assert res.grade.tolist() == [3, 1]
    assert set(res.grade.tolist()) <= set(res.grades)


def test_halves_round_up_under_the_expected_rule() -> None:
    rows = {"query": ["q", "q"], "doc": ["d", "d"], "worker": ["a", "b"], "grade": [0, 1]}
    res = crowd_qrels(rows, method="majority_vote", grade_rule="expected")
    assert res.grade.tolist() == [1]


def test_task_ids_of_different_pairs_never_collide() -> None:
    rows = {
        "query": ["a|b", "a", "a\\", "a"],
        "doc": ["c", "b|c", "|c", "\\|c"],
        "worker": ["w", "w", "w", "w"],
        "grade": [1, 0, 2, 3],
    }
    res = crowd_qrels(rows, method="majority_vote")
    assert len(res.grade) == 4
    assert sorted(res.qrels) == sorted(
        [("a|b", "c", 1), ("a", "b|c", 0), ("a\\", "|c", 2), ("a", "\\|c", 3)]
    )
    assert len(set(res.aggregation.tasks)) == 4


def test_the_same_document_under_two_queries_is_two_tasks() -> None:
    rows = {"query": ["q1", "q2"], "doc": ["d", "d"], "worker": ["w", "w"], "grade": [1, 0]}
    res = crowd_qrels(rows, method="majority_vote")
    assert list(res.qrels) == [("q1", "d", 1), ("q2", "d", 0)]


def test_declared_grades_are_the_posterior_columns() -> None:
    res = crowd_qrels(ROWS, method="majority_vote", grades=[4, 3, 2, 1, 0])
    assert res.grades == (0, 1, 2, 3, 4)
    assert res.posterior.shape == (3, 5)
    assert res.posterior[:, 4].tolist() == [0.0, 0.0, 0.0]


# ------------------------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    ("grade", "needle"),
    [("x", "grade 'x'"), ("1.5", "grade '1.5'"), ("", "grade is missing"), ("2e0", "grade '2e0'")],
)
def test_a_bad_grade_names_file_and_line(tmp_path: Path, grade: str, needle: str) -> None:
    path = _csv(tmp_path / "j.csv", f"query,doc,worker,grade\nq,d,a,1\nq,d,b,{grade}\n")
    with pytest.raises(InputError) as info:
        crowd_qrels(path, method="majority_vote")
    text = str(info.value)
    assert f"{path}:3" in text, text
    assert needle in text, text


def test_a_non_integer_grade_in_a_frame_names_its_row() -> None:
    rows = {"query": ["q", "q"], "doc": ["d", "e"], "worker": ["a", "a"], "grade": [1.0, 1.5]}
    with pytest.raises(InputError, match=r"grade 1\.5 at row 2 is not an integer"):
        crowd_qrels(rows, method="majority_vote")
    ok = crowd_qrels({**rows, "grade": [1.0, 2.0]}, method="majority_vote")
    assert [g for _, _, g in ok.qrels] == [1, 2]


def test_a_grade_outside_the_declared_ones_names_file_and_line(tmp_path: Path) -> None:
    path = _csv(tmp_path / "j.csv", "query,doc,worker,grade\nq,d,a,1\nq,d,b,3\n")
    with pytest.raises(
        InputError, match=r"j\.csv:3: grade 3 is not one of the declared grades 0, 1, 2"
    ):
        crowd_qrels(path, method="majority_vote", grades=[0, 1, 2])


def test_a_worker_grading_a_document_twice_names_both_lines(tmp_path: Path) -> None:
    path = _csv(tmp_path / "j.csv", "query,doc,worker,grade\nq,d,a,1\nq,e,a,0\nq,d,a,2\n")
    with pytest.raises(InputError, match=r"j\.csv:4: .*'a' grades document 'd' of query 'q' again"
                       r".*first at line 2"):  # fmt: skip
        crowd_qrels(path, method="majority_vote")
    kept = crowd_qrels(path, method="majority_vote", duplicates="keep")
    assert kept.n_labels.tolist() == [2, 1]


def test_a_missing_id_and_a_missing_column_are_named(tmp_path: Path) -> None:
    path = _csv(tmp_path / "j.csv", "query,doc,worker,grade\nq,,a,1\n")
    with pytest.raises(InputError, match=r"j\.csv:2: the document is missing"):
        crowd_qrels(path, method="majority_vote")
    path = _csv(tmp_path / "k.csv", "query,doc,annotator,grade\nq,d,a,1\n")
    with pytest.raises(InputError, match="worker"):
        crowd_qrels(path, method="majority_vote")
    assert crowd_qrels(path, method="majority_vote", worker="annotator").grade.tolist() == [1]


@pytest.mark.parametrize(
    ("option", "value"),
    [
        ("grade_rule", "median"),
        ("level", "cardinal"),
        ("p", 1.0),
        ("metric", "nope@3"),
        ("metric", "P.5,10"),
        ("grades", [0, 0]),
        ("grades", "012"),
        ("duplicates", "drop"),
        ("method", "nope"),
    ],
)
def test_a_bad_option_is_an_option_error_naming_it(option: str, value: object) -> None:
    with pytest.raises(OptionError) as info:
        crowd_qrels(ROWS, **{option: value})  # type: ignore[arg-type]
    assert option in str(info.value) or getattr(info.value, "option", None) == option


# ------------------------------------------------------------------------------- agreement


def test_agreement_per_topic_is_krippendorffs_alpha_of_the_topics_grades() -> None:
    rng = np.random.default_rng(3)
    n = 60
    rows = {
        "query": [f"q{i % 4}" for i in range(n)],
        "doc": [f"d{i % 9}" for i in range(n)],
        "worker": [f"w{i // 9}" for i in range(n)],
        "grade": rng.integers(0, 3, n).tolist(),
    }
    res = crowd_qrels(rows, method="majority_vote", duplicates="keep")
    for topic in res.agreement:
        keep = [i for i in range(n) if rows["query"][i] == topic["query"]]
        units = [f"{rows['doc'][i]}" for i in keep]
        raters = [f"{rows['worker'][i]}#{i}" for i in keep]  # a rater per row: repeats kept
        values = [rows["grade"][i] for i in keep]
        want = krippendorff_alpha(
            {"unit": units, "rater": raters, "value": values}, level="ordinal"
        )
        assert topic["alpha"] == pytest.approx(want.alpha, nan_ok=True)
        assert topic["n_units"] == want.n_units


def test_a_topic_without_pairable_grades_or_variation_has_no_alpha() -> None:
    rows = {
        "query": ["single", "same", "same", "same", "same"],
        "doc": ["d", "d1", "d1", "d2", "d2"],
        "worker": ["a", "a", "b", "a", "b"],
        "grade": [1, 2, 2, 2, 2],
    }
    res = crowd_qrels(rows, method="majority_vote")
    by_topic = {t["query"]: t for t in res.agreement}
    assert math.isnan(by_topic["single"]["alpha"]) and by_topic["single"]["n_units"] == 0
    assert math.isnan(by_topic["same"]["alpha"]) and not by_topic["same"]["defined"]
    assert by_topic["same"]["n_units"] == 2


# ------------------------------------------------------------------------ ranking change


def _collection() -> tuple[dict[str, list[object]], dict[str, assay.Run]]:
    qrels, runs = assay.datasets.synthetic(n_queries=6, docs_per_query=10, seed=4)
    rng = np.random.default_rng(5)
    rows: dict[str, list[object]] = {"query": [], "doc": [], "worker": [], "grade": []}
    for q, d, g in qrels:
        for w in range(3):
            noisy = g if rng.random() < 0.6 else int(rng.integers(0, qrels.max_grade + 1))
            for key, value in zip(rows, (q, d, f"w{w}", noisy), strict=True):
                rows[key].append(value)
    return rows, dict(runs)


def test_identical_qrels_leave_the_ranking_unchanged() -> None:
    rows, runs = _collection()
    res = crowd_qrels(rows, method="majority_vote", runs=runs, metric="ndcg@10")
    assert res.ranking is not None
    assert res.ranking["kendall_tau"] == 1.0
    assert res.ranking["tau_ap"] == 1.0
    assert res.ranking["rbo_ext"] == pytest.approx(1.0)
    assert [s["difference"] for s in res.scores] == [0.0] * len(runs)
    assert [s["rank_aggregated"] for s in res.scores] == [
        s["rank_majority_vote"] for s in res.scores
    ]


def test_the_ranking_change_uses_the_evaluation_of_both_qrels() -> None:
    rows, runs = _collection()
    res = crowd_qrels(rows, method="majority_vote", grade_rule="expected", runs=runs, metric="map")
    want_ref = assay.evaluate(res.majority_qrels, runs, ["map"]).mean()
    want_agg = assay.evaluate(res.qrels, runs, ["map"]).mean()
    for s in res.scores:
        assert s["majority_vote"] == pytest.approx(want_ref[s["system"]]["map"])
        assert s["aggregated"] == pytest.approx(want_agg[s["system"]]["map"])
        assert s["difference"] == pytest.approx(s["aggregated"] - s["majority_vote"])
    tau = assay.stats.system_rank_correlation(
        {s["system"]: s["majority_vote"] for s in res.scores},
        {s["system"]: s["aggregated"] for s in res.scores},
        confidence=None,
    )
    assert res.ranking is not None and res.ranking["kendall_tau"] == pytest.approx(tau.statistic)


def test_one_run_is_not_a_ranking() -> None:
    rows, runs = _collection()
    with pytest.raises(InputError, match="at least 2 runs"):
        crowd_qrels(rows, method="majority_vote", runs=[next(iter(runs.values()))])


# --------------------------------------------------------------------------- the outputs


def test_the_qrels_file_round_trips_and_never_replaces_the_judgments(tmp_path: Path) -> None:
    path = _csv(tmp_path / "j.csv", "query,doc,worker,grade\nq1,d1,a,2\nq1,d1,b,2\nq2,d2,a,0\n")
    res = crowd_qrels(path, method="majority_vote")
    written = res.write_qrels(tmp_path / "crowd.qrels")
    assert written.read_text() == "q1 0 d1 2\nq2 0 d2 0\n"
    assert list(Qrels.read(written)) == list(res.qrels)
    before = path.read_bytes()
    with pytest.raises(OptionError, match="over the judgments"):
        res.write_qrels(path)
    assert path.read_bytes() == before


HOSTILE = ['<script>alert("q")</script>', 'a,b\n"c', "$x_1$ & %", "| md |", "\\textbf{x}"]


def test_hostile_ids_are_escaped_in_every_output() -> None:
    rows = {
        "query": [HOSTILE[0], HOSTILE[0], HOSTILE[1], HOSTILE[1]],
        "doc": ["d", "d", HOSTILE[2], HOSTILE[2]],
        "worker": [HOSTILE[3], HOSTILE[4], HOSTILE[3], HOSTILE[4]],
        "grade": [1, 1, 0, 1],
    }
    _qrels, runs = assay.datasets.synthetic(n_queries=2, docs_per_query=3, seed=1)
    named = {HOSTILE[3]: next(iter(runs.values())), HOSTILE[4]: list(runs.values())[1]}
    res = crowd_qrels(rows, method="majority_vote", runs=named)
    report = res.report()
    page = res.html(title="t")
    assert "<script>alert" not in page and "&lt;script&gt;" in page
    parsed = list(csv.DictReader(io.StringIO(report.render("csv"))))
    assert len(parsed) == len(report.records)  # a newline in an id breaks no row
    # text formats double a backslash and write a line break as the two characters \n
    names = {r["name"] for r in parsed}
    for text in (HOSTILE[0], HOSTILE[1], HOSTILE[3], HOSTILE[4]):
        assert text.replace("\\", "\\\\").replace("\n", "\\n") in names, text
    loaded = json.loads(report.render("json"))
    assert HOSTILE[1] in [r["name"] for r in loaded["records"]]
    jsonl = [json.loads(line) for line in report.render("jsonl").splitlines()]
    assert HOSTILE[0] in [r["name"] for r in jsonl]
    markdown = report.render("markdown")
    assert "<script>" not in markdown and "\\| md \\|" in markdown
    latex = report.render("latex")
    assert "\\textbf{x}" not in latex and "<script>" not in report.render("table").split("\n")[0]
    assert res.pair_records()[1]["query"] == HOSTILE[1]


def test_records_report_and_repr() -> None:
    rows, runs = _collection()
    res = crowd_qrels(rows, method="majority_vote", runs=runs)
    records = res.records()
    kinds = [r["kind"] for r in records]
    assert kinds.count("topic") == 6 and kinds.count("overall") == 1
    assert kinds.count("system") == len(runs)
    summary = {r["name"]: r["value"] for r in records if r["kind"] == "summary"}
    assert summary["judged documents"] == len(res.grade) == 60
    assert summary["workers"] == 3 and summary["labels"] == 180
    assert len(repr(res)) < 2000 and "kendall_tau=1" in repr(res)
    frame = res.to_pandas()
    assert list(frame.columns)[:3] == ["kind", "name", "value"]
    for fmt in ("table", "markdown", "latex", "tsv", "csv", "jsonl", "json"):
        assert res.report().render(fmt)
    doc = res.document()
    assert [s["title"] for s in doc["sections"]] == [
        "Results",
        "Agreement per topic",
        "Scores under both qrels",
    ]
    assert doc["provenance"]["method"] == "majority_vote"


def test_the_summary_says_whether_an_iterative_method_converged() -> None:
    em = crowd_qrels(ROWS, max_iter=1).summary()
    assert em["iterations"] == 1 and em["converged"] is False
    assert "iterations" not in crowd_qrels(ROWS, method="majority_vote").summary()


def test_a_repr_of_many_topics_fits_one_screen() -> None:
    n = 3000
    rows = {
        "query": [f"q{i}" for i in range(n)],
        "doc": ["d"] * n,
        "worker": ["w"] * n,
        "grade": [i % 2 for i in range(n)],
    }
    res = crowd_qrels(rows, method="majority_vote")
    assert len(repr(res)) < 2000
    assert len(res.agreement) == n
    plot = res.document()["sections"]
    assert plot[0]["title"] == "Results"
