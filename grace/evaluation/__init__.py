"""Evaluation of GRACE on a question set: scorers, calibration metrics, runner and CLI.

``run_eval(dataset_dir, output_dir)`` ingests the dataset's corpus into a fresh collection,
runs every question non-interactively and writes ``report.json``, ``runs.jsonl``,
``reliability.png`` and ``risk_coverage.png``. ``grace eval`` is :func:`eval_command`;
``grace calibrate`` is :func:`~grace.evaluation.calibrate.calibrate_command`, which fits
``confidence.calibration`` (:func:`fit_calibration`) on a labelled dataset.
"""

from __future__ import annotations

from grace.evaluation.calibrate import calibrate_command, cross_validated, fit_calibration
from grace.evaluation.dataset import Dataset, DatasetError, Question, load_dataset
from grace.evaluation.metrics import aurc, auroc, bootstrap_ci, ece, risk_coverage
from grace.evaluation.record import RunRecord
from grace.evaluation.report import EvalReport, build_report, is_correct_run
from grace.evaluation.runner import run_eval
from grace.evaluation.scorers import Scorer, ScoreResult, default_scorers, verdict

__all__ = [
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
