"""``grace ask`` in a pseudo-terminal: live view, the intervention prompt, a typed reply.

No screenshots: pexpect drives the real console script in a pty (so stdin and stderr are
terminals, the live table is drawn and the prompt waits), answers the prompt, and the
answer panel and the thread's final status are checked.
"""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

import pytest

from grace.settings import GraceSettings
from graph.app import GraceApp

pexpect = pytest.importorskip("pexpect")

pytestmark = pytest.mark.slow

UNANSWERABLE = "Who won the 2018 FIFA World Cup?"
FACT = "France won the 2018 FIFA World Cup, beating Croatia 4-2 in the final."
_ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def _env(tmp_path: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "GOOGLE_API_KEY"}
    env.update(GRACE_DATA_DIR=str(tmp_path / "data"), TERM="xterm-256color", COLUMNS="120")
    return env


def test_ask_in_a_terminal_answers_the_intervention_prompt(tmp_path: Path) -> None:
    env = _env(tmp_path)
    child = pexpect.spawn(
        sys.executable,
        ["-m", "graph.cli.main", "ask", UNANSWERABLE],
        env=env,
        encoding="utf-8",
        timeout=60,
        dimensions=(50, 120),
    )
    try:
        child.expect("Your decision")
        screen = _ANSI.sub("", child.before)
        # The live view: the plan's steps with status and confidence, then the request's
        # Markdown description rendered (no raw '##' heading markers).
        assert "rag_search" in screen
        assert "success" in screen
        assert "GRACE needs you" in screen
        assert "## GRACE" not in screen
        assert "Question: Who won the 2018 FIFA World Cup?" in screen
        child.sendline("respond")
        child.expect("Your response")
        child.sendline(FACT)
        # GRACE may still ask for a review of the rebuilt answer: finish it then.
        while child.expect(["Your decision", pexpect.EOF]) == 0:
            child.sendline("ignore")
        tail = _ANSI.sub("", child.before)
    finally:
        child.close()
    assert child.exitstatus == 0, tail
    assert "answer" in tail
    assert "France" in tail
    assert re.search(r"thread [0-9a-f]{32}", tail)

    settings = GraceSettings(data_dir=tmp_path / "data", provider="offline")
    with GraceApp.open(settings) as grace:
        (row,) = grace.threads()
    assert row.status == "completed"
    assert row.query == UNANSWERABLE
