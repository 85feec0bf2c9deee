"""Each durability mode (``checkpoint.durability``): a pause, a resume, an unreachable model
and a crash behave as docs/python.md says.

LangGraph 1.2's loop (``pregel/_loop.py``): under ``exit`` no checkpoint and no task write is
saved while the run works; when the run leaves — finished, paused by ``interrupt()`` or
failed — ``_suppress_interrupt`` saves the last checkpoint and the writes of the tasks that
finished. So a pause and a model error are saved in every mode; only a killed process
differs: ``sync`` resumes after the last step, ``exit`` loses the run in flight (the thread
keeps its previous turn, the question is asked again).
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
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bench.unreachable import accepts_once
from checkpoints import open_checkpointer
from grace.services import build_services
from grace.settings import CheckpointSettings, GraceSettings
from grace.storage.serde import use_grace_serializer
from graph.app import GraceApp, UnknownThreadError
from graph.cli.main import MODEL_UNREACHABLE_EXIT
from tests.cli_runner import run_cli_process
from tests.fakes import ScriptedChatModel
from tests.providers.openai_server import fake_openai
from tests.reliability.test_reliability_durability import CHILD, ROOT, child_env, run_child

MODES = ("sync", "async", "exit")
QUESTION = "When did the horse tram line open in Lumen Bay?"
PAUSE_ALL = {"thresholds": {"silent": 1.0, "notify": 1.0, "confirm": 0.0}}


def test_auto_gives_exit_offline_and_to_batches_and_sync_to_model_runs(offline: Any) -> None:
    auto = CheckpointSettings()
    assert auto.durability == "auto"
    assert [auto.durability_for(k) for k in ("offline", "batch", "model")] == [
        "exit",
        "exit",
        "sync",
    ]
    assert CheckpointSettings(durability="async").durability_for("offline") == "async"
    offline_app = GraceApp(offline.settings, _memory(), services=offline)
    assert offline_app.durability() == "exit"
    model = build_services(offline.settings, chat_model=ScriptedChatModel.of(), store=offline.store)
    assert GraceApp(offline.settings, _memory(), services=model).durability() == "sync"


def test_the_setting_reaches_every_run(
    offline: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[Any] = []
    for mode in MODES:
        settings = offline.settings.model_copy(
            update={"checkpoint": CheckpointSettings(durability=mode)}
        )
        app = GraceApp(settings, _memory(), services=offline)
        original = app.graph.stream

        def spy(*args: Any, original: Any = original, **kwargs: Any) -> Any:
            seen.append(kwargs.get("durability"))
            return original(*args, **kwargs)

        monkeypatch.setattr(app.graph, "stream", spy)
        app.ask(QUESTION, thread_id=f"d-{mode}")
    assert seen == list(MODES)


def _memory() -> Any:
    """An in-memory saver with GRACE's serializer."""
    from langgraph.checkpoint.memory import InMemorySaver

    return use_grace_serializer(InMemorySaver())


@pytest.fixture
def pausing(offline: Any, tmp_path: Path) -> Iterator[Any]:
    """Offline services over the session's store whose thresholds pause every run."""
    settings = GraceSettings(data_dir=tmp_path / "d", provider="offline", confidence=PAUSE_ALL)
    yield build_services(settings, store=offline.store)


@pytest.mark.parametrize("mode", MODES)
def test_a_pause_is_saved_and_resumed_from_a_new_connection(
    mode: str, pausing: Any, tmp_path: Path
) -> None:
    settings = pausing.settings.model_copy(
        update={"checkpoint": CheckpointSettings(durability=mode)}
    )
    db = tmp_path / "cp.sqlite"
    with open_checkpointer("sqlite", sqlite_path=db) as saver:
        first = GraceApp(settings, use_grace_serializer(saver), services=pausing)
        paused = first.ask(QUESTION, thread_id="p")
    assert paused.status == "interrupted"
    with open_checkpointer("sqlite", sqlite_path=db) as saver:  # another process, in effect
        app = GraceApp(settings, use_grace_serializer(saver), services=pausing)
        assert app.pending_request("p")["confidence"] == paused.confidence
        outcome = paused
        while outcome.status == "interrupted":
            outcome = app.resume("p", {"type": "accept"})
    assert outcome.status == "completed" and "1874" in (outcome.answer or "")
    with open_checkpointer("sqlite", sqlite_path=db) as saver:
        assert GraceApp(settings, saver, services=pausing).summary("p").status == "completed"


QUESTION_FERRY = "How many passengers can the MV Sound Spirit carry?"
VERDICT = {"self_evaluation": 0.9, "query_coverage": 0.9, "rationale": "supported by S1"}


def _status(tmp_path: Path, thread: str, **env: str) -> str:
    rows = json.loads(run_cli_process(tmp_path, "threads", "--json", **env).stdout)
    return next(str(r["status"]) for r in rows if r["thread_id"] == thread)


@pytest.mark.slow
@pytest.mark.parametrize("mode", MODES)
def test_an_unreachable_model_leaves_the_thread_resumable(mode: str, tmp_path: Path) -> None:
    with accepts_once() as port:
        env = {
            "GRACE_MODELS__CHAT": "openai:local",
            "GRACE_MODELS__BASE_URL": f"http://127.0.0.1:{port}/v1",
            "GRACE_CHECKPOINT__DURABILITY": mode,
        }
        ran = run_cli_process(tmp_path, "ask", QUESTION_FERRY, "--thread-id", "t1", **env)
    assert ran.returncode == MODEL_UNREACHABLE_EXIT, ran.stderr
    assert _status(tmp_path, "t1", **env) == "incomplete"  # saved at the error, every mode
    answer = "The MV Sound Spirit can carry 600 passengers [S1]."
    replies = {"text": answer, "AnswerVerdict": VERDICT, "PlanDraft": {"steps": []}}
    with fake_openai(replies, port=port):
        resumed = run_cli_process(tmp_path, "resume", "t1", "--json", **env)
    assert resumed.returncode == 0, resumed.stderr
    outcome = json.loads(resumed.stdout)
    assert "600 passengers" in (outcome["answer"] or (outcome["draft"] or {}).get("answer", ""))


def _kill_after_first_step(args: list[str], env: dict[str, str], counter: Path) -> None:
    proc = subprocess.Popen(
        [sys.executable, str(CHILD), "run", *args], env=env, cwd=ROOT, stderr=subprocess.PIPE
    )
    deadline = time.monotonic() + 60
    try:
        while "end s1" not in (counter.read_text() if counter.exists() else ""):
            assert proc.poll() is None, proc.stderr.read().decode() if proc.stderr else ""
            assert time.monotonic() < deadline, "first step never finished"
            time.sleep(0.02)
        time.sleep(0.3)  # under sync/async, the step's checkpoint is written meanwhile
    finally:
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
    assert "end s2" not in counter.read_text()  # killed mid-run: the answer step is slow


@pytest.mark.slow
@pytest.mark.parametrize("mode", MODES)
def test_a_crash_mid_run_then_a_new_process(mode: str, tmp_path: Path) -> None:
    """sync: resumed after the last step; async: resumed, a step may run twice; exit: the run
    in flight is lost (the thread has no checkpoint of it) and the question is asked again."""
    db, counter = tmp_path / "cp.sqlite", tmp_path / "count"
    args = [str(db), str(tmp_path / "data"), str(counter), "k"]
    env = child_env(tmp_path, GRACE_CHECKPOINT__DURABILITY=mode)
    _kill_after_first_step(args, env, counter)
    conn = sqlite3.connect(db)
    try:
        rows = conn.execute("SELECT count(*) FROM checkpoints WHERE thread_id = 'k'").fetchone()
    except sqlite3.OperationalError:  # no table: nothing was ever written
        rows = (0,)
    finally:
        conn.close()
    if mode == "exit":
        assert rows == (0,)
        settings = GraceSettings(data_dir=tmp_path / "data", provider="offline")
        with open_checkpointer("sqlite", sqlite_path=db) as saver:
            with pytest.raises(UnknownThreadError):
                GraceApp(settings, saver).continue_run("k")
        answer = run_child("again", args, env)["answer"]
    else:
        assert rows[0] > 0
        answer = run_child("resume", args, env)["answer"]
    assert "1874" in answer
    runs = Counter(line for line in counter.read_text().splitlines() if line)
    assert runs["end s2"] == 1
    assert runs["end s1"] in {"sync": {1}, "async": {1, 2}, "exit": {2}}[mode]
