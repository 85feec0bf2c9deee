"""The SILENT rule on the trial sets: adversarial questions answered SILENT, set by set.

``python -m bench.trials [SET ...] [--json]`` runs ``grace eval`` (offline, the shipped model)
on each trial set under ``bench/trial_sets/`` (all of them by default) and prints, per set:
the adversarial unanswerable questions answered SILENT, the answerable questions answered
right, and those answered SILENT (with the wrong ones among them). ``--verbose`` lists every
SILENT answer to an adversarial question and every wrong SILENT answer, with its sentence.

The sets are articles and questions written for this purpose by sessions that saw none of the
code (``bench/trial_sets/README.md``): each was asked once before any reading of the SILENT
rule was written from it, and those first counts are in docs/decisions.md. Here they are a
regression measure — a change to the rule should not make any of them leak again — not a
test set: every one has been read. Not part of the test suite (about 2 s a set).
"""

from __future__ import annotations

import argparse
import json
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from graph.evaluation import fit as learn
from graph.evaluation.runner import run_eval

__all__ = ["SETS_DIR", "main", "trial_figures"]

SETS_DIR = Path(__file__).with_name("trial_sets")
"""Where the trial sets are: one directory per set (``corpus/*.md``, ``questions.jsonl``)."""
ADVERSARIAL = "squad_unanswerable"


def trial_figures(runs: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """A set's counts: adversarial SILENT, answerable right / SILENT / SILENT and wrong."""
    adversarial = [r for r in runs if r["question"]["kind"] == ADVERSARIAL]
    answerable = [r for r in runs if r["question"]["answerable"]]
    right = [learn._correct(r) for r in answerable]  # noqa: SLF001
    silent = [r["level"] == "silent" for r in answerable]
    leaks = [r for r in adversarial if r["level"] == "silent"] + [
        r for r, s, ok in zip(answerable, silent, right, strict=True) if s and not ok
    ]
    return {
        "adversarial": len(adversarial),
        "adversarial_silent": sum(r["level"] == "silent" for r in adversarial),
        "answerable": len(answerable),
        "answerable_right": sum(right),
        "answerable_silent": sum(silent),
        "silent_wrong": sum(s and not ok for s, ok in zip(silent, right, strict=True)),
        "leaks": [
            {"id": r["question"]["id"], "question": r["question"]["question"],
             "answer": r["answer"]}
            for r in leaks
        ],
    }


def _run_set(path: Path) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="grace-trial-") as out:
        run_eval(path, Path(out), progress=False, n_boot=10)
        runs = learn.read_runs(Path(out) / "runs.jsonl")
    return trial_figures(runs)


def _table(results: dict[str, dict[str, Any]], verbose: bool) -> str:
    lines = [f"{'set':6s} {'adversarial SILENT':>20s} {'right':>9s} {'SILENT':>7s} {'wrong':>6s}"]
    total = {"adversarial": 0, "adversarial_silent": 0, "answerable": 0}
    for name, f in results.items():
        lines.append(
            f"{name:6s} {f['adversarial_silent']:>9d} of {f['adversarial']:<8d}"
            f" {f['answerable_right']:>3d} of {f['answerable']:<3d}"
            f" {f['answerable_silent']:>7d} {f['silent_wrong']:>6d}"
        )
        for key in total:
            total[key] += f[key]
        if verbose:
            lines += [f"    {x['id']}: {x['question']}\n      -> {x['answer']}" for x in f["leaks"]]
    lines.append(
        f"all    {total['adversarial_silent']:>9d} of {total['adversarial']:<8d}"
        f" ({total['adversarial_silent'] / max(1, total['adversarial']):.3f})"
    )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> None:
    """Run the trial sets named (all by default) and print their counts."""
    parser = argparse.ArgumentParser(prog="python -m bench.trials", description=__doc__)
    parser.add_argument("sets", nargs="*", help="set names (directories of bench/trial_sets)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--verbose", action="store_true", help="list the leaks")
    args = parser.parse_args(argv)
    names = args.sets or sorted(
        (p.name for p in SETS_DIR.iterdir() if (p / "questions.jsonl").is_file()),
        key=lambda n: (n[0], int(n[1:])),
    )
    unknown = [n for n in names if not (SETS_DIR / n / "questions.jsonl").is_file()]
    if unknown:
        parser.error(f"no trial set {', '.join(unknown)} under {SETS_DIR}")
    results = {name: _run_set(SETS_DIR / name) for name in names}
    print(json.dumps(results, indent=1) if args.json else _table(results, args.verbose))


if __name__ == "__main__":
    main()
