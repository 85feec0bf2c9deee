"""The SILENT promise on articles the model never saw: random article splits, before and after.

``python -m bench.confidence_splits CALIB_RUNS [--dev DEV_RUNS] [--splits 8]`` reads the
``runs.jsonl`` that ``grace calibrate --eval-output DIR`` wrote. For each of ``--splits``
random splits of the calibration runs by article (70 % of the articles to fit on, 30 % held
out), it fits and certifies on the fitting part exactly as ``grace calibrate`` does and
scores the held-out articles, two ways:

- ``before``: the previous procedure — SILENT when P(correct) ≥ a threshold from
  Learn-then-Test on the calibration mix (``--before-risk``, ``--before-min-coverage``:
  the shipped model's 0.12 / 0.15), no sentence rule, pausing under ``--before-notify``
  (0.4);
- ``rule_only``: the ``before`` threshold, SILENT only where the sentence rule holds too;
- ``after``: SILENT when P(correct) ≥ the threshold certified over mixes
  (``--target-risk``, ``--max-unanswerable-share``, ``--min-coverage``, ``--delta``) *and*
  the sentence rule holds, pausing under the fitted model's NOTIFY threshold;
- ``at``: with ``--at T``, SILENT when P(correct) ≥ T (the shipped model's certified
  threshold, say) and the rule holds, pausing under the fitted model's NOTIFY threshold — what
  the shipped threshold does on articles the model did not see.

It prints each figure's mean and spread (standard deviation, least, greatest) over the
splits and, with ``--dev``, the figures on the second set scored by the model fitted on all
calibration runs. Not part of the test suite (it reads data sets by path).
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from confidence.risk_control import choose_threshold
from graph.evaluation import fit as learn
from graph.evaluation.metrics import auroc

Figures = dict[str, float | None]


def figures(
    p: Any, runs: Sequence[dict[str, Any]], silent: Any, notify: float
) -> Figures:
    """SILENT share and error, adversarial SILENT, in-corpus SILENT error, AUROCs, pauses.

    ``auroc`` is P(correct) against correctness, as ``grace eval`` reports it.
    """
    wrong = np.array([learn._wrong(r) for r in runs])  # noqa: SLF001
    correct = np.array([learn._correct(r) for r in runs])  # noqa: SLF001
    answerable = np.array([bool(r["question"]["answerable"]) for r in runs])
    kind = np.array([r["question"]["kind"] for r in runs])
    pause = p < notify
    adversarial = kind == "squad_unanswerable"
    in_corpus = silent & (kind == "in_corpus")
    return {
        "silent_share": float(silent.mean()),
        "silent_error": float(wrong[silent].mean()) if silent.any() else None,
        "adversarial_silent": float(silent[adversarial].mean()) if adversarial.any() else None,
        "in_corpus_silent_error": float(wrong[in_corpus].mean()) if in_corpus.any() else None,
        "auroc": auroc(correct.tolist(), p.tolist()),
        "answerability_auroc": auroc(answerable.tolist(), p.tolist()),
        "pause_answerable": float(pause[answerable].mean()),
        "pause_unanswerable": float(pause[~answerable].mean()),
    }


def _thresholds(fit: learn.LearnedFit, args: argparse.Namespace) -> tuple[float, float]:
    """(before, after) SILENT thresholds from one fit's out-of-fold scores."""
    old = choose_threshold(
        fit.out_of_fold, fit.wrong, target_risk=args.before_risk, delta=0.1,
        min_coverage=args.before_min_coverage,
    )
    before = old.threshold if old.threshold is not None else 1.01
    return float(before), float(fit.model.thresholds.silent)


def _score(fit: learn.LearnedFit, runs: Sequence[dict[str, Any]]) -> Any:
    m = fit.model
    params = (
        np.asarray(m.mean), np.asarray(m.scale), np.asarray(m.coef), m.intercept,
        np.asarray(m.low), np.asarray(m.high),
    )
    return learn._predict(params, learn.feature_matrix(runs))  # noqa: SLF001


def evaluate(
    fit_runs: Sequence[dict[str, Any]],
    test_runs: Sequence[dict[str, Any]],
    args: argparse.Namespace,
) -> dict[str, Any]:
    """Fit and certify on ``fit_runs``; the before / after figures on ``test_runs``."""
    fit = learn.fit_learned_model(
        fit_runs, provider="offline", data="split", target_risk=args.target_risk,
        max_unanswerable_share=args.max_unanswerable_share, min_coverage=args.min_coverage,
        delta=args.delta,
    )
    before, after = _thresholds(fit, args)
    p = _score(fit, test_runs)
    holds = np.array([learn.record_check(r) for r in test_runs])
    notify, old_notify = fit.model.thresholds.notify, args.before_notify
    out = {
        "thresholds": {"before": before, "after": after, "certified": fit.certified},
        "before": figures(p, test_runs, p >= before, old_notify),
        "rule_only": figures(p, test_runs, (p >= before) & holds, old_notify),
        "after": figures(p, test_runs, (p >= after) & holds, notify),
    }
    if args.at is not None:
        out["at"] = figures(p, test_runs, (p >= args.at) & holds, notify)
    return out


def _summary(results: list[dict[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for side in ("before", "rule_only", "after", "at"):
        if side not in results[0]:
            continue
        out[side] = {}
        for key in results[0][side]:
            values = [r[side][key] for r in results if r[side][key] is not None]
            if values:
                out[side][key] = {
                    "mean": round(float(np.mean(values)), 4),
                    "sd": round(float(np.std(values)), 4),
                    "min": round(float(np.min(values)), 4),
                    "max": round(float(np.max(values)), 4),
                }
    out["thresholds"] = [r["thresholds"] for r in results]
    return out


def main() -> None:
    """Print the split figures (and the second set's) as JSON."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("calib_runs", type=Path)
    parser.add_argument("--dev", type=Path, default=None)
    parser.add_argument("--splits", type=int, default=8)
    parser.add_argument("--target-risk", type=float, default=0.10)
    parser.add_argument("--max-unanswerable-share", type=float, default=0.5)
    parser.add_argument("--min-coverage", type=float, default=None)
    parser.add_argument("--delta", type=float, default=0.1)
    parser.add_argument("--before-risk", type=float, default=0.12)
    parser.add_argument("--before-min-coverage", type=float, default=0.15)
    parser.add_argument("--before-notify", type=float, default=0.4)
    parser.add_argument("--at", type=float, default=None)
    args = parser.parse_args()
    from sklearn.model_selection import GroupShuffleSplit

    runs = learn.read_runs(args.calib_runs)
    groups = [learn.article_of(r["question"]) for r in runs]
    results = []
    for seed in range(args.splits):
        split = GroupShuffleSplit(n_splits=1, test_size=0.3, random_state=seed)
        train, test = next(split.split(runs, groups=groups))
        results.append(evaluate([runs[i] for i in train], [runs[i] for i in test], args))
    report: dict[str, Any] = {"settings": vars(args) | {"calib_runs": str(args.calib_runs)}}
    report["settings"]["dev"] = str(args.dev) if args.dev else None
    report["calib_splits"] = _summary(results)
    if args.dev is not None:
        report["dev"] = evaluate(runs, learn.read_runs(args.dev), args)
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
