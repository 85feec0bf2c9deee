"""Durability: a SIGKILLed run resumes on the same thread; completed steps never run again.

With ``checkpoint.durability: sync`` (the default of a run whose steps call a model) the
checkpoint of each super-step is on disk before the next one starts, so the newest checkpoint
always holds every completed step. The other modes: test_reliability_durability_modes.
"""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from langgraph.checkpoint.sqlite import SqliteSaver

from grace.storage.serde import use_grace_serializer
from graph.builder import make_graph

CHILD = Path(__file__).with_name("_child.py")
ROOT = Path(__file__).resolve().parents[2]


def child_env(tmp_path: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GRACE_")}
    env.pop("GOOGLE_API_KEY", None)
    env.update(GRACE_DATA_DIR=str(tmp_path / "data-env"), PYTHONPATH=str(ROOT), **extra)
    return env


def run_child(mode: str, args: list[str], env: dict[str, str]) -> dict[str, Any]:
    """``_child.py MODE ARGS`` to its end; the JSON line it printed last."""
    done = subprocess.run(
        [sys.executable, str(CHILD), mode, *args],
        env=env,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def _checkpointed_results(db: Path, thread: str) -> set[str]:
    if not db.exists():
        return set()
    conn = sqlite3.connect(db, check_same_thread=False)
    try:
        graph = make_graph(checkpointer=use_grace_serializer(SqliteSaver(conn)))  # reads only
        values = graph.get_state({"configurable": {"thread_id": thread}}).values
        return set(values.get("results", {}))
    except sqlite3.OperationalError:  # tables not created yet, or locked for a moment
        return set()
    finally:
        conn.close()


@pytest.mark.slow
def test_sigkill_mid_run_resumes_without_rerunning_completed_steps(tmp_path: Path) -> None:
    db, data, counter, thread = tmp_path / "cp.sqlite", tmp_path / "data", tmp_path / "count", "k1"
    args = [str(db), str(data), str(counter), thread]
    env = child_env(tmp_path, GRACE_CHECKPOINT__DURABILITY="sync")
    proc = subprocess.Popen(
        [sys.executable, str(CHILD), "run", *args],
        env=env,
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    deadline = time.monotonic() + 30
    try:
        while "s1" not in _checkpointed_results(db, thread):
            assert proc.poll() is None, proc.stderr.read().decode() if proc.stderr else ""
            assert time.monotonic() < deadline, "first step never checkpointed"
            time.sleep(0.05)
    finally:
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
    assert proc.returncode == -signal.SIGKILL
    before = counter.read_text().split("\n")
    assert "end s1" in before and "end s2" not in before  # killed mid-run, s2 unfinished
    assert "1874" in run_child("resume", args, env)["answer"]
    lines = Counter(line for line in counter.read_text().splitlines() if line)
    assert lines["start s1"] == 1 and lines["end s1"] == 1  # completed before the kill: once
    assert lines["end s2"] == 1  # completed once, after the resume
    assert _checkpointed_results(db, thread) == {"s1", "s2"}


def _sync(settings: Any) -> Any:
    from grace.settings import CheckpointSettings

    return settings.model_copy(update={"checkpoint": CheckpointSettings(durability="sync")})


def test_grace_app_runs_with_sync_durability(
    monkeypatch: pytest.MonkeyPatch, offline: Any, tmp_path: Path
) -> None:
    from langgraph.checkpoint.memory import InMemorySaver

    from graph.app import GraceApp

    saver = use_grace_serializer(InMemorySaver())
    app = GraceApp(_sync(offline.settings), saver, services=offline)
    seen: list[Any] = []
    original = app.graph.stream

    def spy(*args: Any, **kwargs: Any) -> Any:
        seen.append(kwargs.get("durability"))
        return original(*args, **kwargs)

    monkeypatch.setattr(app.graph, "stream", spy)
    app.ask("When did the horse tram line open in Lumen Bay?", thread_id="d1")
    assert seen == ["sync"]


class _DiesBeforeCheckpoint(Exception):
    """Stands in for SIGKILL landing between a task's saved writes and the next checkpoint."""


def test_run_killed_after_writes_but_before_checkpoint_is_incomplete(
    offline: Any, tmp_path: Path
) -> None:
    """The deterministic form of the kill window the SIGKILL test hits now and then.

    The last task of a super-step has saved its writes, the next checkpoint is not written:
    ``snapshot.next`` is empty there, yet the run has further to go.
    """
    from langgraph.checkpoint.memory import InMemorySaver

    from graph.app import GraceApp, thread_status

    saver = use_grace_serializer(InMemorySaver())
    original_put, puts = saver.put, []

    def put_then_die(*args: Any, **kwargs: Any) -> Any:
        puts.append(1)
        if len(puts) == 4:  # checkpoints: input, plan, execute, confidence ← dies here
            raise _DiesBeforeCheckpoint
        return original_put(*args, **kwargs)

    saver.put = put_then_die  # type: ignore[method-assign]
    app = GraceApp(_sync(offline.settings), saver, services=offline)
    with pytest.raises(_DiesBeforeCheckpoint):
        app.ask("When did the horse tram line open in Lumen Bay?", thread_id="w1")
    saver.put = original_put  # type: ignore[method-assign]
    snapshot = app.graph.get_state({"configurable": {"thread_id": "w1"}})
    assert snapshot.next == () and snapshot.tasks  # the window: writes saved, no checkpoint
    assert thread_status(snapshot) == "incomplete"
    assert app.summary("w1").status == "incomplete"
    continued = app.continue_run("w1")
    assert continued.status == "completed" and "1874" in (continued.answer or "")
    assert app.summary("w1").status == "completed"
