"""What GRACE's failure path relies on in LangGraph's node error handler (docs/decisions.md).

Small graphs of a ``Send`` fan-out, no GRACE code: if a LangGraph upgrade changes one of these,
the failure path of ``execute`` (``nodes.execute.step_failed``) has to change with it.
"""

from __future__ import annotations

import operator
from typing import Annotated, Any, TypedDict

import pytest
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.errors import GraphDrained, NodeError
from langgraph.graph import END, START, StateGraph
from langgraph.types import Command, RetryPolicy, Send


class _Down(RuntimeError):
    pass


class _State(TypedDict):
    steps: list[str]
    done: Annotated[list[str], operator.add]


def _graph(step: Any, handler: Any) -> Any:
    b = StateGraph(_State)
    b.add_node("start", lambda s: {})
    policy = RetryPolicy(max_attempts=2, initial_interval=0.01, retry_on=lambda e: False)
    b.add_node("step", step, retry_policy=policy, error_handler=handler)
    b.add_node("end", lambda s: {"done": ["END"]})
    b.add_edge(START, "start")
    b.add_conditional_edges(
        "start", lambda s: [Send("step", {"name": n}) for n in s["steps"]], ["step"]
    )
    b.add_edge("step", "end")
    b.add_edge("end", END)
    return b.compile(checkpointer=InMemorySaver())


def test_a_graph_bubble_up_skips_the_handler_and_its_step_runs_again_on_resume() -> None:
    down, calls, handled = {"b"}, [], []

    def step(task: dict[str, Any]) -> dict[str, Any]:
        calls.append(task["name"])
        if task["name"] in down:
            raise GraphDrained("model unreachable")
        return {"done": [task["name"]]}

    def handler(task: dict[str, Any], error: NodeError) -> dict[str, Any]:
        handled.append(task["name"])
        return {"done": [f"{task['name']}:FAILED"]}

    app = _graph(step, handler)
    cfg: Any = {"configurable": {"thread_id": "t"}}
    with pytest.raises(GraphDrained):
        app.invoke({"steps": ["a", "b"], "done": []}, cfg)
    assert app.get_state(cfg).next == ("step",) and handled == []
    down.clear()
    assert app.invoke(None, cfg)["done"] == ["a", "b", "END"]
    assert calls == ["a", "b", "b"] and handled == []


def test_a_handler_that_raises_the_handed_in_error_does_not_stop_the_run() -> None:
    def step(task: dict[str, Any]) -> dict[str, Any]:
        if task["name"] == "b":
            raise _Down("down")
        return {"done": [task["name"]]}

    def same(task: dict[str, Any], error: NodeError) -> dict[str, Any]:
        raise error.error

    def new(task: dict[str, Any], error: NodeError) -> dict[str, Any]:
        raise _Down(str(error.error))

    cfg: Any = {"configurable": {"thread_id": "t"}}
    app = _graph(step, same)
    with pytest.raises(_Down):
        app.invoke({"steps": ["a", "b"], "done": []}, cfg)
    assert app.get_state(cfg).values["done"] == ["a", "END"]  # went on without the step
    app = _graph(step, new)
    with pytest.raises(_Down):
        app.invoke({"steps": ["a", "b"], "done": []}, cfg)
    assert app.get_state(cfg).next == ("step",)  # stopped at the step


def test_a_resumed_handler_gets_the_errors_text_and_its_writes_skip_the_nodes_edge() -> None:
    seen: list[Any] = []

    def step(task: dict[str, Any]) -> dict[str, Any]:
        raise _Down("down")

    def handler(task: dict[str, Any], error: NodeError) -> Any:
        seen.append(error.error)
        if len(seen) == 1:
            raise _Down("stop")  # the run stops here; a resume runs the handler again
        return {"done": [f"{task['name']}:FAILED"]}

    app = _graph(step, handler)
    cfg: Any = {"configurable": {"thread_id": "t"}}
    with pytest.raises(_Down):
        app.invoke({"steps": ["b"], "done": []}, cfg)
    out = app.invoke(None, cfg)
    assert isinstance(seen[0], _Down) and seen[1] == "_Down('down')"
    assert out["done"] == ["b:FAILED"]  # "end" never ran: the handler's write took no edge

    def going_on(task: dict[str, Any], error: NodeError) -> Command[str]:
        return Command(update={"done": [f"{task['name']}:FAILED"]}, goto="end")

    app = _graph(step, going_on)
    out = app.invoke({"steps": ["b"], "done": []}, {"configurable": {"thread_id": "u"}})
    assert out["done"] == ["b:FAILED", "END"]
