"""The overhead benchmark's orchestration figure: node bodies replay one recorded run."""

from __future__ import annotations

import uuid
from typing import Any

from langgraph.checkpoint.memory import InMemorySaver

from bench.models import bench_model
from bench.scenarios import SIMPLE, NodeReplay
from grace.services import build_services
from grace.storage.serde import use_grace_serializer
from graph.builder import make_builder


def _cfg() -> Any:
    return {"configurable": {"thread_id": uuid.uuid4().hex}}


def test_replayed_runs_end_as_the_recorded_run_without_running_a_node_body(
    offline_services: Any,
) -> None:
    model = bench_model()
    services = build_services(
        offline_services.settings, chat_model=model, store=offline_services.store
    )
    replay = NodeReplay()
    builder = make_builder(services=services)
    replay.install(builder)
    app = builder.compile(checkpointer=use_grace_serializer(InMemorySaver()))
    recorded = app.invoke({"query": SIMPLE}, _cfg())
    calls = model.count()
    assert calls >= 2  # the recorded run called the model (answer, judge)
    assert set(replay.updates) == {"plan", "execute", "confidence", "finalize"}

    replay.recording = False
    for _ in range(2):
        replay.rewind()
        replayed = app.invoke({"query": SIMPLE}, _cfg())
        for key in ("answer", "confidence", "level", "sources"):
            assert replayed[key] == recorded[key]
        # each node replayed as often as it ran when recorded, and no body ran
        assert replay.calls == {name: len(u) for name, u in replay.updates.items()}
        assert model.count() == calls
