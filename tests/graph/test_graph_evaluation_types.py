"""The evaluator block's four types in the product: ``quality_gate.type`` end to end.

``scoring`` (the default), ``criteria``, ``rubric`` and ``comparison``, each chosen in the
settings (``grace.yaml``) and run through the graph: with a model (the LLM evaluator, a
scripted chat model counting every call) and offline (the heuristic evaluator), and shown in
a ``grace ask --json`` result.
"""

from __future__ import annotations

import json
from collections import deque
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

from grace.settings import GraceSettings, QualityGateSettings
from tests.cli_runner import run_cli_process
from tests.fakes import ScriptedChatModel
from tests.graph.test_graph_quality_gate import (
    ANSWER_A,
    ANSWER_B,
    GOOD,
    SIMPLE,
    _offline_run,
    reader_prompts,
    run,  # noqa: F401 - the fixture
    verdict,
)

CRITERIA = [
    {"name": "grounded", "description": "every fact is in a cited passage", "weight": 2},
    {"name": "complete", "description": "answers every part of the question", "weight": 1},
]


def _score(score: float, feedback: str = "", *suggestions: str) -> dict[str, Any]:
    return {"score": score, "confidence": 0.9, "feedback": feedback, "suggestions": [*suggestions]}


def _ranked(first: float, second: float, feedback: str) -> dict[str, Any]:
    """A comparison verdict on two drafts."""
    scores = [{"index": 0, "score": first}, {"index": 1, "score": second}]
    return {"scores": scores, "confidence": 0.9, "feedback": feedback, "suggestions": []}


# --- with a model: the LLM evaluator ---------------------------------------------------


def test_criteria_scores_each_named_criterion_and_regenerates_with_their_feedback(
    run: Any,  # noqa: F811
) -> None:
    model = ScriptedChatModel.of(answers=[ANSWER_A, ANSWER_B], verdicts=[GOOD, GOOD])
    model.script.by_tool["CriteriaVerdict"] = deque(
        [
            {
                "scores": [{"name": "grounded", "score": 0.1}, {"name": "complete", "score": 0.7}],
                "confidence": 0.9,
                "feedback": "the year is not in S1",
                "suggestions": ["take the date from S1"],
            },
            {
                "scores": [{"name": "grounded", "score": 1.0}, {"name": "complete", "score": 0.7}],
                "confidence": 0.9,
                "feedback": "grounded",
                "suggestions": [],
            },
        ]
    )
    _, values, _ = run(model, type="criteria", criteria=CRITERIA)
    assert model.count("CriteriaVerdict") == 2 and model.count("ScoreVerdict") == 0
    first, second = values["quality"]
    assert (first.type, first.evaluation, first.passed) == ("criteria", "evaluator", False)
    assert first.criteria_scores == {"grounded": 0.1, "complete": 0.7}
    assert first.score == pytest.approx((2 * 0.1 + 0.7) / 3)  # weights normalised
    assert second.passed is True and second.kept and second.score == pytest.approx(0.9)
    assert "the year is not in S1" in reader_prompts(model)[1]
    assert "take the date from S1" in reader_prompts(model)[1]
    assert values["results"]["s2"].output == ANSWER_B


def test_rubric_grades_the_score_by_the_settings_bands(run: Any) -> None:  # noqa: F811
    model = ScriptedChatModel.of(answers=[ANSWER_B], verdicts=[GOOD])
    model.script.by_tool["ScoreVerdict"] = deque([_score(0.72, "right date, terse")])
    bands = [{"grade": "good", "min_score": 0.7}, {"grade": "poor", "min_score": 0.0}]
    _, values, _ = run(model, type="rubric", rubric=bands)
    [check] = values["quality"]
    assert (check.type, check.grade, check.passed) == ("rubric", "good", True)
    assert check.score == pytest.approx(0.72)
    assert values["usage"].model_calls == 3  # reader, judge, evaluator


def test_comparison_ranks_the_drafts_side_by_side_and_keeps_its_best(
    run: Any,  # noqa: F811
) -> None:
    # Each draft's own score would keep the first (0.45 > 0.3); the comparison prefers
    # the second: the comparison decides.
    model = ScriptedChatModel.of(
        answers=[ANSWER_A, ANSWER_B], verdicts=[verdict(0.45), verdict(0.3)]
    )
    model.script.by_tool["ComparisonVerdict"] = deque([_ranked(0.2, 0.8, "output 1 has the date")])
    _, values, events = run(model, type="comparison")
    assert model.count("ComparisonVerdict") == 1
    first, second = values["quality"]
    assert [c.type for c in values["quality"]] == ["comparison", "comparison"]
    assert second.kept and not first.kept
    assert second.criteria_scores == {"output_0": 0.2, "output_1": 0.8}
    assert values["results"]["s2"].output == ANSWER_B
    # the kept draft failed on its own score: the gate failed, the penalty applies
    assert values["scores"]["s2"].penalties["quality_gate"] == pytest.approx(0.1)
    [event] = [e for e in events if e["event"] == "quality_gate"]
    assert event["kept_attempt"] == 1 and event["passed"] is False


def test_without_feedback_the_regeneration_gets_none(run: Any) -> None:  # noqa: F811
    model = ScriptedChatModel.of(answers=[ANSWER_A, ANSWER_B], verdicts=[verdict(0.2), GOOD])
    _, values, _ = run(model, feedback=False)
    assert [c.passed for c in values["quality"]] == [False, True]
    assert "unsupported date" not in reader_prompts(model)[1]
    assert "unsupported date" in values["quality"][0].feedback


def test_a_type_missing_what_it_needs_is_refused() -> None:
    with pytest.raises(ValidationError, match="quality_gate.type criteria needs"):
        QualityGateSettings(type="criteria")
    with pytest.raises(ValidationError, match="unique"):
        QualityGateSettings(type="criteria", criteria=[CRITERIA[0], CRITERIA[0]])
    assert GraceSettings().quality_gate.type == "scoring"  # the default: today's gate


# --- offline: the heuristic evaluator --------------------------------------------------


@pytest.mark.parametrize(
    ("gate", "expect"),
    [
        ({}, {"type": "scoring", "evaluation": "judge"}),
        ({"type": "criteria", "criteria": CRITERIA}, {"type": "criteria"}),
        ({"type": "rubric"}, {"type": "rubric"}),
        ({"type": "comparison"}, {"type": "comparison", "evaluation": "judge"}),
    ],
)
def test_each_type_runs_offline(
    offline_services: Any, gate: dict[str, Any], expect: dict[str, Any]
) -> None:
    values, _ = _offline_run(offline_services, **gate)
    [check] = values["quality"]
    assert check.model_dump(include=set(expect)) == expect
    assert check.passed is True and check.score is not None
    assert values["usage"].model_calls == 0
    if gate.get("type") == "criteria":
        assert set(check.criteria_scores) == {"grounded", "complete"}
        assert check.evaluation == "evaluator"
    if gate.get("type") == "rubric":
        assert check.grade in {"A", "B", "C", "D", "F"}


# --- grace.yaml → grace ask --json -----------------------------------------------------


_YAML = {
    "scoring": "quality_gate:\n  type: scoring\n",
    "criteria": "quality_gate:\n  type: criteria\n  criteria:\n"
    + "".join(
        f"    - {{name: {c['name']}, description: '{c['description']}', weight: {c['weight']}}}\n"
        for c in CRITERIA
    ),
    "rubric": "quality_gate:\n  type: rubric\n  rubric:\n"
    "    - {grade: pass, min_score: 0.5}\n    - {grade: fail, min_score: 0.0}\n",
    "comparison": "quality_gate:\n  type: comparison\n  feedback: false\n",
}


@pytest.fixture(scope="module")
def cli_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One directory (and data dir) for the four ``grace ask`` runs: the corpus ingested once."""
    return tmp_path_factory.mktemp("evaluation-types")


@pytest.mark.slow
@pytest.mark.parametrize("kind", list(_YAML))
def test_each_type_is_chosen_in_grace_yaml_and_shown_by_ask_json(cli_dir: Path, kind: str) -> None:
    (cli_dir / "grace.yaml").write_text(_YAML[kind], encoding="utf-8")
    ran = run_cli_process(cli_dir, "ask", SIMPLE, "--json")
    assert ran.returncode == 0, ran.stderr[-2000:]
    out = json.loads(ran.stdout)
    [check] = out["quality"]
    assert check["type"] == kind and check["kept"] is True
    if kind == "criteria":
        assert set(check["criteria_scores"]) == {"grounded", "complete"}
    if kind == "rubric":
        assert check["grade"] == ("pass" if check["passed"] else "fail")


# --- the async graph (the evaluator's async methods) -------------------------------------


def test_the_async_graph_compares_and_grades_too(offline_services: Any) -> None:
    import asyncio

    from langgraph.checkpoint.memory import InMemorySaver

    from grace.services import build_services
    from graph.builder import make_graph
    from tests.graph.conftest import cfg
    from tests.graph.test_graph_quality_gate import settings_for

    model = ScriptedChatModel.of(
        answers=[ANSWER_A, ANSWER_B], verdicts=[verdict(0.45), verdict(0.3)]
    )
    model.script.by_tool["ComparisonVerdict"] = deque([_ranked(0.1, 0.9, "output 1 is right")])
    settings = settings_for(offline_services, type="comparison")
    services = build_services(settings, chat_model=model, store=offline_services.store)
    app = make_graph(services=services, checkpointer=InMemorySaver())
    asyncio.run(app.ainvoke({"query": SIMPLE}, cfg("async-comparison")))
    values = app.get_state(cfg("async-comparison")).values
    assert model.count("ComparisonVerdict") == 1
    assert [c.kept for c in values["quality"]] == [False, True]
    assert values["results"]["s2"].output == ANSWER_B


# --- a plan step's own gate config ------------------------------------------------------


class _PlannerWithGateConfig:
    """The template plan, its answer step carrying a gate config (as an LLM planner may)."""

    def __init__(self, evaluation: dict[str, Any]) -> None:
        self.evaluation = evaluation

    def _outcome(self, request: Any) -> Any:
        from grace.planning.blocks import template_plan
        from grace.providers.base import PlanOutcome
        from grace.schemas import StepEvaluation

        plan = template_plan(request.query, request.default_collection)
        config = StepEvaluation.model_validate(self.evaluation)
        answer = plan.steps[-1].model_copy(update={"evaluation": config})
        return PlanOutcome(plan=plan.model_copy(update={"steps": [*plan.steps[:-1], answer]}))

    def plan(self, request: Any, *, log: Any = None) -> Any:
        return self._outcome(request)

    async def aplan(self, request: Any, *, log: Any = None) -> Any:
        return self._outcome(request)


@pytest.mark.parametrize(
    ("config", "expect"),
    [
        ({"type": "rubric", "rubric": [{"grade": "ok", "min_score": 0.0}]}, ("rubric", "ok")),
        ({"type": "criteria", "criteria": CRITERIA[:1]}, ("criteria", None)),
        ({"type": "criteria"}, ("scoring", None)),  # not valid: the settings' gate applies
    ],
)
def test_a_plan_steps_config_chooses_its_gate(
    offline_services: Any, config: dict[str, Any], expect: tuple[str, str | None]
) -> None:
    from dataclasses import replace

    from langgraph.checkpoint.memory import InMemorySaver

    from grace.services import build_services
    from graph.builder import make_graph
    from tests.graph.conftest import cfg
    from tests.graph.test_graph_quality_gate import settings_for

    built = build_services(settings_for(offline_services), store=offline_services.store)
    services = replace(built, planner=_PlannerWithGateConfig(config))
    app = make_graph(services=services, checkpointer=InMemorySaver())
    app.invoke({"query": SIMPLE}, cfg("step-config"))
    [check] = app.get_state(cfg("step-config")).values["quality"]
    assert (check.type, check.grade) == expect
