"""The evaluation page: ``grace eval`` on a dataset folder, its tables and its two plots."""

from __future__ import annotations

from pathlib import Path

import streamlit as st

from grace.data import sample_dir
from graph.evaluation.cli import (
    KIND_COLUMNS,
    default_output,
    failure_line,
    kind_rows,
    summary_rows,
)
from graph.evaluation.dataset import parse_part
from graph.evaluation.report import EvalReport
from graph.evaluation.runner import run_eval
from graph.ui import widgets
from graph.ui.session import error_message

__all__ = ["eval_page"]

_PLOTS = (
    ("reliability.png", "Reliability: stated confidence against how often it was right"),
    ("risk_coverage.png", "Risk against coverage: answering fewer questions, how many are wrong"),
)


def _show(report: EvalReport, output: Path) -> None:
    st.subheader(f"{report.dataset.get('name', '')} — {report.n} questions")
    failure = failure_line(report)
    if failure is not None:
        widgets.error(failure)
    st.table([{"metric": m, "value": v} for m, v in summary_rows(report)], hide_index=True)
    st.markdown("**Per question kind**")
    st.table([dict(zip(KIND_COLUMNS, row, strict=True)) for row in kind_rows(report)],
                 hide_index=True)  # fmt: skip
    columns = st.columns(len(_PLOTS))
    for column, (name, caption) in zip(columns, _PLOTS, strict=True):
        if (output / name).is_file():
            column.image(str(output / name), caption=caption)
    st.caption(f"Written to {output}: report.json, runs.jsonl and the plots.")


def eval_page() -> None:
    """Run ``grace eval`` on a folder (corpus/ and questions.jsonl) and show the report."""
    st.title("Evaluation")
    st.caption(
        "Runs GRACE on every question of a dataset folder (corpus/*.md and questions.jsonl) "
        "in a temporary data directory of its own, as `grace eval` does."
    )
    with st.form("eval"):
        folder = st.text_input("Dataset folder", value=str(sample_dir()))
        part = st.text_input("Part (optional)", placeholder="K/N, e.g. 1/2")
        run = st.form_submit_button("Run the evaluation", type="primary")
    if run:
        dataset = Path(folder.strip()).expanduser()
        try:
            if not (dataset / "questions.jsonl").is_file():
                raise FileNotFoundError(f"{dataset}: no questions.jsonl")
            chosen = parse_part(part.strip()) if part.strip() else None
            output = default_output(dataset)
            with st.spinner(f"evaluating {dataset.name} … (a question takes about 30 ms offline)"):
                report = run_eval(dataset, output, progress=False, part=chosen)
            st.session_state["eval-report"] = (report, output)
        except FileNotFoundError as exc:
            widgets.error(str(exc))
        except Exception as exc:  # noqa: BLE001 - one line in the page, never a traceback
            widgets.error(error_message(exc))
    shown = st.session_state.get("eval-report")
    if shown is not None:
        _show(*shown)
