"""One path per question (issue 27.5): the outcome comes from the run's own stream.

``GraceApp.ask`` reads the thread's state once, before the run (is it paused?), and builds
its outcome from the stream it already consumed — the last ``values`` and any interrupt —
never reading the checkpoint again afterwards. The outcome is the one the checkpoint holds.
"""

from __future__ import annotations

from typing import Any

import pytest
from langgraph.checkpoint.memory import InMemorySaver

from grace.storage.serde import use_grace_serializer
from graph.app import GraceApp
from tests.reliability.conftest import SIMPLE, UNANSWERABLE


@pytest.fixture
def counted(offline: Any, monkeypatch: pytest.MonkeyPatch) -> tuple[GraceApp, list[str]]:
    app = GraceApp(offline.settings, use_grace_serializer(InMemorySaver()), services=offline)
    reads: list[str] = []
    real = app.graph.get_state

    def get_state(config: Any, **kwargs: Any) -> Any:
        reads.append(config["configurable"]["thread_id"])
        return real(config, **kwargs)

    monkeypatch.setattr(app.graph, "get_state", get_state)
    return app, reads


@pytest.mark.parametrize(
    ("question", "status"), [(SIMPLE, "completed"), (UNANSWERABLE, "interrupted")]
)
def test_ask_reads_the_thread_once_and_its_outcome_is_the_checkpoints(
    counted: tuple[GraceApp, list[str]], question: str, status: str
) -> None:
    app, reads = counted
    outcome = app.ask(question, thread_id=status)
    assert outcome.status == status
    assert reads == [status]  # the paused check before the run, nothing after it
    again = app.outcome(status)  # read back from the checkpoint
    assert outcome.model_dump() == again.model_dump()
