"""The turn reset and the checkpoint allow-list are derived from the state schema (issue 27.4).

Adding a field to ``State`` needs no second edit: a new turn resets it and, when its type is
a project type, checkpoints may store it.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field, fields
from typing import Annotated, Any, get_type_hints

from langgraph.types import Overwrite

from grace.schemas import ExecutionPlan, PlanStep, ReplanRecord, ToolResult
from grace.state import (
    ABANDONED_TURN_NOTE,
    THREAD_FIELDS,
    InterveneInput,
    PauseInput,
    State,
    StepTask,
    new_turn,
)
from grace.storage.serde import STATE_TYPES, state_types


def _merge(left: list[str], right: list[str]) -> list[str]:
    return left + right


@dataclass(kw_only=True)
class _Extended(State):
    """A state with fields a later change might add."""

    draft_count: int = 0
    hints: Annotated[list[str], _merge] = field(default_factory=list)
    tool_outputs: list[ToolResult] = field(default_factory=list)


def _record() -> ReplanRecord:
    return ReplanRecord(trigger="step_failed", strategy="partial", reason="a step failed")


def _plan() -> ExecutionPlan:
    step = PlanStep(step_id="s1", action="rag_search", query="q")
    return ExecutionPlan(original_query="q", complexity=0.1, steps=[step])


def test_a_new_turn_resets_every_field_but_the_threads() -> None:
    state = State(plan=_plan(), answer="done", replans=[_record(), _record()], last_batch=["s1"])
    reset = new_turn(state)
    assert set(reset) == {f.name for f in fields(State)} - THREAD_FIELDS
    assert reset["answer"] == "" and reset["last_batch"] == []
    assert reset["replans"] == Overwrite([])  # so ``replan_count`` is 0 again
    assert isinstance(reset["results"], Overwrite) and reset["results"].value == {}
    assert reset["notes"].value == []  # the previous turn was answered


def test_a_new_turn_says_an_open_turn_was_set_aside() -> None:
    reset = new_turn(State(plan=_plan()))
    assert reset["notes"].value == [ABANDONED_TURN_NOTE]


def test_a_field_added_to_the_state_is_reset_without_a_second_list() -> None:
    state = _Extended(plan=_plan(), draft_count=3, hints=["a"], tool_outputs=[])
    reset = new_turn(state)
    assert reset["draft_count"] == 0
    assert isinstance(reset["hints"], Overwrite) and reset["hints"].value == []
    assert reset["tool_outputs"] == []


def test_the_allow_list_is_the_schemas_types() -> None:
    names = {t.__name__ for t in STATE_TYPES}
    # Nested types come with the types that hold them (ExecutionPlan -> PlanStep, …).
    assert {"ExecutionPlan", "PlanStep", "StepResult", "Source", "TokenUsage"} <= names
    assert {"StepStatus", "InterventionLevel", "ActionDecision", "ReplanRequest"} <= names
    assert StepTask in STATE_TYPES  # ``Send``'s payload is checkpointed too
    assert State not in STATE_TYPES


def test_a_type_added_to_the_state_is_allow_listed() -> None:
    assert ToolResult not in state_types(State)
    assert ToolResult in state_types(_Extended)


def _node_input(builder: Any, node: str, schema: Any, full: State) -> Any:
    """``full`` narrowed to ``node``'s input schema, after checking the node declares it and
    each of its fields is a ``State`` channel of the same type (LangGraph shares it)."""
    assert builder.nodes[node].input_schema is schema
    state_hints = get_type_hints(State, include_extras=True)
    input_hints = get_type_hints(schema, include_extras=True)
    assert all(state_hints[name] == hint for name, hint in input_hints.items())
    return schema(**{f.name: getattr(full, f.name) for f in fields(schema)})


def test_pause_reads_only_its_input_schema() -> None:
    """``pause`` is given only :class:`PauseInput`'s channels, and they are all it reads.

    Built from a paused run's full state, the narrow input gives the same chat message; a
    read of any other field would raise ``AttributeError`` here. Every field of the input
    schema is a ``State`` channel of the same type, so LangGraph shares the channel.
    """
    from graph.builder import builder
    from nodes.intervene import pause
    from tests.documents.test_documents_pause import _paused_state

    full = _paused_state()
    narrow = _node_input(builder, "pause", PauseInput, full)
    assert pause(narrow)["messages"][0].content == pause(full)["messages"][0].content


def test_intervene_reads_only_its_input_schema() -> None:
    """``intervene`` is given only :class:`InterveneInput`'s channels, and they are all it reads.

    The request it shows and its update for every kind of reply are the same from the narrow
    input as from the full state (a read of any other field raises ``AttributeError``). The
    graph tests run the node itself on this input (tests/graph/test_graph_hitl.py).
    """
    from grace.hitl.request import HumanResponse
    from graph.builder import builder
    from nodes.intervene import build_interrupt
    from tests.documents.test_documents_pause import _paused_state

    update_of = importlib.import_module("nodes.intervene")._update  # the node's update
    full = _paused_state()
    narrow = _node_input(builder, "intervene", InterveneInput, full)
    request = build_interrupt(narrow)
    assert request == build_interrupt(full)
    replies = [
        HumanResponse(type="accept"),
        HumanResponse(type="ignore"),
        HumanResponse(type="response", args="It is twelve euros."),
        HumanResponse(type="edit", args={"query": "What do members pay?", "answer": ""}),
        HumanResponse(type="edit", args={"query": full.query, "answer": "Twelve euros."}),
    ]
    for reply in replies:
        assert update_of(narrow, request, reply) == update_of(full, request, reply), reply.type
