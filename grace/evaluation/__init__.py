"""Evaluation of GRACE on a question set: scorers, calibration metrics, runner and CLI.

``run_eval(dataset_dir, output_dir)`` ingests the dataset's corpus into a fresh collection,
runs every question non-interactively and writes ``report.json``, ``runs.jsonl``,
``reliability.png`` and ``risk_coverage.png``. ``grace eval`` is :func:`eval_command`.
"""

from __future__ import annotations

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
    "default_scorers",
    "ece",
    "is_correct_run",
    "load_dataset",
    "risk_coverage",
    "run_eval",
    "verdict",
]
