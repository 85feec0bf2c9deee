"""Each state channel is written only by the nodes ``docs/architecture.md`` names (issue 27.4).

The runs below take every route of the graph offline: a silent answer, an automatic replan
on low confidence, and a pause answered with each kind of reply (approve, an edited answer,
an edited question, a response, a rejection). Every node's update is read from the
``updates`` stream; a write by a node the table does not name fails, and so does a table
that names a writer of the routing channels (``decision``, ``replan_request``,
``last_batch``) no run shows.
"""

from __future__ import annotations

import re
from collections import defaultdict
from pathlib import Path
from typing import Any

from langgraph.types import Command

from grace.state import State
from graph.builder import make_graph
from tests.graph.conftest import cfg, services_with_thresholds

ROOT = Path(__file__).resolve().parents[2]
NODES = {"plan", "execute", "confidence", "pause", "intervene", "replan", "finalize"}
ROUTING = ("decision", "replan_request", "last_batch")

UNANSWERABLE = "Who won the 2018 FIFA World Cup?"
ANSWERABLE = "When did the horse tram line open in Lumen Bay?"
APPROVE = {"decisions": [{"type": "approve"}]}
REJECT = {"decisions": [{"type": "reject"}]}
RESPOND = {"decisions": [{"type": "reject", "message": "It opened on 2 August 1874."}]}


def _edit(**args: str) -> dict[str, Any]:
    edited = {"name": "review_answer", "args": args}
    return {"decisions": [{"type": "edit", "edited_action": edited}]}


def documented_writers() -> dict[str, set[str]]:
    """The channel → writers table of docs/architecture.md (rows naming no node: skipped)."""
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    table: dict[str, set[str]] = {}
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 2 or not cells[0].startswith("`"):
            continue
        writers = {n for n in re.findall(r"`(\w+)`", cells[1]) if n in NODES}
        for channel in re.findall(r"`(\w+)`", cells[0]):
            if writers:
                table[channel] = writers
    return table


def _record(app: Any, thread: str, payload: Any, seen: dict[str, set[str]]) -> bool:
    """Run ``payload`` on ``thread``, noting who wrote what; True when it paused."""
    paused = False
    for chunk in app.stream(payload, cfg(thread), stream_mode="updates"):
        for node, update in chunk.items():
            if node == "__interrupt__":
                paused = True
                continue
            for channel in update or {}:
                seen[channel].add(node)
    return paused


def _observed(offline_services: Any, checkpointer: Any) -> dict[str, set[str]]:
    seen: dict[str, set[str]] = defaultdict(set)
    app = make_graph(services=offline_services, checkpointer=checkpointer)
    assert not _record(app, "silent", {"query": ANSWERABLE}, seen)
    replies = {
        "edit-answer": _edit(query=UNANSWERABLE, answer="France, beating Croatia 4-2."),
        "edit-query": _edit(query=ANSWERABLE),
        "respond": RESPOND,
        "reject": REJECT,
    }
    for thread, reply in replies.items():  # ESCALATE after its automatic replan
        assert _record(app, thread, {"query": UNANSWERABLE}, seen)
        payload: Any = Command(resume=reply)
        while _record(app, thread, payload, seen):
            payload = Command(resume=REJECT)
    confirm = services_with_thresholds(offline_services, 1.0, 1.0, 0.0)  # always CONFIRM
    app = make_graph(services=confirm, checkpointer=checkpointer)
    assert _record(app, "approve", {"query": ANSWERABLE}, seen)
    assert not _record(app, "approve", Command(resume=APPROVE), seen)
    return seen


def test_every_write_is_by_a_documented_writer(offline_services: Any, checkpointer: Any) -> None:
    seen = _observed(offline_services, checkpointer)
    table = documented_writers()
    assert set(table) <= set(State.__dataclass_fields__), "the table names no such channel"
    assert {"replan", "intervene", "pause", "finalize"} <= set().union(*seen.values())
    for channel, writers in seen.items():
        assert channel in State.__dataclass_fields__
        if channel in table:
            assert writers <= table[channel], f"{channel}: written by {writers - table[channel]}"
    for channel in ROUTING:  # as few writers as possible, and the table is exact for them
        assert seen[channel] == table[channel], channel


def test_the_table_parses() -> None:
    table = documented_writers()
    assert table["decision"] == {"confidence", "finalize"}
    assert table["replan_request"] == {"confidence", "intervene"}
    assert table["last_batch"] == {"confidence"}
