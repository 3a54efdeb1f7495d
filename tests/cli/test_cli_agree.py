"""``assay agree`` in process: wide and long ratings files, the bootstrap, one-line errors."""

from __future__ import annotations

import json
import math

import pytest
from typer.testing import CliRunner

from assay import agreement as ag
from assay.cli import app
from assay.errors import OptionError
from support.examples import KRIPP_2011, long_triples


def _cli(*args: str) -> list[dict[str, object]]:
    res = CliRunner().invoke(app, ["agree", *args, "-f", "jsonl"])
    assert res.exit_code == 0, res.output
    return [json.loads(line) for line in res.stdout.splitlines()]


def test_cli_wide_and_long(tmp_path) -> None:  # type: ignore[no-untyped-def]
    wide = tmp_path / "r.csv"
    lines = ["unit,A,B,C,D"]
    for u, row in enumerate(KRIPP_2011, 1):
        lines.append(f"u{u}," + ",".join("" if math.isnan(v) else str(int(v)) for v in row))
    wide.write_text("\n".join(lines) + "\n")
    out = {d["metric"]: d["value"] for d in _cli(str(wide), "--level", "interval")}
    assert round(out["alpha"], 4) == 0.8491  # type: ignore[arg-type]
    assert out["n_pairable"] == 40 and out["band"] == "reliable"
    assert "fleiss_kappa" not in out and "cohen_kappa" not in out
    long = tmp_path / "r.tsv"
    rows = ["item\tcoder\tlabel"] + [f"{u}\t{r}\t{int(v)}" for u, r, v in long_triples(KRIPP_2011)]
    long.write_text("\n".join(rows) + "\n")
    out2 = {d["metric"]: d["value"] for d in _cli(str(long), "--bootstrap", "200", "--seed", "3")}
    assert round(out2["alpha"], 4) == 0.7434  # type: ignore[arg-type]
    assert "alpha_ci_low" in out2 and "P(alpha<0.667)" in out2
    two = tmp_path / "two.csv"
    two.write_text("a,b\nx,x\ny,y\nx,y\ny,y\n")
    out3 = {d["metric"]: d["value"] for d in _cli(str(two))}
    assert out3["cohen_kappa"] == pytest.approx(0.5)
    assert "fleiss_kappa" in out3
    bad = tmp_path / "bad.csv"
    bad.write_text("a,b\n1\n")
    res = CliRunner().invoke(app, ["agree", str(bad)])
    assert res.exit_code == 2


def test_cli_bad_seed_is_one_line(tmp_path) -> None:  # type: ignore[no-untyped-def]
    # issue 10: `assay agree ratings.csv --bootstrap 10 --seed -1` printed a traceback
    two = tmp_path / "two.csv"
    two.write_text("a,b\nx,x\ny,y\nx,y\n")
    res = CliRunner().invoke(app, ["agree", str(two), "--bootstrap", "10", "--seed", "-1"])
    assert res.exit_code == 2
    assert res.stderr.startswith("assay: error: ") and res.stderr.count("\n") == 1
    assert "seed" in res.stderr
    with pytest.raises(OptionError):
        ag.alpha_bootstrap(KRIPP_2011, seed=-1)


def test_the_resamples_option_has_the_glossary_name_and_the_old_one(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """``--n-resamples`` (the glossary's name) and ``--bootstrap`` (its old name) are one."""
    path = tmp_path / "r.csv"
    path.write_text("unit,a,b,c\n1,1,1,2\n2,2,2,2\n3,1,2,1\n4,3,3,3\n5,2,2,1\n", encoding="utf-8")
    new = _cli(str(path), "--seed", "3", "--n-resamples", "50")
    old = _cli(str(path), "--seed", "3", "--bootstrap", "50")
    assert new == old and any(row["metric"] == "alpha_ci_low" for row in new)
