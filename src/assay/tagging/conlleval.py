"""conlleval's own text layout of the tagging family's results (``assay tagging -f
conlleval``): exactly conlleval's output for one tagger; for several, a block per tagger and
a line per paired test."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .comparison import TaggerComparison
    from .evaluation import TaggingReport

__all__ = ["conlleval_block", "conlleval_text"]


def _percent(num: int, den: int) -> float:
    return 100 * num / den if den > 0 else 0.0


def _fb1(precision: float, recall: float) -> float:
    return 2 * precision * recall / (precision + recall) if precision + recall > 0 else 0.0


def conlleval_block(rep: TaggingReport) -> str:
    """conlleval's output for one tagger, byte for byte: the overall counts, the overall
    line and one line per type (``%17s``, percentages with ``%6.2f``, the type's predicted
    spans last). Tokens count as read (``-DOCSTART-`` lines are not tokens here; conlleval
    counts them)."""
    c = rep.counts
    tp, pred, gold = int(c.tp.sum()), int(c.pred.sum()), int(c.gold.sum())
    lines = [
        f"processed {c.n_tokens} tokens with {gold} phrases; found: {pred} phrases; correct: {tp}.\n"
    ]
    if c.n_tokens > 0:
        p, r = _percent(tp, pred), _percent(tp, gold)
        accuracy = 100 * c.correct_tokens / c.n_tokens
        lines.append(
            "accuracy: %6.2f%%; precision: %6.2f%%; recall: %6.2f%%; FB1: %6.2f\n"  # noqa: UP031 - Perl's printf
            % (accuracy, p, r, _fb1(p, r))
        )
    for i, kind in enumerate(c.types):
        p, r = _percent(int(c.tp[i]), int(c.pred[i])), _percent(int(c.tp[i]), int(c.gold[i]))
        lines.append(
            "%17s: precision: %6.2f%%; recall: %6.2f%%; FB1: %6.2f  %d\n"  # noqa: UP031
            % (kind, p, r, _fb1(p, r), int(c.pred[i]))
        )
    return "".join(lines)


def conlleval_text(result: TaggingReport | TaggerComparison) -> str:
    """conlleval's layout: exactly its output for one tagger; for several, one block per
    tagger after a line ``tagger: NAME``, then a line per paired test.

    Parameters
    ----------
    result : TaggingReport or TaggerComparison
        One tagger's evaluation, or several taggers'.

    Returns
    -------
    str
        The text ``assay tagging -f conlleval`` prints (also ``result.conlleval()``).

    Examples
    --------
    >>> from assay.tagging import conlleval_text, tagging_report
    >>> rep = tagging_report([["B-NP", "I-NP", "O"]], [["B-NP", "I-NP", "O"]])
    >>> print(conlleval_text(rep), end="")
    processed 3 tokens with 1 phrases; found: 1 phrases; correct: 1.
    accuracy: 100.00%; precision: 100.00%; recall: 100.00%; FB1: 100.00
                   NP: precision: 100.00%; recall: 100.00%; FB1: 100.00  1
    """
    from .evaluation import TaggingReport

    if isinstance(result, TaggingReport):
        return conlleval_block(result)
    blocks = [f"tagger: {name}\n{conlleval_block(result.reports[name])}" for name in result.names]
    prov = result.provenance
    tests = [
        f"{p.system} vs {p.baseline}: FB1 difference {100 * p.diff:+.2f} "
        f"[{100 * p.ci_low:+.2f}, {100 * p.ci_high:+.2f}]; p = {p.p_value:.4f}, "
        f"{result.correction} p = {p.p_adjusted:.4f}{' *' if p.significant else ''} "
        f"(paired {result.test}, {prov['n_resamples']} resamples of the sentences, seed {prov['seed']})\n"
        for p in result.pairs
    ]
    return "\n".join(blocks) + ("\n" + "".join(tests) if tests else "")
