"""The ``grace`` CLI: --help, ask / resume / threads / show / ingest with --json.

In-process with typer's CliRunner (stdin is not a terminal there, so ``ask`` never waits),
plus one real subprocess of the console script for ``ask --json`` → ``resume``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from graph.cli.main import RunView, app
from tests.cli_runner import invoke_cli

ANSWERABLE = "When did the horse tram line open in Lumen Bay?"
UNANSWERABLE = "Who won the 2018 FIFA World Cup?"
JSON_KEYS = {"status", "thread_id", "answer", "confidence", "level", "sources", "interrupt"}


@pytest.fixture
def grace(offline_services: Any, cli_services: Any) -> Iterator[Any]:
    """Run the CLI in-process with the session's offline services; return parsed stdout."""

    def run(*args: str, code: int = 0) -> Any:
        result = invoke_cli(*args, code=code)
        if "--json" in args and code == 0:
            return json.loads(result.stdout)
        return result

    cli_services(offline_services)
    yield run


@pytest.mark.parametrize("command", ["ask", "resume", "ingest", "threads", "show", "eval"])
def test_every_command_has_help(command: str) -> None:
    result = CliRunner().invoke(app, [command, "--help"])
    assert result.exit_code == 0
    assert "Usage" in result.stdout
    if command != "eval":
        assert "--json" in result.stdout


def test_top_level_help_lists_the_commands() -> None:
    result = CliRunner().invoke(app, ["--help"])
    assert result.exit_code == 0
    for command in ("ask", "resume", "ingest", "threads", "show", "eval"):
        assert command in result.stdout


def test_ask_json_completed(grace: Any) -> None:
    out = grace("ask", ANSWERABLE, "--json")
    assert JSON_KEYS <= out.keys()
    assert out["status"] == "completed"
    assert "1874" in out["answer"]
    assert out["sources"] and out["sources"][0]["source_id"].startswith("S")
    assert out["level"] in {"silent", "notify"}
    assert out["interrupt"] is None


def test_ask_json_interrupted_then_resume_threads_and_show(grace: Any) -> None:
    paused = grace("ask", UNANSWERABLE, "--json", "--thread-id", "t-cli")
    assert paused["status"] == "interrupted"
    assert paused["thread_id"] == "t-cli"
    assert paused["answer"] is None
    request = paused["interrupt"]
    assert request["action_requests"][0]["description"].startswith("## GRACE needs you")
    assert paused["level"] in {"confirm", "escalate"}

    rows = grace("threads", "--json")
    assert [(r["thread_id"], r["status"]) for r in rows] == [("t-cli", "interrupted")]

    done = grace("resume", "t-cli", "--response", '{"decisions": [{"type": "reject"}]}', "--json")
    assert done["status"] == "completed"
    assert done["answer"]

    rows = grace("threads", "--json")
    assert rows[0]["status"] == "completed"
    assert grace("threads", "--json", "--status", "interrupted") == []

    history = grace("show", "t-cli", "--json")
    assert history["summary"]["query"] == UNANSWERABLE
    assert history["plan"]["steps"]
    assert all(s["score"] is None or "breakdown" in s["score"] for s in history["steps"])
    assert [i["response_type"] for i in history["interventions"]] == ["ignore"]
    assert history["pending"] is None

    text = grace("show", "t-cli").stdout
    assert UNANSWERABLE in text
    assert "intervention" in text


def test_resume_errors_leave_the_thread_paused(grace: Any) -> None:
    grace("ask", UNANSWERABLE, "--json", "--thread-id", "t-err")
    assert "unknown thread" in grace("resume", "nope", "--response", "{}", code=2).stderr
    assert "not JSON" in grace("resume", "t-err", "--response", "{oops", code=2).stderr
    bad = grace("resume", "t-err", "--response", '{"type": "dance"}', code=2)
    assert "error" in bad.stderr
    assert grace("threads", "--json")[0]["status"] == "interrupted"
    done = grace("resume", "t-err", "--response", '[{"type": "ignore"}]', "--json")
    assert done["status"] == "completed"
    # Nothing left to resume.
    assert (
        "not paused" in grace("resume", "t-err", "--response", '{"type": "ignore"}', code=2).stderr
    )


def test_show_unknown_thread_fails(grace: Any) -> None:
    assert "unknown thread" in grace("show", "missing", code=2).stderr


def test_empty_question_is_refused(grace: Any) -> None:
    assert "error" in grace("ask", "   ", "--json", code=2).stderr


def test_human_output_of_a_completed_run(grace: Any) -> None:
    result = grace("ask", ANSWERABLE)  # stdin is not a terminal: JSON, no prompt
    assert json.loads(result.stdout)["status"] == "completed"
    assert grace("threads").stdout.count("completed") == 1


def test_ingest_json_then_ask_in_that_collection(
    grace: Any, tmp_path: Path, offline_services: Any
) -> None:
    doc = tmp_path / "okapi.md"
    doc.write_text(
        "# Okapi Lighthouse\n\nThe Okapi Lighthouse on Brindle Isle was first lit in 1911 "
        "by the keeper Marta Quell.\n",
        encoding="utf-8",
    )
    (tmp_path / "image.png").write_bytes(b"\x89PNG")
    report = grace("ingest", str(doc), "--collection", "clitest", "--json")
    assert report["files"] == 1 and report["chunks"] >= 1
    out = grace(
        "ask", "When was the Okapi Lighthouse first lit?", "--collection", "clitest", "--json"
    )
    assert out["status"] == "completed"
    assert "1911" in out["answer"]
    assert any(s["source"].endswith("okapi.md") for s in out["sources"])


def test_run_view_tracks_steps_notices_and_pauses() -> None:
    view = RunView()
    events: list[dict[str, Any]] = [
        {
            "event": "plan_ready",
            "plan_id": "p",
            "origin": "rules",
            "repairs": [],
            "steps": [
                {"step_id": "s1", "action": "rag_search", "query": "q", "depends_on": []},
                {"step_id": "s2", "action": "reasoning", "query": "q", "depends_on": ["s1"]},
            ],
        },
        {"event": "step_started", "step_id": "s1", "action": "rag_search"},
        {"event": "step_finished", "step_id": "s1", "status": "success", "execution_time_ms": 3},
        {"event": "step_scored", "step_id": "s1", "confidence": 0.75, "level": "notify"},
        {"event": "notice", "level": "notify", "confidence": 0.75, "message": "fyi"},
        {"event": "intervention_required", "level": "confirm", "confidence": 0.5, "step_id": "s1"},
        {"event": "intervention_required", "level": "confirm", "confidence": 0.5, "step_id": "s1"},
        {"event": "replan", "trigger": "human_edit", "strategy": "full", "reason": "new question"},
        {"event": "plan_ready", "plan_id": "p2", "origin": "replan", "repairs": [], "steps": []},
        {"event": "something_new"},
    ]
    notes = []
    for e in events:
        view.handle(e)
        notes.append(view.rows["s1"].note if "s1" in view.rows else "")
    s1, s2 = view.rows["s1"], view.rows["s2"]
    assert (s1.status, s1.confidence, s1.level) == ("success", 0.75, "notify")
    assert notes[6].startswith("paused (CONFIRM")  # while paused …
    assert s1.note == ""  # … and cleared once the run went on
    assert s2.status == "replaced"
    texts = [t.plain for t in view.notices]
    assert sum(t.startswith("paused at CONFIRM") for t in texts) == 1
    assert any("fyi" in t for t in texts) and any(t.startswith("replan") for t in texts)
    from rich.console import Console

    console = Console(record=True, width=120)
    console.print(view)
    assert "rag_search" in console.export_text()


@pytest.mark.slow
def test_console_script_ask_json_and_resume(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "GOOGLE_API_KEY"}
    env["GRACE_DATA_DIR"] = str(tmp_path / "data")
    cli = [sys.executable, "-m", "graph.cli.main"]

    def run(*args: str) -> Any:
        proc = subprocess.run(
            [*cli, *args],
            env=env,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert proc.returncode == 0, proc.stderr
        return json.loads(proc.stdout)

    paused = run("ask", UNANSWERABLE)  # stdin not a terminal → JSON, no wait
    assert paused["status"] == "interrupted"
    done = run(
        "resume",
        paused["thread_id"],
        "--response",
        '{"type": "edit", "args": {"args": {"answer": "France won it."}}}',
        "--json",
    )
    assert done["status"] == "completed"
    assert done["answer"].startswith("France won it")


@pytest.mark.parametrize(
    ("question", "reply", "expected"),
    [
        (UNANSWERABLE, "France won it.", "France"),
        ("2018年のFIFAワールドカップで優勝した国は？", "フランスが優勝した。", "フランス"),
    ],
)
def test_a_reply_at_the_pause_is_heard(
    grace: Any, question: str, reply: str, expected: str
) -> None:
    paused = grace("ask", "--json", question, "--thread-id", "t-heard")
    assert paused["status"] == "interrupted"
    response = json.dumps({"type": "response", "args": reply}, ensure_ascii=False)
    done = grace("resume", "t-heard", "--json", "--response", response)
    assert done["status"] == "completed"
    assert expected in done["answer"]
    assert [(s["source_id"], s["source"]) for s in done["sources"]] == [("H1", "human")]
    assert done["level"] == "notify"
