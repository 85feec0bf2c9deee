"""Scale-out: pause a run on one GRACE instance and resume it on another through PostgreSQL.

The cluster is private (``tests/integration/_postgres.py``): a temp directory, loopback, a
free port. ``.ci/run`` installs Debian's postgresql and sets GRACE_TEST_REQUIRE_POSTGRES=1, so
in CI missing binaries fail these tests instead of skipping them.
"""

from __future__ import annotations

import uuid
from dataclasses import replace
from typing import Any

import psycopg
import pytest
from langgraph.types import Command

from checkpoints import open_async_checkpointer, open_async_store
from grace.settings import GraceSettings
from grace.storage.serde import use_grace_serializer
from graph.app import GraceApp
from graph.builder import make_builder, make_graph

pytestmark = pytest.mark.slow

UNANSWERABLE = "Who won the 2018 FIFA World Cup?"
ANSWERABLE = "When did the horse tram line open in Lumen Bay?"


def _settings(offline_services: Any, url: str) -> GraceSettings:
    return offline_services.settings.model_copy(
        update={
            "checkpoint": offline_services.settings.checkpoint.model_copy(
                update={"kind": "postgres", "postgres_url": url}
            )
        }
    )


def test_pause_on_one_instance_resume_on_another(offline_services: Any, postgres_url: str) -> None:
    settings = _settings(offline_services, postgres_url)
    thread = f"pg-{uuid.uuid4().hex[:8]}"
    with GraceApp.open(settings, services=offline_services) as first:
        paused = first.ask(UNANSWERABLE, thread_id=thread)
        assert paused.status == "interrupted"
        assert paused.interrupt is not None
        assert paused.level in {"confirm", "escalate"}
        assert "reject" in paused.interrupt["review_configs"][0]["allowed_decisions"]
    # A second instance: new connections, new compiled graph, same database.
    with GraceApp.open(settings, services=offline_services) as second:
        assert second is not first
        assert second.outcome(thread).status == "interrupted"
        done = second.resume(thread, {"type": "ignore"})
        assert done.status == "completed"
        assert done.answer
        completed = [t.thread_id for t in second.threads() if t.status == "completed"]
        assert thread in completed  # (the cluster is shared with other tests of the session)
        history = second.history(thread)
        assert [i["response_type"] for i in history["interventions"]] == ["ignore"]

    # The checkpoints really are in the server's tables.
    with psycopg.connect(postgres_url) as conn:
        row = conn.execute(
            "select count(*) from checkpoints where thread_id = %s", (thread,)
        ).fetchone()
        assert row is not None and row[0] > 0


def test_completed_run_is_visible_from_another_instance(
    offline_services: Any, postgres_url: str
) -> None:
    settings = _settings(offline_services, postgres_url)
    with GraceApp.open(settings, services=offline_services) as first:
        done = first.ask(ANSWERABLE)
    with GraceApp.open(settings, services=offline_services) as second:
        again = second.outcome(done.thread_id)
    assert done.status == again.status == "completed"
    assert again.answer == done.answer
    assert "1874" in (again.answer or "")


async def test_async_postgres_saver_round_trip(offline_services: Any, postgres_url: str) -> None:
    thread = f"pg-async-{uuid.uuid4().hex[:8]}"
    config: Any = {"configurable": {"thread_id": thread}}
    async with (
        open_async_checkpointer("postgres", postgres_url=postgres_url) as saver,
        open_async_store("postgres", postgres_url=postgres_url) as store,
    ):
        app = make_builder(services=offline_services).compile(
            checkpointer=use_grace_serializer(saver), store=store
        )
        out = await app.ainvoke({"query": UNANSWERABLE}, config)
        assert "__interrupt__" in out
    async with open_async_checkpointer("postgres", postgres_url=postgres_url) as saver2:
        other = make_graph(services=offline_services, checkpointer=use_grace_serializer(saver2))
        assert (await other.aget_state(config)).next == ("intervene",)
        final = await other.ainvoke(Command(resume={"type": "ignore"}), config)
    assert final["answer"]


def test_a_long_thread_moves_its_older_turns_to_the_postgres_store(
    offline_services: Any, postgres_url: str
) -> None:
    settings = _settings(offline_services, postgres_url)
    checkpoint = settings.checkpoint.model_copy(update={"turns_in_state": 1})
    settings = settings.model_copy(update={"checkpoint": checkpoint})
    services = replace(offline_services, settings=settings)
    thread = f"pg-long-{uuid.uuid4().hex[:8]}"
    asked = [ANSWERABLE, UNANSWERABLE, ANSWERABLE, UNANSWERABLE]
    with GraceApp.open(settings, services=services) as grace:
        for question in asked:
            outcome = grace.ask(question, thread_id=thread)
            if outcome.status == "interrupted":
                grace.resume(thread, {"type": "ignore"})
        in_state = grace.graph.get_state({"configurable": {"thread_id": thread}}).values
        assert [m.type for m in in_state["messages"]].count("human") == 2  # 1 kept + latest
    with GraceApp.open(settings, services=services) as other:  # read back on new connections
        shown = other.history(thread)["transcript"]
    assert [m["text"] for m in shown if m["role"] == "user"] == asked
