"""A graph served by ``langgraph dev`` (or invoked by you) gets the run's model time from the
settings, one budget per run (issue 29): its context carries none, so the nodes start one
for the run's id (``config["run_id"]``, which LangGraph's server sets for every run)."""

from __future__ import annotations

import time
import uuid
from typing import Any

import pytest
from langgraph.checkpoint.memory import InMemorySaver

from tests.providers.openai_server import fake_openai
from tests.providers.test_bounded_generation import PLAN, QUESTION, VERDICT, slow_services

ANSWER = "The horse tram line opened on 2 August 1874 [S1]."


@pytest.fixture(autouse=True)
def _local_key(monkeypatch: pytest.MonkeyPatch) -> None:
    # Each test's services learn the server's formats afresh (no process-wide memory).
    monkeypatch.setenv("OPENAI_API_KEY", "sk-local")


def _graph(offline_services: Any, base_url: str) -> Any:
    from graph.builder import make_graph

    services = slow_services(offline_services, base_url)
    return make_graph(services=services, checkpointer=InMemorySaver())


def _run(graph: Any, thread: str, run_id: uuid.UUID | None) -> dict[str, Any]:
    config: dict[str, Any] = {"configurable": {"thread_id": thread}}
    if run_id is not None:
        config["run_id"] = run_id
    out: dict[str, Any] = graph.invoke({"query": QUESTION}, config)  # no context: as served
    return out


def _closed(server: Any, streams: int) -> None:
    """Wait for the server's handler threads to see the closed streams (their next write)."""
    for _ in range(100):
        if len(server.streams_closed) >= streams:
            return
        time.sleep(0.02)


def test_a_run_without_a_budget_in_its_context_gets_one_per_run(offline_services: Any) -> None:
    """Two runs, each with its own id: each calls the slow server until its own 2 s are
    spent (the stream then running is closed); the judge is never asked, and the second
    run is not refused for the first one's spent time."""
    replies = {"PlanDraft": PLAN, "AnswerVerdict": VERDICT, "text": ANSWER}
    with fake_openai(replies, runaway=True, honour_max_tokens=False, token_delay=0.02) as server:
        graph = _graph(offline_services, server.base_url)
        first = _run(graph, "served-1", uuid.uuid4())
        second = _run(graph, "served-2", uuid.uuid4())
        _closed(server, 2)
    kinds = server.kinds()
    assert kinds[0] == "PlanDraft" and kinds.count("PlanDraft") == 2, kinds  # one per run
    assert "AnswerVerdict" not in kinds, kinds
    assert len(server.streams_closed) == 2  # each run's last call, closed at its budget
    for out in (first, second):
        judge = [n for n in out["notes"] if n.startswith("Model failure (judge)")]
        assert judge and "ModelBudgetSpent: no model call" in judge[0], out["notes"]


async def test_the_async_path_gets_one_too(offline_services: Any) -> None:
    replies = {"PlanDraft": PLAN, "AnswerVerdict": VERDICT, "text": ANSWER}
    with fake_openai(replies, runaway=True, honour_max_tokens=False, token_delay=0.02) as server:
        graph = _graph(offline_services, server.base_url)
        config = {"configurable": {"thread_id": "served-async"}, "run_id": uuid.uuid4()}
        out = await graph.ainvoke({"query": QUESTION}, config)
        _closed(server, 1)
    assert "AnswerVerdict" not in server.kinds() and len(server.streams_closed) == 1
    assert any(n.startswith("Model failure (judge)") for n in out["notes"])
