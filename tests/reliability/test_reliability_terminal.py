"""Escape sequences from a document or a question never reach the terminal raw."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from rich.console import Console

from graph.app import RunOutcome
from graph.cli import main as cli
from graph.views import outcome as cli_views
from graph.views.terminal import term
from tests.reliability.conftest import grace_cli

ROOT = Path(__file__).resolve().parents[2]
OSC_TITLE = "\x1b]0;pwned\x07"
CLEAR = "\x1b[2J"
RLO = "\u202e"
SENTENCE = (
    f"The ferry to Gull Island leaves the harbour at nine {OSC_TITLE}every morning "
    f"{CLEAR}[red]sharp[/]. {RLO}reversed"
)


def test_term_shows_controls_and_keeps_text() -> None:
    assert term(OSC_TITLE) == "\\x1b]0;pwned\\x07"
    assert term(CLEAR + RLO + "\x9b") == "\\x1b[2J\\u202e\\x9b"
    assert term("line one\n\tline two — 霧ヶ丘 [b]") == "line one\n\tline two — 霧ヶ丘 [b]"


@pytest.mark.slow
def test_a_document_with_an_osc_sequence_is_shown_escaped(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "ferry.md").write_text(f"# Gull Island Ferry\n\n{SENTENCE}\n", encoding="utf-8")
    assert grace_cli(tmp_path / "d", "ingest", str(docs), "--collection", "osc").returncode == 0
    question = "When does the ferry to Gull Island leave?"
    asked = grace_cli(tmp_path / "d", "ask", question, "--collection", "osc")
    out = json.loads(asked.stdout)
    assert OSC_TITLE in out["answer"]  # JSON keeps the exact text (escaped by JSON itself)
    shown = grace_cli(tmp_path / "d", "show", out["thread_id"])
    assert shown.returncode == 0, shown.stderr
    for raw in ("\x1b", "\x07", RLO):
        assert raw not in shown.stdout + shown.stderr
    assert "\\x1b]0;pwned\\x07every" in shown.stdout
    assert "[red]sharp[/]" in " ".join(shown.stdout.split())  # markup printed, not applied


def test_the_answer_panel_and_live_view_escape_it_on_a_colour_terminal(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    buffer = io.StringIO()
    colour = Console(file=buffer, force_terminal=True, width=200)
    monkeypatch.setattr(cli, "out", colour)
    outcome = RunOutcome(
        status="completed",
        thread_id="t",
        answer=SENTENCE,
        confidence=0.9,
        level="silent",
        notes=[f"note {CLEAR}"],
    )
    cli._print_outcome(outcome)
    view = cli_views.RunView()
    view.handle(
        {
            "event": "plan_ready",
            "origin": "x",
            "steps": [{"step_id": "s1", "action": "rag_search", "query": f"ferry {OSC_TITLE}"}],
        }
    )
    view.handle({"event": "notice", "message": f"{CLEAR}careful"})
    colour.print(view)
    printed = buffer.getvalue()
    assert "\x1b]" not in printed and "\x07" not in printed and CLEAR not in printed
    assert RLO not in printed
    assert "\\x1b]0;pwned\\x07" in printed and "[red]sharp[/]" in printed


def test_a_question_with_escapes_is_escaped_in_threads(tmp_path: Path) -> None:
    question = f"Who built the {CLEAR}lighthouse{OSC_TITLE}?"
    grace_cli(tmp_path / "d", "ask", question, "--json")
    listed = grace_cli(tmp_path / "d", "threads", COLUMNS="200")
    assert listed.returncode == 0, listed.stderr
    assert "\x1b" not in listed.stdout and "\\x1b[2Jlighthouse" in listed.stdout
