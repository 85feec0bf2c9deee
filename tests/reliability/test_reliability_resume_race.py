"""Two resumes of one paused thread at once: exactly one continues it, the other is refused
(busy, or not paused any more) and changes nothing — no fork, no silently lost reply."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest
from langgraph.checkpoint.memory import InMemorySaver

from grace.errors import ThreadBusyError
from grace.storage.serde import use_grace_serializer
from grace.storage.thread_lock import thread_lock
from graph.app import GraceApp
from tests.reliability.conftest import UNANSWERABLE, cli_env

ROOT = Path(__file__).resolve().parents[2]
TRIALS = 8
REPLIES = ["France won it.", "Germany won it."]


def _cli(data: Path, *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "graph.cli.main", *args],
        env=cli_env(data),
        cwd=ROOT,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _reject(message: str) -> str:
    return json.dumps({"decisions": [{"type": "reject", "message": message}]})


@pytest.mark.slow
def test_two_processes_resuming_one_thread_never_both_continue_it(tmp_path: Path) -> None:
    data = tmp_path / "data"
    outcomes: list[tuple[int, int]] = []
    for trial in range(TRIALS):
        thread = f"race-{trial}"
        asked = _cli(data, "ask", UNANSWERABLE, "--thread-id", thread, "--json")
        assert json.loads(asked.communicate(timeout=120)[0])["status"] == "interrupted"
        racers = [_cli(data, "resume", thread, "--response", _reject(r), "--json") for r in REPLIES]
        results = [(p, *p.communicate(timeout=120)) for p in racers]
        codes = sorted(p.returncode for p, _, _ in results)
        outcomes.append((codes[0], codes[1]))
        winners = [json.loads(out) for p, out, _ in results if p.returncode == 0]
        assert len(winners) == 1, results  # the defect: both exited 0, one branch orphaned
        losers = [err for p, _, err in results if p.returncode != 0]
        assert any(text in losers[0] for text in ("is being run by", "is not paused")), losers[0]
        final = _cli(data, "show", thread, "--json")
        history = json.loads(final.communicate(timeout=120)[0])
        assert history["summary"]["status"] == winners[0]["status"] == "completed"
        assert history["answer"] == winners[0]["answer"]  # the thread ends where the winner did
    assert all(first == 0 for first, _ in outcomes)


def test_a_second_run_on_a_busy_thread_is_refused_at_once(offline: Any) -> None:
    app = GraceApp(offline.settings, use_grace_serializer(InMemorySaver()), services=offline)
    paused = app.ask(UNANSWERABLE, thread_id="held")
    holding, release = threading.Event(), threading.Event()

    def other_run() -> None:  # another writer holds the thread's lock
        with thread_lock(app.locks_dir, "held"):
            holding.set()
            release.wait(10)

    worker = threading.Thread(target=other_run)
    worker.start()
    assert holding.wait(10)
    try:
        with pytest.raises(ThreadBusyError, match="'held' is being run by process"):
            app.resume("held", {"decisions": [{"type": "reject"}]})
        with pytest.raises(ThreadBusyError):
            app.ask("A new question", thread_id="held")
    finally:
        release.set()
        worker.join()
    assert app.outcome("held").status == paused.status == "interrupted"  # nothing changed
    assert app.resume("held", {"decisions": [{"type": "reject"}]}).status == "completed"
