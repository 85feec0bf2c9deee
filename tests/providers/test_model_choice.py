"""Choosing the model: one spec string, clear errors before a run, a thread that survives a
model that is down."""

from __future__ import annotations

import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from langgraph.checkpoint.memory import InMemorySaver

from grace.errors import ModelSetupError, ModelUnavailableError, ModelUnreachableError
from grace.providers.models import PROVIDERS, chat_model, check_reachable, parse_spec
from grace.services import ChatModels, build_services, check_model
from grace.settings import GraceSettings
from grace.storage.serde import use_grace_serializer
from graph.app import GraceApp
from tests.fakes import ScriptedChatModel

ROOT = Path(__file__).resolve().parents[2]
QUESTION = "When did the horse tram line open and who designed the Wren Point Lighthouse?"


@pytest.mark.parametrize(
    ("settings", "env_key", "expected"),
    [
        ({}, None, "offline"),
        ({}, "k", "google_genai:gemini-2.5-flash"),
        ({"provider": "offline"}, "k", "offline"),
        ({"provider": "gemini"}, None, "google_genai:gemini-2.5-flash"),
        ({"models": {"chat": "ollama:qwen3"}}, "k", "ollama:qwen3"),
        ({"models": {"chat": "offline"}, "provider": "gemini"}, "k", "offline"),
    ],
)
def test_the_chat_model_in_force(
    monkeypatch: pytest.MonkeyPatch, settings: dict[str, Any], env_key: str | None, expected: str
) -> None:
    if env_key:
        monkeypatch.setenv("GOOGLE_API_KEY", env_key)
    resolved = GraceSettings(**settings)
    assert resolved.chat_spec() == expected
    assert resolved.chat_spec("openai:gpt-4.1-mini") == "openai:gpt-4.1-mini"  # --model wins


def test_specs_are_checked_against_the_provider_table() -> None:
    assert parse_spec("openai:gpt-4.1-mini") == ("openai", "gpt-4.1-mini")
    assert parse_spec("ollama:qwen3:8b") == ("ollama", "qwen3:8b")  # tags keep their colon
    for bad in ("gpt-4", "openai:", "mistral:large"):
        with pytest.raises(ModelSetupError, match="provider:model"):
            parse_spec(bad)
    assert set(PROVIDERS) >= {"google_genai", "openai", "anthropic", "ollama"}


def test_models_are_built_with_the_local_server_and_key_variable(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    local = chat_model(
        "openai:qwen2.5-7b", temperature=0.0, timeout=5, base_url="http://127.0.0.1:8080/v1"
    )
    assert type(local).__name__ == "ChatOpenAI" and str(local.openai_api_base).endswith("/v1")
    ollama = chat_model("ollama:qwen3", temperature=0.0, timeout=5)
    assert type(ollama).__name__ == "ChatOllama" and ollama.base_url == "http://127.0.0.1:11434"
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    with pytest.raises(ModelSetupError, match="OPENAI_API_KEY"):
        chat_model("openai:gpt-4.1-mini", temperature=0.0, timeout=5)
    monkeypatch.setenv("MY_GATEWAY_KEY", "secret")
    hosted = chat_model(
        "openai:gpt-4.1-mini", temperature=0.0, timeout=5, api_key_env="MY_GATEWAY_KEY"
    )
    assert hosted.openai_api_key is not None
    assert hosted.openai_api_key.get_secret_value() == "secret"


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_a_local_server_that_is_down_is_named_before_the_run() -> None:
    url = f"http://127.0.0.1:{_closed_port()}"
    with pytest.raises(ModelUnavailableError, match=f"ollama server at {url}"):
        check_reachable("ollama:qwen3", url)
    settings = GraceSettings(models={"chat": "ollama:qwen3", "base_url": url})
    with pytest.raises(ModelUnavailableError, match="ollama serve"):
        check_model(settings)
    assert check_model(GraceSettings(provider="offline")) == ChatModels("offline")  # no model


def _grace(tmp_path: Path, code: str, **env: str) -> subprocess.CompletedProcess[str]:
    base = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "GRACE_DATA_DIR": str(tmp_path)}
    return subprocess.run(
        [sys.executable, "-c", code],
        env={**base, **env},
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )


def _cli(*args: str, hide: str = "") -> str:
    hidden = f"import sys; sys.modules[{hide!r}] = None\n" if hide else "import sys\n"
    run = "from graph.cli.main import main\nmain()\n"
    return hidden + f"sys.argv = ['grace', *{list(args)!r}]\n" + run


@pytest.mark.parametrize(
    ("args", "hide", "env", "expected"),
    [
        (
            ["--model", "openai:gpt-4.1-mini"],
            "langchain_openai",
            {"OPENAI_API_KEY": "sk-test"},
            'pip install "grace-agent[openai]"',
        ),
        (["--model", "openai:gpt-4.1-mini"], "", {}, "OPENAI_API_KEY"),
        (["--model", "ollama:qwen3"], "", {"CLOSED": "1"}, "cannot reach the ollama server"),
        (["--model", "mistral:large"], "", {}, "provider GRACE knows"),
    ],
)
def test_cli_model_problems_are_one_line_and_exit_2(
    tmp_path: Path, args: list[str], hide: str, env: dict[str, str], expected: str
) -> None:
    if env.pop("CLOSED", None):
        env["GRACE_MODELS__BASE_URL"] = f"http://127.0.0.1:{_closed_port()}"
    proc = _grace(tmp_path, _cli("ask", "Who?", "--json", *args, hide=hide), **env)
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.startswith("error: ") and proc.stderr.count("\n") == 1, proc.stderr
    assert expected in proc.stderr and "Traceback" not in proc.stderr
    assert not (tmp_path / "checkpoints.sqlite").exists()  # refused before any thread


def test_a_model_that_goes_down_mid_run_leaves_a_resumable_thread(offline_services: Any) -> None:
    down = ScriptedChatModel.fixed({"PlanDraft": ConnectionError("connection refused")})
    down.script.fixed["text"] = ConnectionError("connection refused")
    down.script.fixed["AnswerVerdict"] = ConnectionError("connection refused")
    services = build_services(
        offline_services.settings, chat_model=down, store=offline_services.store
    )
    saver = use_grace_serializer(InMemorySaver())
    app = GraceApp(offline_services.settings, saver, services=services)
    # the run stops (nothing invented, no pause asking the question back), one message
    with pytest.raises(ModelUnreachableError, match="ScriptedChatModel model .* reached"):
        app.ask(QUESTION, thread_id="down")
    assert app.summary("down").status == "incomplete"
    back = GraceApp(offline_services.settings, saver, services=offline_services)
    done = back.continue_run("down")  # the model is back: the thread runs on
    assert done.status in ("completed", "interrupted")
    assert "Tobias Wren" in (done.answer or (done.draft or {}).get("answer", ""))
