"""A node writes only the channels it changes (issue 40: what each step writes).

A write that changes nothing still costs a pending write, a new channel version and a value in
the next checkpoint. :func:`grace.state.changed_only` drops it from every node's update.
"""

from __future__ import annotations

from typing import Any

from langgraph.types import Overwrite

from confidence.types import ActionDecision, InterventionLevel
from grace.schemas import PlanStep, TokenUsage
from grace.state import REDUCED_FIELDS, InterveneInput, State, StepTask, changed_only
from graph.builder import make_graph
from tests.graph.conftest import cfg

QUESTION = "When did the horse tram line open in Lumen Bay?"


def _decision(level: InterventionLevel = InterventionLevel.SILENT) -> ActionDecision:
    return ActionDecision(level=level, reason="r", recommended_action="a", score=0.9)


def test_an_empty_addition_to_a_reducer_channel_is_dropped() -> None:
    update = {"notes": [], "results": {}, "messages": [], "usage": TokenUsage(), "quality": []}
    assert changed_only(update, State()) == {}
    assert {"notes", "results", "messages", "usage", "quality"} <= REDUCED_FIELDS


def test_an_addition_is_kept() -> None:
    usage = TokenUsage(model_calls=1)
    update = {"notes": ["n"], "usage": usage}
    assert changed_only(update, State()) == update


def test_a_plain_value_equal_to_the_one_read_is_dropped() -> None:
    state = State(query="q", decision=_decision(), replan_request=None, confidence=0.5)
    update = {
        "query": "q",
        "decision": _decision(),
        "replan_request": None,
        "confidence": 0.5,
        "level": InterventionLevel.SILENT,
    }
    assert changed_only(update, state) == {"level": InterventionLevel.SILENT}


def test_a_changed_plain_value_is_kept() -> None:
    state = State(decision=_decision(), confidence=0.5)
    update = {"decision": _decision(InterventionLevel.CONFIRM), "confidence": 0.6}
    assert changed_only(update, state) == update


def test_an_overwrite_is_always_kept() -> None:
    update = {"notes": Overwrite([]), "results": Overwrite({})}
    assert changed_only(update, State()) == update


def test_an_input_schema_is_compared_on_its_own_channels() -> None:
    read = InterveneInput(query="q", user_id="u")
    update = {"query": "q", "user_id": "v", "review": None}
    # ``review`` is not in intervene's input: it is written as it is
    assert changed_only(update, read) == {"user_id": "v", "review": None}


def test_a_send_payload_is_not_read_as_channels() -> None:
    step = PlanStep(step_id="s1", action="rag_search", description="d", tool_input={})
    read = StepTask(step=step)
    update: dict[str, Any] = {"human_sources": [], "results": {}, "plan": None}
    # its fields are no channels: only the empty addition to a reducer channel goes
    assert changed_only(update, read) == {"human_sources": [], "plan": None}


def test_a_run_writes_no_value_it_does_not_change(offline_services: Any, checkpointer: Any) -> None:
    app: Any = make_graph(services=offline_services, checkpointer=checkpointer)
    before: dict[str, Any] = {}
    for mode, chunk in app.stream(
        {"query": QUESTION}, cfg("lean"), stream_mode=["values", "updates"]
    ):
        if mode == "values":
            before = chunk
            continue
        for node, update in chunk.items():
            for channel, value in (update or {}).items():
                if isinstance(value, Overwrite):
                    continue
                if channel in REDUCED_FIELDS:
                    assert value, f"{node} added nothing to {channel}"
                elif node != "execute" and channel in before:
                    assert before[channel] != value, f"{node} rewrote {channel} unchanged"
    assert app.get_state(cfg("lean")).values["answer"]
