"""trec_eval's preference and judgment-group measures: ``assay trec-eval`` against the
trec_eval 10.0 binary, side by side, and assay's vectorised preference metrics
(``assay evaluate -m pref_*``) on the same files.

Seeded synthetic files with ``--sizes`` run rows (100 results per topic, scores with 4
decimals so ties occur): graded qrels (50 judged documents per topic, 40 of them retrieved,
grades 0-3), a preferences file (2 judgment groups x 2 sub-groups of 12 documents per topic)
and judgment-group qrels (3 groups per topic). Each command runs in its own process writing to
/dev/null (imports and reading included); the figures are the median wall time and the peak
RSS of the child. ``same`` says whether assay printed trec_eval's bytes.

trec_eval: ``$TREC_EVAL``, else ``trec_eval`` on PATH, else built with gcc into a temporary
folder from a trec_eval source tree or git directory (``--trec-eval-src`` or
``$TREC_EVAL_SRC``; the ``fetch`` tool's mirror of usnistgov/trec_eval is a git directory).

    python benchmarks/bench_prefs.py --sizes 1e5 1e6 --runs 3 \\
        --trec-eval-src /work/.mirror/usnistgov+trec_eval/repo
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

from _child import measure_in_turn

DOCS = 100  # results per topic
PREF_METRICS = [
    "pref_agreement",
    "pref_agreement_ret",
    "pref_agreement_imp",
    "pref_agreement_balanced",
]


def make_files(folder: Path, rows: int) -> dict[str, Path]:
    """The run, graded qrels, a preferences file and judgment-group qrels."""
    rng = np.random.default_rng(0)
    n_topics = max(rows // DOCS, 1)
    paths = {k: folder / k for k in ("run", "qrels", "prefs", "qrels_jg")}
    with (
        paths["run"].open("w") as fr,
        paths["qrels"].open("w") as fq,
        paths["prefs"].open("w") as fp,
        paths["qrels_jg"].open("w") as fj,
    ):
        for t in range(n_topics):
            scores = np.round(rng.random(DOCS), 4)
            fr.writelines(f"t{t} Q0 d{d} {d + 1} {s:.4f} r\n" for d, s in enumerate(scores))
            judged = [*rng.choice(DOCS, 40, replace=False).tolist(), *range(DOCS, DOCS + 10)]
            grades = rng.integers(0, 4, len(judged))
            fq.writelines(f"t{t} 0 d{d} {g}\n" for d, g in zip(judged, grades, strict=True))
            for g in range(3):
                jg = rng.integers(-1, 3, len(judged))
                fj.writelines(
                    f"t{t} u{g} d{d} {v}\n" for d, v in zip(judged, jg, strict=True) if v >= 0
                )
            for u in range(2):
                # two sub-groups that agree (levels from one hidden order): no cycles
                hidden = rng.permutation(len(judged))
                for s in range(2):
                    pick = rng.choice(len(judged), 12, replace=False)
                    fp.writelines(
                        f"t{t} u{u} s{s} d{judged[i]} {hidden[i] // 10}\n" for i in pick.tolist()
                    )
    return paths


def find_trec_eval(src: str | None, build: Path) -> str:
    """The trec_eval binary: $TREC_EVAL, PATH, or built from ``src`` into ``build``."""
    found = os.environ.get("TREC_EVAL") or shutil.which("trec_eval")
    if found:
        return found
    src = src or os.environ.get("TREC_EVAL_SRC")
    if not src:
        sys.exit("no trec_eval: set $TREC_EVAL, put it on PATH or give --trec-eval-src")
    tree = build / "trec_eval_src"
    tree.mkdir()
    if (Path(src) / "Makefile").exists():
        shutil.copytree(src, tree, dirs_exist_ok=True)
    else:  # a git directory without a work tree
        archive = subprocess.run(
            ["git", "-C", src, "archive", "HEAD"], capture_output=True, check=True
        ).stdout
        subprocess.run(["tar", "-x", "-C", str(tree)], input=archive, check=True)
    subprocess.run(["make", "-C", str(tree)], capture_output=True, check=True)
    return str(tree / "trec_eval")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--sizes", type=float, nargs="+", default=[1e5, 1e6])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--trec-eval-src", default=None)
    a = ap.parse_args()
    assay = [sys.executable, "-m", "assay"]
    print(
        "| rows | judgments | measures | tool | wall s (median) | peak RSS MB | wall / trec_eval | same |"
    )
    print("|---:|---|---|---|---:|---:|---:|---|")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        trec_eval = find_trec_eval(a.trec_eval_src, folder)
        for size in a.sizes:
            rows = int(size)
            p = make_files(folder, rows)
            cases = [
                ("qrels_prefs", "all_prefs", p["qrels"]),
                ("prefs", "all_prefs", p["prefs"]),
                ("qrels_jg", "qrels_jg", p["qrels_jg"]),
            ]
            for fmt, nick, judgments in cases:
                args = ["-q", "-m", nick, "-R", fmt, str(judgments), str(p["run"])]
                tools = {
                    "trec_eval 10.0": [trec_eval, *args],
                    "assay trec-eval": [*assay, "trec-eval", *args],
                }
                if fmt == "qrels_prefs":
                    tools["assay evaluate (pref_*, 4 metrics)"] = [
                        *assay,
                        "evaluate",
                        str(p["qrels"]),
                        str(p["run"]),
                        *[x for m in PREF_METRICS for x in ("-m", m)],
                        "-f",
                        "json",
                    ]
                measured = measure_in_turn(tools, folder, a.runs)
                ref, _, want = measured["trec_eval 10.0"]
                for name, (wall, peak, printed) in measured.items():
                    same = ("yes" if printed == want else "no") if "trec" in name else "n/a"
                    print(
                        f"| {rows:,} | -R {fmt} | {nick if 'trec' in name else 'pref_*'} "
                        f"| {name} | {wall:.2f} | {peak:.0f} | {wall / ref:.2f} | {same} |",
                        flush=True,
                    )


if __name__ == "__main__":
    main()
