"""The bounded quality gate on the final answer (evaluator block) inside the graph.

The Gemini path is driven by a scripted chat model, so every model call is counted: a
passing gate reuses the answer's single judge call; only a failed gate spends more.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator
from typing import Any

import pytest
from langgraph.checkpoint.memory import InMemorySaver

from confidence import AnswerJudgement, seed_config
from grace.schemas import QualityCheck, StepResult, StepStatus, TokenUsage
from grace.scoring.quality_gate import feedback_text, gate_applies, judge_usage
from grace.services import build_services
from grace.settings import GraceSettings
from grace.storage.serde import use_grace_serializer
from graph.builder import make_graph
from tests.fakes import ScriptedChatModel
from tests.graph.conftest import cfg

SIMPLE = "When did the horse tram line open in Lumen Bay?"
GOOD = {"self_evaluation": 0.95, "query_coverage": 0.9, "rationale": "supported"}
ANSWER_A = "The line opened in 1990 [S1]."
ANSWER_B = "The horse tram line opened on 2 August 1874 [S1]."
ANSWER_C = "It opened in August 1874 [S1]."


def verdict(score: float, rationale: str = "unsupported date") -> dict[str, Any]:
    return {"self_evaluation": score, "query_coverage": 0.5, "rationale": rationale}


def settings_for(offline_services: Any, provider: str = "offline", **gate: Any) -> GraceSettings:
    # The original weighted mean: a failed gate lowers the score without reaching ESCALATE,
    # so the counts below are the gate's own (no low-confidence replan on top).
    return GraceSettings(
        data_dir=offline_services.settings.data_dir,
        provider=provider,
        quality_gate=gate,
        confidence=seed_config(),
    )


@pytest.fixture
def run(offline_services: Any) -> Iterator[Any]:
    """Run a question on the model path; returns (output, final values, custom events)."""

    def _run(
        model: ScriptedChatModel, query: str = SIMPLE, checkpointer: Any = None, **gate: Any
    ) -> tuple[dict[str, Any], dict[str, Any], list[dict[str, Any]]]:
        settings = settings_for(offline_services, **gate)
        services = build_services(settings, chat_model=model, store=offline_services.store)
        saver = checkpointer or use_grace_serializer(InMemorySaver())
        app = make_graph(services=services, checkpointer=saver)
        events: list[dict[str, Any]] = []
        out: dict[str, Any] = {}
        for mode, chunk in app.stream(
            {"query": query}, cfg("qg"), stream_mode=["custom", "values"]
        ):
            if mode == "custom":
                events.append(chunk)
            else:
                out = chunk
        values = app.get_state(cfg("qg")).values
        return out, values, events

    yield _run


def gate_events(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [e for e in events if e["event"] == "quality_gate"]


def reader_prompts(model: ScriptedChatModel) -> list[str]:
    return [str(msgs[-1].content) for kind, msgs in model.calls if kind == "text"]


# --- a passing gate is free -------------------------------------------------------------


def test_passing_gate_reuses_the_single_judge_call(run: Any) -> None:
    model = ScriptedChatModel.of(answers=[ANSWER_B], verdicts=[GOOD])
    _, values, events = run(model)
    assert values["usage"].model_calls == 2 <= 3  # planner skipped, one answer, one judge
    assert model.count("AnswerVerdict") == 1 and model.count("text") == 1
    [check] = values["quality"]
    assert isinstance(check, QualityCheck)
    assert check.passed is True and check.kept and check.attempt == 0
    assert check.score == pytest.approx(0.95)
    assert check.evaluation == "judge" and check.pass_threshold == 0.5
    assert "quality_gate" not in values["scores"]["s2"].penalties
    [event] = gate_events(events)
    assert event["passed"] is True and event["regenerations"] == 0 and event["penalty"] == 0.0
    assert not any("quality gate" in n for n in values["notes"])


# --- a failed gate regenerates with feedback, bounded -------------------------------------


def test_failed_gate_regenerates_with_feedback_and_keeps_the_passing_answer(run: Any) -> None:
    model = ScriptedChatModel.of(answers=[ANSWER_A, ANSWER_B], verdicts=[verdict(0.2), GOOD])
    out, values, events = run(model)
    assert model.count("text") == 2 and model.count("AnswerVerdict") == 2
    assert values["usage"].model_calls == 4
    assert values["results"]["s2"].token_usage.model_calls == 4  # 2 readers + 2 judges
    second = reader_prompts(model)[1]
    assert "A reviewer said of a previous answer" in second
    assert "0.20" in second and "unsupported date" in second  # the judge's feedback
    first, regenerated = values["quality"]
    assert (first.attempt, first.passed, first.kept) == (0, False, False)
    assert first.answer == ANSWER_A and first.suggestions
    assert (regenerated.attempt, regenerated.passed, regenerated.kept) == (1, True, True)
    assert values["results"]["s2"].output == ANSWER_B
    assert out["answer"] == ANSWER_B
    score = values["scores"]["s2"]
    assert score.breakdown["llm_self_eval"] == pytest.approx(0.95)  # the kept answer's judge
    assert "quality_gate" not in score.penalties
    [event] = gate_events(events)
    assert event["passed"] is True and event["kept_attempt"] == 1 and event["regenerations"] == 1


def test_gate_that_still_fails_keeps_the_best_answer_and_lowers_confidence(run: Any) -> None:
    def script() -> ScriptedChatModel:
        return ScriptedChatModel.of(
            answers=[ANSWER_B, ANSWER_A], verdicts=[verdict(0.4), verdict(0.1)]
        )

    _, values, events = run(script(), confidence_penalty=0.1)
    _, unpenalised, _ = run(script(), confidence_penalty=0.0)
    kept = [c for c in values["quality"] if c.kept]
    assert [c.attempt for c in kept] == [0]  # 0.4 beats 0.1: the first answer stays
    assert values["results"]["s2"].output == ANSWER_B
    assert [c.passed for c in values["quality"]] == [False, False]
    score = values["scores"]["s2"]
    assert score.penalties["quality_gate"] == pytest.approx(0.1)
    assert score.breakdown["llm_self_eval"] == pytest.approx(0.4)
    assert score.score == pytest.approx(unpenalised["scores"]["s2"].score - 0.1)
    assert any("did not pass the quality gate" in n and "0.10" in n for n in values["notes"])
    [event] = gate_events(events)
    assert event["passed"] is False and event["penalty"] == pytest.approx(0.1)
    assert event["score"] == pytest.approx(0.4)


def test_regenerations_are_bounded_by_the_setting(run: Any) -> None:
    model = ScriptedChatModel.of(
        answers=[ANSWER_A, ANSWER_B, ANSWER_C, "unused"],
        verdicts=[verdict(0.1), verdict(0.2), verdict(0.3), GOOD],
    )
    _, values, _ = run(model, max_regenerations=2)
    assert model.count("text") == 3 and model.count("AnswerVerdict") == 3
    assert [c.attempt for c in values["quality"]] == [0, 1, 2]
    assert [c.attempt for c in values["quality"] if c.kept] == [2]
    assert values["results"]["s2"].output == ANSWER_C
    assert "quality_gate" in values["scores"]["s2"].penalties


def test_zero_regenerations_evaluates_once_and_penalises(run: Any) -> None:
    model = ScriptedChatModel.of(answers=[ANSWER_A], verdicts=[verdict(0.2)])
    _, values, _ = run(model, max_regenerations=0)
    assert values["usage"].model_calls == 2
    [check] = values["quality"]
    assert check.passed is False and check.kept
    assert values["scores"]["s2"].penalties["quality_gate"] == pytest.approx(0.1)


def test_pass_threshold_is_a_setting(run: Any) -> None:
    model = ScriptedChatModel.of(answers=[ANSWER_A], verdicts=[verdict(0.2)])
    _, values, _ = run(model, pass_threshold=0.2)
    assert [c.passed for c in values["quality"]] == [True]  # 0.2 ≥ 0.2
    assert values["usage"].model_calls == 2


def test_disabled_gate_never_regenerates(run: Any) -> None:
    model = ScriptedChatModel.of(answers=[ANSWER_A], verdicts=[verdict(0.0)])
    _, values, events = run(model, enabled=False)
    assert values["usage"].model_calls == 2
    assert values["quality"] == [] and not gate_events(events)
    assert "quality_gate" not in values["scores"]["s2"].penalties


# --- what the gate does not do ------------------------------------------------------------


def test_unparsed_judge_output_is_not_measured_so_no_regeneration(run: Any) -> None:
    model = ScriptedChatModel.of(answers=[ANSWER_A], verdicts=["garbage"])
    _, values, events = run(model)
    assert values["usage"].model_calls == 2
    [check] = values["quality"]
    assert check.passed is None and check.score is None and check.error
    assert "quality_gate" not in values["scores"]["s2"].penalties
    assert gate_events(events)[0]["passed"] is None


def test_abstention_is_not_gated(run: Any) -> None:
    model = ScriptedChatModel.of(answers=["INSUFFICIENT_CONTEXT"], verdicts=[verdict(0.0)])
    _, values, _ = run(model)
    assert values["quality"] == []  # the gate neither evaluated nor regenerated it
    # The abstention scores low (it rests on no passage), so GRACE broadens the search once
    # before asking (run.low_confidence_replans): that replan's answer step is the only other
    # reader call.
    replans = [(r.trigger, r.strategy) for r in values["replans"]]
    assert replans in ([], [("low_confidence", "partial")])
    assert model.count("text") == 1 + len(replans)


def test_failed_regeneration_keeps_the_first_answer(run: Any) -> None:
    model = ScriptedChatModel.of(
        answers=[ANSWER_A, RuntimeError("model down")], verdicts=[verdict(0.2)]
    )
    _, values, _ = run(model)
    first, failed = values["quality"]
    assert first.kept and not failed.kept
    assert failed.attempt == 1 and failed.error and "model down" in failed.error
    assert values["results"]["s2"].output == ANSWER_A
    assert values["results"]["s2"].status.value == "success"  # no fallback to ask_user
    assert "quality_gate" in values["scores"]["s2"].penalties
    # the regeneration's reader call got the step's model log: its failure is a run note
    rewrite = [n for n in values["notes"] if n.startswith("Model failure (rewrite)")]
    assert len(rewrite) == 1 and "model down" in rewrite[0]


def test_a_repeated_answer_is_not_judged_again(run: Any) -> None:
    model = ScriptedChatModel.of(answers=[ANSWER_A, ANSWER_A], verdicts=[verdict(0.2)])
    _, values, _ = run(model, max_regenerations=3)
    assert model.count("text") == 2 and model.count("AnswerVerdict") == 1
    assert values["quality"][1].error == "same answer as before"


# --- the evaluator block as the gate's evaluation ------------------------------------------


def test_evaluator_mode_scores_with_the_evaluator_block(run: Any) -> None:
    model = ScriptedChatModel.of(answers=[ANSWER_A, ANSWER_B], verdicts=[GOOD, GOOD])
    model.script.by_tool["ScoreVerdict"] = deque(
        [
            {
                "score": 0.3,
                "confidence": 0.9,
                "feedback": "the date contradicts passage S1",
                "suggestions": ["use the date in S1"],
            },
            {"score": 0.9, "confidence": 0.9, "feedback": "correct", "suggestions": []},
        ]
    )
    _, values, _ = run(model, evaluation="evaluator")
    assert model.count("ScoreVerdict") == 2
    assert values["usage"].model_calls == 6  # 2 × (reader + judge + evaluator)
    assert "the date contradicts passage S1" in reader_prompts(model)[1]
    assert "use the date in S1" in reader_prompts(model)[1]
    assert [(c.evaluation, c.passed) for c in values["quality"]] == [
        ("evaluator", False),
        ("evaluator", True),
    ]
    assert values["results"]["s2"].output == ANSWER_B


# --- offline path -----------------------------------------------------------------------


CHARTER = "In what year did Lumen Bay receive its royal charter as a borough?"


def _offline_run(
    offline_services: Any, query: str = SIMPLE, **gate: Any
) -> tuple[dict[str, Any], list[Any]]:
    services = build_services(settings_for(offline_services, **gate), store=offline_services.store)
    app = make_graph(services=services, checkpointer=use_grace_serializer(InMemorySaver()))
    events: list[Any] = []
    for chunk in app.stream({"query": query}, cfg("off"), stream_mode="custom"):
        events.append(chunk)
    values = app.get_state(cfg("off")).values
    return values, events


def test_offline_gate_passes_on_a_supported_answer(offline_services: Any) -> None:
    values, events = _offline_run(offline_services)
    [check] = values["quality"]
    assert check.passed is True and check.score is not None and check.score >= 0.5
    assert values["usage"].model_calls == 0
    assert gate_events(events)[0]["passed"] is True


def test_offline_failed_gate_is_bounded_and_penalised(offline_services: Any) -> None:
    values, _ = _offline_run(offline_services, CHARTER, pass_threshold=1.0, max_regenerations=3)
    checks = values["quality"]
    assert checks[0].score is not None and checks[0].score < 1.0, "needs an imperfect answer"
    # The extractive reader ignores feedback: its second answer repeats the first, which
    # ends the loop after one regeneration instead of three.
    assert [c.attempt for c in checks] == [0, 1]
    assert checks[1].error == "same answer as before"
    assert checks[0].kept
    assert values["scores"]["s2"].penalties["quality_gate"] == pytest.approx(0.1)


def test_offline_evaluator_mode_uses_the_heuristic_evaluator(offline_services: Any) -> None:
    values, _ = _offline_run(offline_services, evaluation="evaluator")
    [check] = values["quality"]
    assert check.evaluation == "evaluator" and check.passed is True
    assert "heuristic score" in check.feedback
    assert values["usage"].model_calls == 0


# --- persistence ------------------------------------------------------------------------


def test_quality_checks_survive_the_checkpointer(run: Any, checkpointer: Any) -> None:
    model = ScriptedChatModel.of(answers=[ANSWER_A, ANSWER_B], verdicts=[verdict(0.2), GOOD])
    _, values, _ = run(model, checkpointer=checkpointer)
    assert [type(c) for c in values["quality"]] == [QualityCheck, QualityCheck]
    assert [c.kept for c in values["quality"]] == [False, True]


# --- hand-derived values ------------------------------------------------------------------

SUGGESTIONS = (
    "Answer exactly what the question asks, every part of it. Use only facts stated in the "
    "passages and cite each one as [S1], [S2] …."
)


def test_the_reader_gets_the_judges_score_rationale_and_suggestions(run: Any) -> None:
    # verdict(0.2): self-evaluation 0.20 < the 0.50 pass threshold, coverage 0.5.
    model = ScriptedChatModel.of(answers=[ANSWER_A, ANSWER_B], verdicts=[verdict(0.2), GOOD])
    _, values, _ = run(model)
    expected = (
        "A reviewer said of a previous answer: The judge rated the answer 0.20 (< 0.50): "
        "unsupported date Suggestions: The answer addresses about 50% of the question. "
        + SUGGESTIONS
    )
    assert reader_prompts(model)[1].endswith(expected)
    first, second = values["quality"]
    assert first.feedback == "The judge rated the answer 0.20 (< 0.50): unsupported date"
    assert second.feedback == "The judge rated the answer 0.95 (≥ 0.50): supported"
    assert second.suggestions == []
    # Two reader and two judge calls at 100 input / 20 output tokens each.
    usage = values["results"]["s2"].token_usage
    assert (usage.model_calls, usage.input_tokens, usage.output_tokens) == (4, 400, 80)


def test_full_coverage_adds_no_coverage_suggestion(run: Any) -> None:
    failing = {"self_evaluation": 0.3, "query_coverage": 1.0, "rationale": ""}
    model = ScriptedChatModel.of(answers=[ANSWER_A, ANSWER_B], verdicts=[failing, GOOD])
    run(model)
    assert reader_prompts(model)[1].endswith(
        "A reviewer said of a previous answer: The judge rated the answer 0.30 (< 0.50) "
        "Suggestions: " + SUGGESTIONS
    )


def test_equal_scores_keep_the_earlier_answer(run: Any) -> None:
    model = ScriptedChatModel.of(answers=[ANSWER_A, ANSWER_C], verdicts=[verdict(0.3)] * 2)
    _, values, _ = run(model, max_regenerations=1)
    assert [(c.attempt, c.score, c.kept) for c in values["quality"]] == [
        (0, 0.3, True),
        (1, 0.3, False),
    ]
    assert values["results"]["s2"].output == ANSWER_A


def test_feedback_text_joins_feedback_and_suggestions() -> None:
    check = QualityCheck(
        step_id="s2", attempt=0, feedback="  rated 0.10  ", suggestions=["Cite.", "Be exact."]
    )
    assert feedback_text(check) == "rated 0.10 Suggestions: Cite. Be exact."
    assert feedback_text(check.model_copy(update={"suggestions": []})) == "rated 0.10"
    empty = check.model_copy(update={"feedback": " ", "suggestions": []})
    assert feedback_text(empty) == (
        "The previous answer did not pass review; answer more precisely."
    )


def test_judge_usage_is_the_judgements_cost() -> None:
    judgement = AnswerJudgement(self_eval=0.5, model_calls=1, input_tokens=120, output_tokens=30)
    assert judge_usage(judgement) == TokenUsage(model_calls=1, input_tokens=120, output_tokens=30)


@pytest.mark.parametrize(
    ("action", "status", "output", "enabled", "applies"),
    [
        ("reasoning", StepStatus.SUCCESS, "It opened in 1874 [S1].", True, True),
        ("reasoning", StepStatus.SUCCESS, "  ", True, False),  # nothing to judge
        ("reasoning", StepStatus.FAILED, "It opened in 1874 [S1].", True, False),
        ("rag_search", StepStatus.SUCCESS, "passages", True, False),  # not an answer
        ("reasoning", StepStatus.SUCCESS, "It opened in 1874 [S1].", False, False),  # off
    ],
)
def test_gate_applies_only_to_a_completed_answer_when_enabled(
    offline_services: Any,
    action: str,
    status: StepStatus,
    output: str,
    enabled: bool,
    applies: bool,
) -> None:
    services = build_services(
        settings_for(offline_services, enabled=enabled), store=offline_services.store
    )
    result = StepResult(step_id="s2", action=action, status=status, output=output)
    assert gate_applies(services, result) is applies
