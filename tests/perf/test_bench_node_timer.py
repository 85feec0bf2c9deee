"""The overhead benchmark's split: time inside node tasks, each task counted once."""

from __future__ import annotations

import time
from typing import TypedDict

from langchain_core.runnables import RunnableLambda
from langgraph.graph import END, START, StateGraph

from bench.scenarios import NodeTaskTimer


class _S(TypedDict):
    n: int


def _sleepy(seconds: float) -> RunnableLambda[int, int]:
    def nap(x: int) -> int:
        time.sleep(seconds)
        return x

    return RunnableLambda(nap)


def test_node_tasks_are_summed_once_with_their_nested_runs() -> None:
    inner = _sleepy(0.03)  # a traced run inside the node: its time is the node's, not added

    def a(state: _S) -> _S:
        return {"n": inner.invoke(state["n"]) + 1}

    def b(state: _S) -> _S:
        time.sleep(0.02)
        return {"n": state["n"] + 1}

    g: StateGraph[_S, None, _S, _S] = StateGraph(_S)
    g.add_node("a", a)
    g.add_node("b", b)
    g.add_edge(START, "a")
    g.add_edge("a", "b")
    g.add_edge("b", END)
    timer = NodeTaskTimer()
    t0 = time.perf_counter()
    assert g.compile().invoke({"n": 0}, {"callbacks": [timer]}) == {"n": 2}
    total = time.perf_counter() - t0
    assert 0.05 <= timer.task_s < total  # both nodes' sleeps; the nested run not twice
    assert timer.started == {}  # every task that started ended
