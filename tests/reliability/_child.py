"""Child process for the durability and strict-msgpack tests (not collected by pytest).

usage: python _child.py run|resume|again|strict DB DATA_DIR COUNTER THREAD

``again`` asks the question on the thread once more (after a kill under ``exit`` durability).
"""

from __future__ import annotations

import json
import sqlite3
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

from langgraph.checkpoint.sqlite import SqliteSaver

from grace.schemas import ToolResult
from grace.services import build_services
from grace.settings import GraceSettings
from grace.storage.serde import use_grace_serializer
from grace.tools import ToolCall, ToolEnv, ToolRegistry
from graph.app import GraceApp

QUESTION = "When did the horse tram line open in Lumen Bay?"


class Counting:
    """Appends ``start``/``end`` lines per step to a file; the answer step is slow."""

    def __init__(self, inner: Any, counter: Path) -> None:
        self.inner, self.counter = inner, counter
        self.name, self.description = inner.name, inner.description
        self.role, self.signals = inner.role, inner.signals

    def _log(self, what: str, call: ToolCall) -> None:
        with self.counter.open("a", encoding="utf-8") as f:
            f.write(f"{what} {call.step.step_id}\n")

    def runs_inline(self, env: ToolEnv) -> bool:
        return False

    def run(self, call: ToolCall, env: ToolEnv) -> ToolResult:
        self._log("start", call)
        if self.name == "reasoning":
            time.sleep(2.0)
        result: ToolResult = self.inner.run(call, env)
        self._log("end", call)
        return result

    async def arun(self, call: ToolCall, env: ToolEnv) -> ToolResult:
        return self.run(call, env)


def main() -> None:
    mode, db, data_dir, counter, thread = sys.argv[1:6]
    confidence = (
        {"thresholds": {"silent": 1.0, "notify": 1.0, "confirm": 0.0}}
        if mode == "strict"
        else {"thresholds": {"silent": 0.0, "notify": 0.0, "confirm": 0.0}}
    )
    settings = GraceSettings(data_dir=data_dir, provider="offline", confidence=confidence)
    services = build_services(settings)
    tools = [Counting(services.tools.get(n), Path(counter)) for n in services.tools.names()]
    services = replace(services, tools=ToolRegistry(tools))
    conn = sqlite3.connect(db, check_same_thread=False)
    if mode == "run":
        app = GraceApp(settings, use_grace_serializer(SqliteSaver(conn)), services=services)
        outcome = app.ask(QUESTION, thread_id=thread)
        print(json.dumps({"status": outcome.status}))
    elif mode == "resume":
        app = GraceApp(settings, use_grace_serializer(SqliteSaver(conn)), services=services)
        continued = app.continue_run(thread)  # what `grace resume THREAD` runs
        print(json.dumps({"answer": continued.answer or ""}))
    elif mode == "again":
        app = GraceApp(settings, use_grace_serializer(SqliteSaver(conn)), services=services)
        print(json.dumps({"answer": app.ask(QUESTION, thread_id=thread).answer or ""}))
    else:  # strict: pause, reload in a fresh saver, check types, resume, check again
        report: dict[str, Any] = {}
        for label, wrap in (("grace", use_grace_serializer), ("plain", lambda s: s)):
            t = f"{thread}-{label}"
            c: Any = {"configurable": {"thread_id": t}}
            app = GraceApp(settings, wrap(SqliteSaver(conn)), services=services)
            first = app.ask(QUESTION, thread_id=t)
            fresh = GraceApp(
                settings,
                wrap(SqliteSaver(sqlite3.connect(db, check_same_thread=False))),
                services=services,
            )
            paused = fresh.graph.get_state(c).values
            outcome = first
            while outcome.status == "interrupted":
                outcome = fresh.resume(t, {"type": "accept"})
            done = GraceApp(
                settings,
                wrap(SqliteSaver(sqlite3.connect(db, check_same_thread=False))),
                services=services,
            )
            final = done.graph.get_state(c).values
            report[label] = {
                "paused": first.status,
                "completed": outcome.status,
                "answer": outcome.answer,
                "types": {
                    "plan": type(paused["plan"]).__name__,
                    "result": type(next(iter(paused["results"].values()))).__name__,
                    "score": type(next(iter(paused["scores"].values()))).__name__,
                    "decision": type(paused["decision"]).__name__,
                    "step": type(paused["plan"].steps[0]).__name__,
                    "source": type(paused["results"]["s1"].sources[0]).__name__,
                    "level": type(final["level"]).__name__,
                    "interventions": sorted({type(i).__name__ for i in final["interventions"]}),
                    "usage": type(final["usage"]).__name__,
                },
            }
        print(json.dumps(report))


if __name__ == "__main__":
    main()
