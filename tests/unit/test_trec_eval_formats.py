"""trec_eval's preference and judgment-group formats (``-R prefs``, ``qrels_prefs``,
``qrels_jg``): the readers' errors and hand-made cases of the measures' definitions."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import assay
from assay.compat.trec_eval import (
    JudgmentGroups,
    Preferences,
    TrecEvalError,
    evaluate_trec,
    format_trec,
    main,
    read_prefs,
    read_qrels_jg,
    read_qrels_prefs,
)
from assay.errors import InputError, MissingQueryError
from support.cli import invoke


def _write(tmp_path: Path, text: str, name: str = "j.txt") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("reader", "text", "line", "what"),
    [
        (read_prefs, "q1 u s d1 1\nq1 u s d2\n", 2, "exactly 5 white-space separated fields"),
        (read_prefs, "q1 u s d1 1 extra\n", 1, "exactly 5 white-space separated fields"),
        (read_prefs, "# c\nq1 u s d1 1\nq1 u s d2 high\n", 3, "a number"),
        (read_prefs, "q1 u s d1 nan\n", 1, "NaN"),
        (read_prefs, "q1 u s d1 1\nq1 u t d1 2\nq1 u s d1 0\n", 3, "twice"),
        (read_qrels_prefs, "q1 0 d1 1\nq1 0 d2 1 x\n", 2, "exactly 4 white-space separated fields"),
        (read_qrels_prefs, "q1 0 d1 1\nq1 0 d1 0\n", 2, "twice"),
        (read_qrels_jg, "q1 a d1 1\nq1 a d2 0.5\n", 2, "not an integer"),
        (read_qrels_jg, "q1 a d1 1\nq1 b d1 1\nq1 a d1 2\n", 3, "twice"),
        (read_qrels_jg, "q1 a d1\n", 1, "exactly 4 white-space separated fields"),
    ],
)
def test_malformed_line_is_one_input_error(
    tmp_path: Path, reader: object, text: str, line: int, what: str
) -> None:
    path = _write(tmp_path, text)
    with pytest.raises(InputError, match=what) as info:
        reader(path)  # type: ignore[operator]
    assert info.value.source == str(path) and info.value.line == line
    assert str(info.value).startswith(f"{path}:{line}: ") and "\n" not in str(info.value)


def test_empty_or_missing_file(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="only comments"):
        read_prefs(_write(tmp_path, "# only a comment\n\n"))
    with pytest.raises(InputError, match="no such file"):
        read_qrels_jg(tmp_path / "absent")


def test_comments_and_blank_lines_are_skipped(tmp_path: Path) -> None:
    p = read_prefs(_write(tmp_path, "# a\n# b\nq1 u s d#1 1\n\n  q1 u s d2 0\n"))
    assert p.doc.tolist() == ["d#1", "d2"] and p.lines.tolist() == [3, 5]
    assert p.queries == ["q1"] and len(p) == 2


def test_cli_malformed_file_is_exit_2(tmp_path: Path) -> None:
    prefs = _write(tmp_path, "q1 u s d1 1\nq1 u s\n")
    run = _write(tmp_path, "q1 Q0 d1 1 1.0 t\n", "run.txt")
    code, out, err = invoke("trec-eval", "-m", "all_prefs", "-R", "prefs", str(prefs), str(run))
    assert code == 2 and out == "" and f"{prefs}:2:" in err


def test_measures_must_read_the_format(tmp_path: Path) -> None:
    prefs = Preferences.from_rows([("q1", "u", "s", "d1", 1.0), ("q1", "u", "s", "d2", 0.0)])
    run = assay.Run.from_dict({"q1": {"d1": 1.0}})
    with pytest.raises(TrecEvalError, match="-m all_prefs"):
        evaluate_trec(prefs, run)  # official measures read ordinary qrels
    with pytest.raises(TrecEvalError, match="qrels_prefs"):
        evaluate_trec(assay.Qrels.from_dict({"q1": {"d1": 1}}), run, ["prefs_simp"])
    with pytest.raises(TrecEvalError, match="unknown relevance format"):
        main(["-R", "xml", "a", "b"])
    with pytest.raises(MissingQueryError, match="'q2'"):
        evaluate_trec(
            Preferences.from_rows([*zip(["q2"] * 2, "uu", "ss", ["a", "b"], [1, 0], strict=True)]),
            run,
            ["prefs_simp"],
        )


def _prefs(rows: str) -> Preferences:
    out = []
    for line in rows.strip().splitlines():
        q, jg, jsg, doc, level = line.split()
        out.append((q, jg, jsg, doc, float(level)))
    return Preferences.from_rows(out)


RUN = assay.Run.from_dict({"q": {"a": 5.0, "b": 4.0, "c": 3.0, "d": 2.0}})


def test_sub_groups_are_closed_under_transitivity() -> None:
    """get_prefs.c's example: 1 > 2 > 3 in one JSG, 2 > 4 in another give 1 > 4 too: five
    preferences, none between 3 and 4."""
    p = _prefs("q u s1 a 3\nq u s1 b 2\nq u s1 c 1\nq u s2 b 5\nq u s2 e 4\n")
    res = evaluate_trec(p, RUN, ["all_prefs"])
    row = res.per_query["q"]
    assert row["prefs_num_prefs_poss"] == 5
    # a>b, a>c, b>c fulfilled among retrieved; a>e, b>e fulfilled implied (e not retrieved)
    assert row["prefs_num_prefs_ful_ret"] == 3 and row["prefs_num_prefs_ful"] == 5
    assert row["prefs_simp"] == 1.0


def test_contradicting_sub_groups_are_an_error() -> None:
    with pytest.raises(InputError, match="contradict"):
        evaluate_trec(
            _prefs("q u s1 a 2\nq u s1 b 1\nq u s2 b 2\nq u s2 a 1\n"), RUN, ["prefs_simp"]
        )
    with pytest.raises(InputError, match="both non-relevant"):
        evaluate_trec(
            _prefs("q u s1 a 2\nq u s1 b 0\nq u s2 b 2\nq u s2 c 1\n"), RUN, ["prefs_simp"]
        )


def test_pair_measure_weighs_disagreeing_groups() -> None:
    """Two users disagree on (a, b), agree on (a, c): prefs_pair averages per pair the share
    of users the ranking agrees with (1/2 and 1), prefs_simp pools the preferences (3 of 4),
    prefs_avgjg averages per user (1 and 1/2)."""
    p = _prefs("q u1 s a 2\nq u1 s b 1\nq u1 s c 0\nq u2 s b 2\nq u2 s a 1\n")
    row = evaluate_trec(p, RUN, ["all_prefs"]).per_query["q"]
    assert row["prefs_num_prefs_poss"] == 4 and row["prefs_num_prefs_ful"] == 3
    assert row["prefs_simp"] == 0.75
    assert row["prefs_pair"] == (0.5 + 1.0 + 1.0) / 3  # pairs (a,b), (a,c), (b,c)
    assert row["prefs_avgjg"] == (1.0 + 0.0) / 2


def test_ties_are_broken_by_docno_ascending() -> None:
    """Unlike trec_eval's other measures, its preference code ranks tied documents in
    ascending docno order."""
    p = _prefs("q u s a 1\nq u s b 0\n")
    tied = assay.Run.from_dict({"q": {"a": 1.0, "b": 1.0}})
    assert evaluate_trec(p, tied, ["prefs_simp"]).per_query["q"]["prefs_simp"] == 1.0
    assert evaluate_trec(p, tied, ["prefs_simp"], depth=1).per_query["q"]["prefs_simp"] == 1.0


def test_complete_scores_topics_without_results() -> None:
    p = _prefs("q u s a 1\nq u s b 0\nz u s x 1\nz u s y 0\n")
    res = evaluate_trec(p, RUN, ["prefs_simp", "num_q"], complete=True)
    assert res.queries == ["q", "z"] and res.per_query["z"]["prefs_simp"] == 0.0
    assert res.summary["num_q"] == 2 and res.summary["prefs_simp"] == 0.5


def test_judgment_groups_average_per_topic() -> None:
    jg = JudgmentGroups.from_rows(
        [("q", "u1", "a", 1), ("q", "u1", "c", 1), ("q", "u2", "d", 1), ("r", "u1", "a", 1)]
    )
    run = assay.Run.from_dict({"q": {"a": 3.0, "b": 2.0, "c": 1.0}, "r": {"b": 1.0, "a": 0.5}})
    res = evaluate_trec(jg, run, ["qrels_jg"])
    # q: user 1 AP (1 + 2/3) / 2, user 2 AP 0 (d not retrieved): averaged; r: one group, AP 1/2
    assert res.per_query["q"]["map_avgjg"] == ((1 + 2 / 3) / 2 + 0.0) / 2
    assert res.per_query["r"]["map_avgjg"] == 0.5
    assert res.per_query["q"]["P_avgjg_5"] == (2 / 5 + 0 / 5) / 2
    assert res.measures[:3] == ["runid", "num_q", "map_avgjg"]
    assert jg.groups == {"q": ["u1", "u2"], "r": ["u1"]}
    text = format_trec(res, per_query=True)
    assert text.startswith("map_avgjg             \tq\t0.4167\n")
    one = assay.Qrels.from_dict({"q": {"a": 1, "c": 1}, "r": {"a": 1}})
    single = JudgmentGroups.from_rows(
        [(q, "0", d, g) for q, docs in one.to_dict().items() for d, g in docs.items()]
    )
    ref = evaluate_trec(one, run, ["map", "P.5,10", "Rprec_mult.0.5,1.5"])
    got = evaluate_trec(single, run, ["map_avgjg", "P_avgjg.5,10", "Rprec_mult_avgjg.0.5,1.5"])
    assert list(got.summary.values()) == list(ref.summary.values())


def test_qrels_prefs_reads_the_iteration_column_as_groups(tmp_path: Path) -> None:
    path = _write(tmp_path, "q 0 a 1\nq 0 b 0\nq 1 a 0\nq 1 b 1\n")
    p = read_qrels_prefs(path)
    assert p.jg.tolist() == ["0", "0", "1", "1"] and set(p.jsg.tolist()) == {"0"}
    row = evaluate_trec(p, RUN, ["prefs_simp", "prefs_avgjg"]).per_query["q"]
    assert row == {"prefs_simp": 0.5, "prefs_avgjg": 0.5}
    same = Preferences.from_qrels(assay.Qrels.from_dict({"q": {"a": 1, "b": 0}}))
    assert evaluate_trec(same, RUN, ["prefs_simp"]).per_query["q"]["prefs_simp"] == 1.0
    assert np.array_equal(same.level, [1.0, 0.0])
