"""Evaluation of GRACE on a question set: scorers, calibration metrics, runner and CLI.

``run_eval(dataset_dir, output_dir)`` ingests the dataset's corpus into a fresh collection,
runs every question non-interactively and writes ``report.json``, ``runs.jsonl``,
``reliability.png`` and ``risk_coverage.png``.
``grace eval`` is :func:`~graph.evaluation.commands.eval_command`;
``grace calibrate`` is :func:`~graph.evaluation.commands.calibrate_command`, which fits
``confidence.calibration`` (:func:`fit_calibration`) on a labelled dataset.
"""

from __future__ import annotations

import importlib
from typing import Any

_EXPORTS = {
    "calibrate_command": "graph.evaluation.commands",
    "cross_validated": "graph.evaluation.calibrate",
    "fit_calibration": "graph.evaluation.calibrate",
    "Dataset": "graph.evaluation.dataset",
    "DatasetError": "graph.evaluation.dataset",
    "Question": "graph.evaluation.dataset",
    "load_dataset": "graph.evaluation.dataset",
    "aurc": "graph.evaluation.metrics",
    "auroc": "graph.evaluation.metrics",
    "bootstrap_ci": "graph.evaluation.metrics",
    "ece": "graph.evaluation.metrics",
    "risk_coverage": "graph.evaluation.metrics",
    "RunRecord": "graph.evaluation.record",
    "EvalReport": "graph.evaluation.report",
    "build_report": "graph.evaluation.report",
    "is_correct_run": "graph.evaluation.report",
    "run_eval": "graph.evaluation.runner",
    "Scorer": "graph.evaluation.scorers",
    "ScoreResult": "graph.evaluation.scorers",
    "default_scorers": "graph.evaluation.scorers",
    "verdict": "graph.evaluation.scorers",
    "eval_command": "graph.evaluation.commands",
}
"""Public names and their modules, imported on first use (the CLI registers the commands
without loading the evaluation machinery)."""


def __getattr__(name: str) -> Any:
    if name in _EXPORTS:
        return getattr(importlib.import_module(_EXPORTS[name]), name)
    raise AttributeError(f"module 'graph.evaluation' has no attribute {name!r}")


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
