"""``assay agree`` on a header-less file: one line naming the remedy, and ``--no-header``."""

from __future__ import annotations

import json
from pathlib import Path

from support.cli import assert_one_line_error, invoke


def test_headerless_file_is_one_line_then_reads(tmp_path: Path) -> None:
    path = tmp_path / "r.tsv"
    path.write_text("i1\tyes\tno\ni2\tno\tno\ni3\tyes\tyes\ni4\tyes\tno\n")
    assert_one_line_error(*invoke("agree", path), "looks like data", "--no-header")
    code, out, err = invoke("agree", path, "--no-header", "--id-column", "1", "-f", "jsonl")
    assert code == 0, err
    values = {d["metric"]: d["value"] for d in map(json.loads, out.splitlines())}
    assert values["n_units"] == 4 and "cohen_kappa" in values


def test_item_label_file_has_one_rater(tmp_path: Path) -> None:
    path = tmp_path / "r.tsv"
    path.write_text("i1\tyes\ni2\tno\ni3\tyes\ni4\tyes\n")
    assert_one_line_error(*invoke("agree", path), "looks like data")
    assert_one_line_error(*invoke("agree", path, "--no-header"), "looks like an id column")
