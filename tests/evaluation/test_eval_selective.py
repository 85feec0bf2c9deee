"""Selective-prediction figures: silent / notify blocks, coverage at risk, eval failure line."""

from __future__ import annotations

from typing import Any

import pytest

from graph.evaluation.cli import failure_line
from graph.evaluation.dataset import Question
from graph.evaluation.record import RunRecord, StepRecord
from graph.evaluation.report import build_report
from graph.evaluation.selective import coverage_at_risk, is_right, level_block


def _run(
    conf: float,
    *,
    right: bool = True,
    answerable: bool = True,
    answered: bool = True,
    level: str = "silent",
    step_error: str | None = None,
) -> RunRecord:
    gold = ("1874",)
    answer = "It opened in 1874." if right else "It opened in 1900."
    steps = [StepRecord(step_id="s1", action="reasoning", query="q", collection=None,
                        status="failed" if step_error else "success", error=step_error)]
    return RunRecord(
        question=Question(id=f"q{conf}", question="When?", answerable=answerable,
                          answers=gold if answerable else ()),
        status="completed",
        answer=answer if answered else "The documents do not contain it.",
        answered=answered,
        confidence=conf,
        level=level,
        steps=steps,
    )


def test_right_means_correct_answer_or_abstention_on_unanswerable() -> None:
    assert is_right(_run(0.9))
    assert not is_right(_run(0.9, right=False))
    assert not is_right(_run(0.9, answerable=False))  # answered an unanswerable question
    assert is_right(_run(0.1, answerable=False, answered=False))
    assert not is_right(_run(0.1, answered=False))  # abstaining on an answerable one


def test_level_block_rate_error_and_upper_bound() -> None:
    runs = [_run(0.95)] * 8 + [_run(0.95, right=False)] * 2 + [_run(0.5, level="confirm")] * 10
    block = level_block(runs, "silent")
    upper = pytest.approx(0.5069, abs=1e-3)  # exact one-sided 95 % bound for 2 / 10
    assert block == {"n": 10, "rate": 0.5, "error": 0.2, "error_upper": upper}
    assert level_block(runs, "notify") == {"n": 0, "rate": 0.0, "error": None, "error_upper": None}


def test_coverage_at_risk_takes_runs_by_confidence() -> None:
    # Cumulative errors by rank: 0 0 0 0 1 1 1 2 3 4 → error ≤ 0.20 up to rank 7 (1/7).
    pattern = [True, True, True, True, False, True, True, False, False, False]
    runs = [_run(1.0 - i / 20, right=ok) for i, ok in enumerate(pattern)]
    cov = coverage_at_risk(runs)
    assert cov["0.05"] == 0.4  # 4/4 right; the 5th brings 1/5 = 0.2
    assert cov["0.20"] == 0.7
    assert cov["0.10"] == 0.4


def test_coverage_at_risk_keeps_ties_together() -> None:
    runs = [_run(0.9), _run(0.9, right=False), _run(0.5)]
    assert coverage_at_risk(runs)["0.05"] == 0.0


def test_report_has_the_blocks_and_problems() -> None:
    runs = [_run(0.95), _run(0.4, level="confirm", step_error="ConnectError: refused")]
    report = build_report(runs, settings={"confidence": {"thresholds": {"silent": 0.9}}}, n_boot=10)
    data: dict[str, Any] = report.to_json()
    assert data["silent"]["n"] == 1 and data["silent"]["error"] == 0.0
    assert set(data["coverage_at_risk"]) == {"0.05", "0.10", "0.20"}
    assert data["problems"]["questions"] == 1
    assert data["problems"]["common"][0]["message"] == "ConnectError: refused"
    assert data["thresholds"] == {"silent": 0.9}
    assert failure_line(report) is None


def test_every_question_erroring_gives_a_failure_line() -> None:
    runs = [_run(0.1, level="escalate", answered=False, step_error="ConnectError: refused")] * 3
    report = build_report(runs, settings={}, n_boot=10)
    line = failure_line(report)
    assert line is not None and "every question (3)" in line and "ConnectError" in line


def test_silent_promise_per_language_and_kind_with_intervals_and_the_worst_mix() -> None:
    from graph.evaluation.selective import silent_promise

    def run(lang: str, kind: str, level: str, *, right: bool = True) -> RunRecord:
        answerable = kind == "in_corpus"
        base = _run(0.9, right=right, answerable=answerable, level=level)
        q = base.question
        question = Question(id=q.id, question=q.question, answerable=answerable,
                            answers=q.answers, lang=lang, kind=kind)
        return RunRecord(question=question, status=base.status, answer=base.answer,
                         answered=True, confidence=0.9, level=level, steps=base.steps)

    records = [
        *[run("en", "in_corpus", "silent") for _ in range(8)],
        run("en", "in_corpus", "silent", right=False),
        run("en", "in_corpus", "notify"),
        run("en", "squad_unanswerable", "silent"),
        *[run("en", "squad_unanswerable", "confirm") for _ in range(9)],
        *[run("ja", "in_corpus", "silent") for _ in range(5)],
        *[run("ja", "out_of_corpus", "escalate") for _ in range(5)],
    ]
    promise = silent_promise(records, max_share=0.5)
    en = promise["by_lang"]["en"]
    assert en["answerable_silent"]["rate"] == 0.9 and en["answerable_silent"]["n"] == 10
    assert en["answerable_silent_wrong"]["k"] == 1 and en["answerable_silent_wrong"]["n"] == 9
    low, high = en["unanswerable_silent"]["ci95"]
    assert en["unanswerable_silent"]["rate"] == 0.1 and low < 0.1 < high
    # At half unanswerable: (0.5 * 0.9 * 1/9 + 0.5 * 0.1) / (0.5 * 0.9 + 0.5 * 0.1) = 0.2.
    assert en["worst_case_observed"] == pytest.approx(0.2)
    assert promise["by_lang"]["ja"]["worst_case_observed"] == 0.0
    assert promise["by_kind"]["en/squad_unanswerable"]["silent"]["k"] == 1
    assert promise["by_kind"]["en/squad_unanswerable"]["silent_error"]["rate"] == 1.0
    assert promise["worst_case_bound"] > 0.2  # bounds, not point figures
    # A language with nothing SILENT has no worst mix to report (not a 100 % error).
    quiet = silent_promise([run("ja", "out_of_corpus", "escalate")])
    assert quiet["by_lang"]["ja"]["worst_case_observed"] is None
