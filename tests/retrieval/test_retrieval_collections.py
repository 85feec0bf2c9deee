"""The planner sees the store's collections; an unknown collection is repaired, never created."""

from __future__ import annotations

from pathlib import Path

import pytest

from grace.planning.validation import validate_plan
from grace.providers.base import PlanRequest
from grace.providers.offline.planner import RuleBasedPlanner, choose_collection
from grace.retrieval import CorpusStore, UnknownCollectionError, ingest_paths
from grace.schemas import ExecutionPlan, PlanStep

ACTIONS = ("rag_search", "reasoning", "ask_user")


@pytest.fixture
def two_collections(store: CorpusStore, corpus_dir: Path) -> CorpusStore:
    ingest_paths(store, [corpus_dir / "steam-engine.md"], collection="engines")
    ingest_paths(store, [corpus_dir / "warsaw.md"], collection="cities")
    return store


def test_planner_sees_collection_list_and_picks_one(two_collections: CorpusStore) -> None:
    store = two_collections
    collections = store.list_collections()
    assert collections == ["cities", "engines"]
    request = PlanRequest(
        query="In the cities collection: what is the tallest building in Warsaw?",
        collections=collections,
        default_collection="engines",
    )
    plan = RuleBasedPlanner().plan(request).plan
    assert plan is not None
    searches = [s for s in plan.steps if s.action == "rag_search"]
    assert searches and all(s.collection == "cities" for s in searches)
    result = store.search(searches[0].query, collection=searches[0].collection, k=1)
    assert result.hits[0].source == "warsaw.md"
    assert choose_collection("how does a steam engine work?", collections, "engines") == "engines"


def test_unknown_collection_from_plan_repaired_to_default_never_created(
    two_collections: CorpusStore,
) -> None:
    store = two_collections
    plan = ExecutionPlan(
        original_query="What records the pressure in the cylinder?",
        steps=[
            PlanStep(
                step_id="s1",
                action="rag_search",
                query="What records the pressure in the cylinder?",
                collection="made_up_collection",
            ),
            PlanStep(step_id="s2", action="reasoning", depends_on=["s1"]),
        ],
    )
    fixed = validate_plan(
        plan,
        actions=ACTIONS,
        collections=store.list_collections(),
        default_collection="engines",
        max_steps=8,
    )
    assert fixed.steps[0].collection == "engines"
    assert any("made_up_collection" in r for r in fixed.repairs)
    result = store.search(fixed.steps[0].query, collection=fixed.steps[0].collection, k=1)
    assert "indicator" in result.hits[0].text
    # The store itself refuses the unknown name and does not create it.
    with pytest.raises(UnknownCollectionError):
        store.search("anything", collection="made_up_collection")
    assert not store.has_collection("made_up_collection")
    assert store.list_collections() == ["cities", "engines"]
