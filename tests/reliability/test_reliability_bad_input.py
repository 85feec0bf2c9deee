"""Bad input gets a clear error naming the problem, and the thread does not change."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from langgraph.checkpoint.sqlite import SqliteSaver
from typer.testing import CliRunner

from grace.hitl.request import InvalidHumanResponseError
from grace.settings import get_settings
from grace.storage.serde import use_grace_serializer
from graph.app import GraceApp, ThreadNotPausedError, UnknownThreadError
from graph.cli.main import app as cli
from nodes.common import InvalidQuestionError
from tests.reliability.conftest import ALWAYS_CONFIRM, ALWAYS_SILENT, SIMPLE, make_services

ROOT = Path(__file__).resolve().parents[2]


def _snapshot(app: GraceApp, thread: str) -> tuple[Any, Any, Any]:
    s = app.graph.get_state({"configurable": {"thread_id": thread}})
    return s.config, s.values, s.next


@pytest.fixture
def grace(offline_services: Any) -> Iterator[GraceApp]:
    """A GraceApp on the configured SQLite file with threads: paused, done (CONFIRM / SILENT)."""
    settings = get_settings()
    conn = sqlite3.connect(settings.sqlite_path, check_same_thread=False)
    saver = use_grace_serializer(SqliteSaver(conn))
    confirm = make_services(offline_services, confidence=ALWAYS_CONFIRM)
    silent = make_services(offline_services, confidence=ALWAYS_SILENT)
    assert GraceApp(settings, saver, services=confirm).ask(SIMPLE, thread_id="paused").status == (
        "interrupted"
    )
    assert GraceApp(settings, saver, services=silent).ask(SIMPLE, thread_id="done").status == (
        "completed"
    )
    app = GraceApp(settings, saver, services=offline_services)
    yield app
    conn.close()


@pytest.mark.parametrize(
    ("question", "message"),
    [
        ("", "the question is empty"),
        ("   \n ", "the question is empty"),
        ("x" * 4001, "over the limit of 4000 (setting run.max_question_chars)"),
        ("caf\udce9 opening?", "not valid UTF-8"),
        ("caf\ufffd opening?", "not valid UTF-8"),
    ],
)
def test_bad_questions_are_refused_before_a_thread_exists(
    grace: GraceApp, question: str, message: str
) -> None:
    with pytest.raises(InvalidQuestionError, match=message.replace("(", r"\(").replace(")", r"\)")):
        grace.ask(question, thread_id="new")
    with pytest.raises(UnknownThreadError):
        grace.outcome("new")


def test_a_bad_question_on_an_existing_thread_changes_nothing(grace: GraceApp) -> None:
    before = _snapshot(grace, "done")
    with pytest.raises(InvalidQuestionError):
        grace.ask("", thread_id="done")
    assert _snapshot(grace, "done") == before


def test_resume_unknown_thread(grace: GraceApp) -> None:
    with pytest.raises(UnknownThreadError, match="unknown thread id 'nope'"):
        grace.resume("nope", {"type": "ignore"})
    with pytest.raises(UnknownThreadError):
        grace.outcome("nope")


def test_resume_a_thread_that_is_not_paused(grace: GraceApp) -> None:
    before = _snapshot(grace, "done")
    with pytest.raises(ThreadNotPausedError, match="thread 'done' is not paused"):
        grace.resume("done", {"type": "accept"})
    assert _snapshot(grace, "done") == before


@pytest.mark.parametrize(
    ("reply", "message"),
    [
        ("yes", "must be an object"),
        ({"type": "approve"}, "invalid HumanResponse"),
        ({"kind": "accept"}, "invalid HumanResponse"),
        ([{"type": "accept"}, {"type": "ignore"}], "got a list of 2"),
        ({"type": "edit", "args": {}}, "an 'edit' needs args"),
        ({"type": "response", "args": ""}, "a 'response' needs args"),
        ({"type": "ignore", "extra": 1}, "extra"),
    ],
)
def test_resume_with_a_malformed_reply_changes_nothing(
    grace: GraceApp, reply: Any, message: str
) -> None:
    before = _snapshot(grace, "paused")
    with pytest.raises(InvalidHumanResponseError, match=message):
        grace.resume("paused", reply)
    assert _snapshot(grace, "paused") == before
    assert grace.outcome("paused").status == "interrupted"


def _cli(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, list(args))
    text = result.output + (result.stderr if result.stderr_bytes is not None else "")
    return result.exit_code, " ".join(text.split())


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["ask", "", "--json"], "the question is empty"),
        (["ask", "x" * 4001, "--json"], "over the limit of 4000"),
        (["ask", "caf\udce9?", "--json"], "not valid UTF-8"),
        (["resume", "nope", "--response", '{"type": "ignore"}'], "unknown thread id 'nope'"),
        (["resume", "done", "--response", '{"type": "accept"}'], "thread 'done' is not paused"),
        (["resume", "paused", "--response", "{not json"], "--response is not JSON"),
        (["resume", "paused", "--response", '{"type": "approve"}'], "invalid HumanResponse"),
        (["resume", "paused", "--response", '"yes"'], "must be an object"),
        (["show", "nope"], "unknown thread id 'nope'"),
    ],
)
def test_cli_names_the_problem_and_changes_nothing(
    grace: GraceApp, args: list[str], message: str
) -> None:
    before = {t: _snapshot(grace, t) for t in ("paused", "done")}
    code, text = _cli(*args)
    assert code == 2, text
    assert "error:" in text and message in text, text
    assert {t: _snapshot(grace, t) for t in ("paused", "done")} == before


@pytest.mark.slow
def test_cli_with_non_utf8_bytes_in_argv(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GRACE_")}
    env.pop("GOOGLE_API_KEY", None)
    env.update(GRACE_DATA_DIR=str(tmp_path), PYTHONPATH=str(ROOT), LC_ALL="C.UTF-8")
    proc = subprocess.run(
        [sys.executable, "-m", "graph.cli.main", "ask", b"caf\xe9 \xff opening?", "--json"],
        env=env,
        cwd=ROOT,
        capture_output=True,
        timeout=60,
    )
    assert proc.returncode == 2
    assert b"not valid UTF-8" in proc.stderr
    assert b"Traceback" not in proc.stderr
    with sqlite3.connect(tmp_path / "checkpoints.sqlite") as conn:  # no thread was created
        tables = {r[0] for r in conn.execute("select name from sqlite_master")}
        if "checkpoints" in tables:
            assert conn.execute("select count(*) from checkpoints").fetchone() == (0,)
