"""The ``grace eval`` and ``grace calibrate`` commands: options here, work in the modules.

This module imports only typer, so registering the commands costs ``grace --help`` nothing;
each command imports the evaluation machinery when it runs. No ``from __future__ import
annotations``: typer would evaluate each string annotation at every start.
"""

from pathlib import Path
from typing import Annotated

import typer

__all__ = ["calibrate_command", "eval_command"]

_PART_HELP = "K/N: only part K of N of the questions, split by article (e.g. 1/2, then 2/2)."


def eval_command(
    dataset_dir: Annotated[
        Path, typer.Argument(help="Directory with corpus/*.md and questions.jsonl.")
    ],
    output: Annotated[
        Path | None,
        typer.Option(
            "--output",
            "-o",
            help="Directory for report.json, runs.jsonl and the plots "
            "[default: GRACE_DATA_DIR/eval/<dataset name>].",
            show_default=False,
        ),
    ] = None,
    json_output: Annotated[
        bool, typer.Option("--json", help="Print report.json to stdout instead of a table.")
    ] = False,
    part: Annotated[str | None, typer.Option("--part", help=_PART_HELP)] = None,
) -> None:
    """Evaluate GRACE on a dataset: answers, abstentions and how well confidence predicts them.

    Exits 1 when every question met a model or tool error.

    Example: grace eval data/my-questions --part 2/2 --json
    """
    from graph.evaluation.cli import evaluate

    evaluate(dataset_dir, output, json_output=json_output, part=part)


_TargetRisk = Annotated[
    float | None,
    typer.Option(
        "--target-risk",
        min=0.001,
        max=0.999,
        help="Choose the SILENT threshold so that P(silent answer wrong) <= this, with "
        "probability >= 1 - delta (answering an unanswerable question counts as wrong).",
    ),
]
_NotifyRisk = Annotated[
    float | None,
    typer.Option(
        "--notify-risk",
        min=0.001,
        max=0.999,
        help="Likewise for the NOTIFY threshold: error bound of every answer given "
        "without a pause.",
    ),
]
_Delta = Annotated[
    float,
    typer.Option("--delta", min=0.001, max=0.999, help="Probability the bound may fail."),
]
_MinCoverage = Annotated[
    float | None,
    typer.Option(
        "--min-coverage",
        min=0.0,
        max=0.99,
        help="The least share of questions a SILENT threshold should answer: the tests start "
        "there instead of at the top, so one confident mistake does not end them (a smaller "
        "silent share cannot then be certified). Default: 0.15 for the learned model, the "
        "top (0) for --model none.",
    ),
]


_MaxUnanswerableShare = Annotated[
    float,
    typer.Option(
        "--max-unanswerable-share",
        min=0.0,
        max=0.99,
        help="The learned model's SILENT certificate holds for every mix of questions with at "
        "most this share of unanswerable ones (its stated assumption).",
    ),
]


def calibrate_command(
    dataset_dir: Annotated[
        Path, typer.Argument(help="Directory with corpus/*.md and questions.jsonl (labelled).")
    ],
    output: Annotated[
        Path,
        typer.Option("--output", "-o", help="Where to write the grace.yaml snippet."),
    ] = Path("grace-calibration.yaml"),
    method: Annotated[
        str, typer.Option("--method", help="platt (default, small sets) or isotonic.")
    ] = "platt",
    min_bin_size: Annotated[
        int, typer.Option("--min-bin-size", min=1, help="Isotonic: fewest runs per block.")
    ] = 10,
    folds: Annotated[int, typer.Option("--folds", min=2, help="Cross-validation folds.")] = 5,
    eval_output: Annotated[
        Path | None,
        typer.Option("--eval-output", help="Also keep the raw-confidence eval files here."),
    ] = None,
    target_risk: _TargetRisk = None,
    notify_risk: _NotifyRisk = None,
    delta: _Delta = 0.1,
    min_coverage: _MinCoverage = None,
    max_unanswerable_share: _MaxUnanswerableShare = 0.5,
    part: Annotated[str | None, typer.Option("--part", help=_PART_HELP)] = None,
    model: Annotated[
        str,
        typer.Option(
            "--model",
            help="logistic (default): also fit the learned confidence model, cross-fitted by "
            "article, its SILENT threshold certified on runs it was not fitted on; none: "
            "only the calibration map.",
        ),
    ] = "logistic",
) -> None:
    """Fit the confidence calibration (and risk-controlled thresholds) on a labelled dataset.

    Example: grace calibrate data/labelled --target-risk 0.10 -o cal.yaml
    """
    from graph.evaluation.calibrate import RiskTargets, calibrate

    calibrate(
        dataset_dir,
        output,
        method=method,
        min_bin_size=min_bin_size,
        folds=folds,
        eval_output=eval_output,
        risk=RiskTargets(
            silent=target_risk, notify=notify_risk, delta=delta, min_coverage=min_coverage,
            max_unanswerable_share=max_unanswerable_share,
        ),
        part=part,
        model=model,
    )
