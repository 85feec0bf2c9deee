"""Evaluation of GRACE on a question set: scorers, calibration metrics, runner and CLI.

``run_eval(dataset_dir, output_dir)`` ingests the dataset's corpus into a fresh collection,
runs every question non-interactively and writes ``report.json``, ``runs.jsonl``,
``reliability.png`` and ``risk_coverage.png``.
``grace eval`` is :func:`~grace.evaluation.commands.eval_command`;
``grace calibrate`` is :func:`~grace.evaluation.commands.calibrate_command`, which fits
``confidence.calibration`` (:func:`fit_calibration`) on a labelled dataset.
"""

from __future__ import annotations

import importlib
from typing import Any

_EXPORTS = {
    "calibrate_command": "grace.evaluation.commands",
    "cross_validated": "grace.evaluation.calibrate",
    "fit_calibration": "grace.evaluation.calibrate",
    "Dataset": "grace.evaluation.dataset",
    "DatasetError": "grace.evaluation.dataset",
    "Question": "grace.evaluation.dataset",
    "load_dataset": "grace.evaluation.dataset",
    "aurc": "grace.evaluation.metrics",
    "auroc": "grace.evaluation.metrics",
    "bootstrap_ci": "grace.evaluation.metrics",
    "ece": "grace.evaluation.metrics",
    "risk_coverage": "grace.evaluation.metrics",
    "RunRecord": "grace.evaluation.record",
    "EvalReport": "grace.evaluation.report",
    "build_report": "grace.evaluation.report",
    "is_correct_run": "grace.evaluation.report",
    "run_eval": "grace.evaluation.runner",
    "Scorer": "grace.evaluation.scorers",
    "ScoreResult": "grace.evaluation.scorers",
    "default_scorers": "grace.evaluation.scorers",
    "verdict": "grace.evaluation.scorers",
    "eval_command": "grace.evaluation.commands",
}
"""Public names and their modules, imported on first use (the CLI registers the commands
without loading the evaluation machinery)."""


def __getattr__(name: str) -> Any:
    if name in _EXPORTS:
        return getattr(importlib.import_module(_EXPORTS[name]), name)
    raise AttributeError(f"module 'grace.evaluation' has no attribute {name!r}")


__all__ = [
    "eval_command",
    "Dataset",
    "DatasetError",
    "EvalReport",
    "Question",
    "RunRecord",
    "ScoreResult",
    "Scorer",
    "auroc",
    "aurc",
    "bootstrap_ci",
    "build_report",
    "calibrate_command",
    "cross_validated",
    "default_scorers",
    "ece",
    "fit_calibration",
    "is_correct_run",
    "load_dataset",
    "risk_coverage",
    "run_eval",
    "verdict",
]
