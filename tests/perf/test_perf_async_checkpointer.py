"""``ainvoke`` / ``astream`` with the async SQLite checkpointer, many threads at once."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from bench.models import bench_model
from checkpoints import open_async_checkpointer
from grace.services import build_services
from grace.storage.serde import use_grace_serializer
from graph.builder import make_graph

QUESTION = "When did the horse tram line open in Lumen Bay?"
THREADS = 10


async def test_concurrent_ainvoke_with_async_sqlite(offline_services: Any, tmp_path: Path) -> None:
    model = bench_model(latency=0.01)
    services = build_services(
        offline_services.settings, chat_model=model, store=offline_services.store
    )
    async with open_async_checkpointer("sqlite", sqlite_path=tmp_path / "cp.sqlite") as saver:
        app = make_graph(services=services, checkpointer=use_grace_serializer(saver))
        outs = await asyncio.gather(
            *(
                app.ainvoke({"query": QUESTION}, {"configurable": {"thread_id": f"t{i}"}})
                for i in range(THREADS)
            ),
            return_exceptions=True,
        )
        errors = [o for o in outs if isinstance(o, BaseException)]
        assert errors == []
        assert all(o["answer"] and "__interrupt__" not in o for o in outs)
        for i in range(THREADS):
            values = (await app.aget_state({"configurable": {"thread_id": f"t{i}"}})).values
            assert values["query"] == QUESTION
            assert values["usage"].model_calls == 2  # usage is per thread, not mixed
        assert model.count() == 2 * THREADS


async def test_astream_with_async_sqlite(offline_services: Any, tmp_path: Path) -> None:
    async with open_async_checkpointer("sqlite", sqlite_path=tmp_path / "cp.sqlite") as saver:
        app = make_graph(services=offline_services, checkpointer=use_grace_serializer(saver))
        cfg = {"configurable": {"thread_id": "stream"}}
        nodes: list[str] = []
        events: list[str] = []
        async for mode, chunk in app.astream(
            {"query": QUESTION}, cfg, stream_mode=["updates", "custom"]
        ):
            if mode == "updates":
                nodes.extend(chunk)
            elif isinstance(chunk, dict):
                events.append(str(chunk.get("event", chunk.get("type", ""))))
        assert nodes[0] == "plan" and "execute" in nodes and "confidence" in nodes
        snapshot = await app.aget_state(cfg)
        if snapshot.interrupts:
            assert nodes[-1] in {"__interrupt__", "confidence"}
        else:
            assert nodes[-1] == "finalize"
        assert events, "custom events are streamed"
