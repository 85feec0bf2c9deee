"""``grace eval DATASET_DIR --output OUT_DIR``: evaluate on a dataset and print a summary."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import typer
from rich.console import Console
from rich.table import Table

from graph.evaluation.dataset import DatasetError, parse_part
from graph.evaluation.report import EvalReport
from graph.evaluation.runner import run_eval
from graph.views.terminal import term, term_text

__all__ = [
    "KIND_COLUMNS",
    "default_output",
    "evaluate",
    "failure_line",
    "kind_rows",
    "kind_table",
    "silent_table",
    "summary_rows",
    "summary_table",
]


def _fmt(value: Any, ci: Any = None) -> str:
    if value is None:
        return "—"
    text = f"{value:.3f}" if isinstance(value, float) else str(value)
    if ci:
        text += f"  [{ci[0]:.3f}, {ci[1]:.3f}]"
    return text


def _level_row(block: dict[str, Any]) -> str:
    upper = block.get("error_upper")
    bound = f" [{upper:.3f}]" if upper is not None else ""
    return f"{_fmt(block.get('rate'))} / {_fmt(block.get('error'))}{bound}"


def failure_line(report: EvalReport) -> str | None:
    """A summary line when every question met an error (the run measured nothing)."""
    failed = max(report.errors, int(report.problems.get("questions") or 0))
    if report.n == 0 or failed < report.n:
        return None
    common = report.problems.get("common") or [{"message": "unknown error"}]
    return (
        f"every question ({report.n}) met a model or tool error; the figures measure nothing. "
        f"Commonest: {common[0]['message']}"
    )


def summary_rows(report: EvalReport) -> list[tuple[str, str]]:
    """The headline figures as ``(metric, value)`` rows (95 % bootstrap CIs in brackets)."""
    ir = report.intervention_rate
    return [
        ("accuracy", _fmt(report.accuracy)),
        ("recall@1 / recall@5", f"{_fmt(report.recall_at_1)} / {_fmt(report.recall_at_5)}"),
        ("AUROC (correct)", _fmt(report.auroc, report.ci.get("auroc"))),
        (
            "AUROC (answerable)",
            _fmt(report.answerability_auroc, report.ci.get("answerability_auroc")),
        ),
        ("ECE (10 bins)", _fmt(report.ece, report.ci.get("ece"))),
        ("AURC", _fmt(report.aurc)),
        (
            "intervention answerable / unanswerable",
            f"{_fmt(ir.get('answerable'))} / {_fmt(ir.get('unanswerable'))}",
        ),
        (
            "LLM calls / tokens per question",
            f"{_fmt(report.llm_calls_per_question)} / {_fmt(report.tokens_per_question)}",
        ),
        (
            "latency p50 / p95 (ms)",
            f"{_fmt(report.latency_ms.get('p50'))} / {_fmt(report.latency_ms.get('p95'))}",
        ),
        ("all scorers passed", _fmt(report.verdict.get("all_passed_rate"))),
        ("silent: rate / error [95 % upper]", _level_row(report.silent)),
        ("notify: rate / error [95 % upper]", _level_row(report.notify)),
        (
            "coverage at risk 0.05 / 0.10 / 0.20",
            " / ".join(_fmt(v) for v in report.coverage_at_risk.values()),
        ),
        ("questions with model / tool errors", _fmt(report.problems.get("questions"))),
    ]


def summary_table(report: EvalReport) -> Table:
    """A short table of the headline figures (95 % bootstrap CIs in brackets)."""
    table = Table(title=f"GRACE eval — {report.dataset.get('name', '')} (n={report.n})")
    table.add_column("metric")
    table.add_column("value", justify="right")
    for name, value in summary_rows(report):
        table.add_row(name, value)
    return table


KIND_COLUMNS = ("kind", "n", "accuracy", "silent rate / error", "pauses")
"""The columns of :func:`kind_rows`."""


def kind_rows(report: EvalReport) -> list[tuple[str, ...]]:
    """The figures per question kind, one row per kind (columns :data:`KIND_COLUMNS`)."""
    rows: list[tuple[str, ...]] = []
    for kind, f in report.by_kind.items():
        rates = f["intervention_rate"]
        pause = rates["answerable"] if rates["answerable"] is not None else rates["unanswerable"]
        rows.append(
            (
                kind,
                str(f["n"]),
                _fmt(f["accuracy"]),
                f"{_fmt(f.get('silent_rate'))} / {_fmt(f.get('silent_error'))}",
                _fmt(pause),
            )
        )
    return rows


def kind_table(report: EvalReport) -> Table:
    """The figures per question kind: how GRACE does on each way a question can be hard."""
    table = Table(title="per question kind")
    for column in KIND_COLUMNS:
        table.add_column(column, justify="left" if column == "kind" else "right")
    for row in kind_rows(report):
        table.add_row(*row)
    return table


def _ci(block: dict[str, Any]) -> str:
    """``rate [low, high] (k/n)`` of a :func:`~graph.evaluation.selective.silent_promise` rate."""
    if block["rate"] is None:
        return "—"
    low, high = block["ci95"]
    return f"{block['rate']:.3f} [{low:.3f}, {high:.3f}] ({block['k']}/{block['n']})"


def silent_table(report: EvalReport) -> Table:
    """SILENT per language and kind of question, with 95 % intervals, and the worst mix."""
    promise = report.silent_promise
    t = report.thresholds
    title = (
        f"SILENT per language (thresholds that decided, from {report.thresholds_source}: "
        + " / ".join(f"{k} {v:.2f}" for k, v in t.items())
        + ")"
    )
    table = Table(title=title)
    for column in ("language", "answerable SILENT", "wrong among them", "unanswerable SILENT"):
        table.add_column(column, justify="left" if column == "language" else "right")
    for lang, f in promise.get("by_lang", {}).items():
        table.add_row(
            lang,
            _ci(f["answerable_silent"]),
            _ci(f["answerable_silent_wrong"]),
            _ci(f["unanswerable_silent"]),
        )
    share = promise.get("max_unanswerable_share", 0.5)
    seen = [f["worst_case_observed"] for f in promise.get("by_lang", {}).values()]
    observed = max((v for v in seen if v is not None), default=None)
    bound = promise.get("worst_case_bound")
    table.caption = (
        f"P(wrong | SILENT) over mixes with up to {share:.0%} unanswerable: worst observed "
        f"{_fmt(observed)}, bound {_fmt(bound)} (probability {1 - promise.get('delta', 0.1):.2f})"
    )
    return table


def default_output(dataset_dir: Path) -> Path:
    """Where ``grace eval`` writes when no ``--output`` is given: under the data directory."""
    from grace.settings import get_settings

    return get_settings().data_dir / "eval" / Path(dataset_dir).resolve().name


def evaluate(
    dataset_dir: Path, output: Path | None, *, json_output: bool, part: str | None
) -> None:
    """``grace eval``: evaluate, print the table or the JSON, exit 1 if every question errored."""
    console = Console(stderr=json_output)
    output = output if output is not None else default_output(dataset_dir)
    if not (dataset_dir / "questions.jsonl").is_file():
        console.print(term_text(f"{dataset_dir}: no questions.jsonl", style="red"))
        raise typer.Exit(code=2)
    try:
        chosen = parse_part(part) if part is not None else None
    except DatasetError as exc:
        console.print(term_text(exc, style="red"))
        raise typer.Exit(code=2) from None
    try:
        report = run_eval(dataset_dir, output, progress=not json_output, part=chosen)
    except DatasetError as exc:  # the message alone: it names the file, line and field
        Console(stderr=True).print(term_text(f"grace eval: {exc}", style="red"))
        raise typer.Exit(code=2) from None
    if json_output:
        typer.echo(json.dumps(report.to_json(), ensure_ascii=False, indent=2))
    else:
        console.print(summary_table(report))
        console.print(kind_table(report))
        console.print(silent_table(report))
        console.print(
            term(f"Wrote {output}/report.json, runs.jsonl, reliability.png, risk_coverage.png"),
            markup=False,
        )
    failure = failure_line(report)
    if failure is not None:
        Console(stderr=True).print(term_text(f"grace eval: {failure}", style="red"))
        raise typer.Exit(code=1)
