"""One path per question (issue 27.5): from ``grace ask`` to the answer, the run's chat model
is built once, the graph compiled once, and importing the graph compiles nothing.

Before, ``check_model`` built the models and threw them away, the run built them again (and
once more for a ``--model`` other than the settings'), and the graph was compiled at import
and again by ``GraceApp``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

import grace.services
from tests.cli_runner import invoke_cli
from tests.providers.openai_server import fake_openai

ROOT = Path(__file__).resolve().parents[1]
QUESTION = "When did the horse tram line open in Lumen Bay?"
ANSWER = "The horse tram line opened on 2 August 1874 [S1]."
VERDICT = {"self_evaluation": 0.9, "query_coverage": 0.9, "rationale": "supported by S1"}


@pytest.mark.parametrize("named_by", ["--model", "settings"])
def test_one_ask_builds_one_set_of_chat_models(
    monkeypatch: pytest.MonkeyPatch, named_by: str
) -> None:
    """The CLI's own services (no test services): the model checked is the model run."""
    built: list[str] = []
    real = grace.services.make_chat_model

    def counting(spec: str, **kwargs: Any) -> Any:
        built.append(spec)
        return real(spec, **kwargs)

    monkeypatch.setattr(grace.services, "make_chat_model", counting)
    with fake_openai({"AnswerVerdict": VERDICT, "text": ANSWER}) as server:
        monkeypatch.setenv("GRACE_MODELS__BASE_URL", server.base_url)
        args = ["ask", QUESTION, "--json"]
        if named_by == "--model":
            args += ["--model", "openai:local-model"]
        else:
            monkeypatch.setenv("GRACE_MODELS__CHAT", "openai:local-model")
        grace.settings.get_settings.cache_clear()
        out = json.loads(invoke_cli(*args).stdout)
    assert out["usage"]["model_calls"] > 0 and server.requests  # the model did answer
    assert built == ["openai:local-model", "openai:local-model"]  # the chat and judge: once


_COUNT_COMPILES = """
import sys
from langgraph.graph.state import StateGraph

compiles = []
real = StateGraph.compile

def counting(self, *args, **kwargs):
    compiles.append(type(self).__name__)
    return real(self, *args, **kwargs)

StateGraph.compile = counting
import graph
import graph.builder
from graph.builder import make_builder, make_graph
print("import", len(compiles), file=sys.stderr)
from graph.cli.main import app
try:
    app(["ask", sys.argv[1], "--json"])
except SystemExit as exc:
    assert not exc.code, exc.code
print("ask", len(compiles), file=sys.stderr)
"""


@pytest.mark.slow
def test_one_ask_compiles_the_graph_once_and_importing_it_compiles_nothing(
    tmp_path: Path,
) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GRACE_")}
    env.pop("GOOGLE_API_KEY", None)
    env.update(GRACE_DATA_DIR=str(tmp_path / "data"), PYTHONPATH=str(ROOT))
    proc = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(_COUNT_COMPILES), QUESTION],
        env=env,
        cwd=tmp_path,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    counts = dict(line.split() for line in proc.stderr.splitlines() if line[:4] in ("impo", "ask "))
    assert counts == {"import": "0", "ask": "1"}, proc.stderr[-3000:]
    assert json.loads(proc.stdout)["status"] == "completed"
