"""Collections stay apart: a run on a named collection searches that collection only.

Issue 39, items 1 and 2: the broadening replan searched "the collections not yet searched"
(the bundled sample answered a question asked of ``mine`` at SILENT), and an "edit → new
question" reply at a pause planned in the default collection. A collection named for a run
(or a thread) is kept by every plan, replan and resume of that thread.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from grace.context import GraceContext
from grace.library import Library
from grace.schemas import ExecutionPlan
from grace.services import build_services
from grace.settings import GraceSettings
from graph.app import GraceApp

SAMPLE_ONLY = "When did the horse tram line open in Lumen Bay?"
"""Answered by the bundled sample (collection ``grace``), by nothing in ``mine``."""
MINE_ANSWERS = "What is the soup of the day at the cafe?"


@pytest.fixture(scope="module")
def two_collections(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """Offline services: the sample in ``grace`` and a one-file collection ``mine``."""
    data = tmp_path_factory.mktemp("apart-data")
    folder = tmp_path_factory.mktemp("apart-mine")
    (folder / "menu.md").write_text(
        "# Cafe menu\n\nThe soup of the day at the cafe is tomato soup with basil.\n\n"
        "The cafe opens at nine in the morning and closes at five.\n",
        encoding="utf-8",
    )
    settings = GraceSettings(data_dir=data, provider="offline")
    services = build_services(settings)
    Library(services.store, settings).ingest([folder], "mine")
    assert sorted(services.store.list_collections()) == ["grace", "mine"]
    yield services
    services.close()


def _searched(plan: ExecutionPlan) -> set[str | None]:
    return {s.collection for s in plan.steps if s.action == "rag_search"}


def _state(app: GraceApp, thread: str) -> Any:
    return app.graph.get_state({"configurable": {"thread_id": thread}}).values


def test_a_named_collection_answers_only_from_itself(two_collections: Any) -> None:
    with GraceApp.open(services=two_collections) as app:
        outcome = app.ask(SAMPLE_ONLY, thread_id="iso-1", context=GraceContext(collection="mine"))
        state = _state(app, "iso-1")
    cited = {s["source"] for s in outcome.sources}
    assert "lumen-bay-tramways.md" not in cited
    assert outcome.level != "silent"  # nothing in `mine` answers it
    replans = state["replans"]
    assert replans, "the low score broadens the search first"
    assert _searched(state["plan"]) == {"mine"}
    sources = [s for r in state["results"].values() for s in r.sources]
    assert sources and all(s.source == "menu.md" for s in sources)
    assert any("'mine'" in r.reason for r in replans if r.trigger == "low_confidence")


def test_no_collection_named_lets_the_planner_choose(two_collections: Any) -> None:
    with GraceApp.open(services=two_collections) as app:
        outcome = app.ask(SAMPLE_ONLY, thread_id="iso-2")
    assert "lumen-bay-tramways.md" in {s["source"] for s in outcome.sources}


def test_an_edit_at_a_pause_keeps_the_thread_collection(two_collections: Any) -> None:
    with GraceApp.open(services=two_collections) as app:
        first = app.ask(
            "Who painted the ceiling of the harbour chapel?",
            thread_id="iso-3",
            context=GraceContext(collection="mine"),
        )
        assert first.status == "interrupted" and first.interrupt is not None
        pending = first.interrupt["action_requests"][0]["name"]
        edit = {
            "decisions": [
                {
                    "type": "edit",
                    "edited_action": {"name": pending, "args": {"query": SAMPLE_ONLY}},
                }
            ]
        }
        outcome = app.resume("iso-3", edit)  # a resume names no collection: the thread's
        state = _state(app, "iso-3")
    assert any(r.trigger == "human_edit" for r in state["replans"])
    assert _searched(state["plan"]) == {"mine"}
    assert "lumen-bay-tramways.md" not in {s["source"] for s in outcome.sources}
    assert state["collection"] == "mine"


def test_a_new_turn_on_the_thread_keeps_its_collection(two_collections: Any) -> None:
    with GraceApp.open(services=two_collections) as app:
        app.ask(MINE_ANSWERS, thread_id="iso-4", context=GraceContext(collection="mine"))
        app.ask(SAMPLE_ONLY, thread_id="iso-4")
        state = _state(app, "iso-4")
    assert _searched(state["plan"]) == {"mine"}


def test_a_planner_step_naming_another_collection_is_pinned(two_collections: Any) -> None:
    from grace.providers.base import PlanOutcome, PlanRequest
    from grace.schemas import PlanStep
    from nodes.common import resolve_plan

    request = PlanRequest(
        query=SAMPLE_ONLY, collections=["mine"], default_collection="mine", scope="mine"
    )
    proposed = ExecutionPlan(
        original_query=SAMPLE_ONLY,
        steps=[
            PlanStep(step_id="s1", action="rag_search", query="tram", collection="grace"),
            PlanStep(step_id="s2", action="rag_search", query="tram"),
            PlanStep(step_id="s3", action="reasoning", query=SAMPLE_ONLY, depends_on=["s1", "s2"]),
        ],
    )
    plan = resolve_plan(two_collections, request, PlanOutcome(plan=proposed))
    assert _searched(plan) == {"mine"}


def test_sources_name_their_collection(two_collections: Any) -> None:
    with GraceApp.open(services=two_collections) as app:
        outcome = app.ask(MINE_ANSWERS, thread_id="iso-5", context=GraceContext(collection="mine"))
    assert outcome.sources and {s["collection"] for s in outcome.sources} == {"mine"}
