"""A pause over document passages names each source with its place (``rules.pdf p. 2``)."""

from __future__ import annotations

from confidence import ActionDecision, InterventionLevel
from grace.schemas import ExecutionPlan, PlanStep, Source, StepResult, StepStatus
from grace.state import State
from nodes.intervene import build_interrupt, pause

_PAGE_2 = Source(
    source_id="S1",
    source="rules.pdf",
    title="Club Rules",
    location="p. 2",
    text="The guest fee is twelve euros per visit.",
    score=0.8,
)
_ROW_3 = Source(source_id="S2", source="faq_2024.csv", location="row 3", text="…", score=0.4)


def _paused_state() -> State:
    plan = ExecutionPlan(
        original_query="How much do guests pay?",
        steps=[
            PlanStep(step_id="s1", action="rag_search", query="guest fee"),
            PlanStep(step_id="s2", action="reasoning", query="guest fee", depends_on=["s1"]),
        ],
    )
    search = StepResult(step_id="s1", status=StepStatus.SUCCESS, sources=[_PAGE_2, _ROW_3])
    answer = StepResult(
        step_id="s2",
        action="reasoning",
        status=StepStatus.SUCCESS,
        output="Guests pay twelve euros per visit. [S1]",
        sources=[_PAGE_2],
    )
    return State(
        query="How much do guests pay?",
        plan=plan,
        results={"s1": search, "s2": answer},
        last_batch=["s1", "s2"],
        decision=ActionDecision(level=InterventionLevel.CONFIRM, score=0.55),
    )


def test_the_review_lists_sources_with_page_and_row() -> None:
    request = build_interrupt(_paused_state())
    description = request.action_requests[0].description
    sources_line = next(line for line in description.splitlines() if line.startswith("**Sources"))
    assert sources_line == "**Sources:** rules.pdf p. 2, faq_2024.csv row 3"
    assert "rules.pdf p. 2" in request.action_requests[0].args["sources"]


def test_the_chat_message_at_the_pause_cites_the_page() -> None:
    message = pause(_paused_state())["messages"][0]
    assert "twelve euros" in message.content
    assert "rules.pdf p. 2" in message.content
