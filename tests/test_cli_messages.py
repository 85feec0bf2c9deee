"""Messages a new user met (issue 28.5): each names what to do, in one line."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from grace.errors import ModelSetupError, ModelUnavailableError
from grace.providers.models import check_reachable
from grace.services import check_model
from grace.settings import GraceSettings, get_settings
from tests.cli_runner import invoke_cli


@pytest.fixture
def grace(offline_services: Any, cli_services: Any) -> Iterator[Any]:
    cli_services(offline_services)
    yield invoke_cli


def _paused(grace: Any) -> str:
    out = json.loads(grace("ask", "Who won the 2018 FIFA World Cup?", "--json").stdout)
    assert out["status"] == "interrupted"
    return str(out["thread_id"])


def test_a_reply_that_is_not_json_shows_the_accepted_forms(grace: Any) -> None:
    result = grace("resume", _paused(grace), "--response", "accept", code=2)
    said = " ".join(result.stderr.split())
    assert "is not JSON" in said and '{"decisions": [{"type": "approve"}]}' in said


def test_resume_without_a_reply_on_a_paused_thread_is_one_line(grace: Any) -> None:
    thread = _paused(grace)
    result = grace("resume", thread, code=2)
    said = " ".join(result.stderr.split())
    assert "is paused for your review: add --response" in said
    assert '"type": "reject"' in said and result.stdout == ""  # no empty table first


def test_show_draws_the_pending_request_not_an_empty_box(grace: Any) -> None:
    shown = grace("show", _paused(grace)).stdout
    pending = shown.split("pending", 1)[1]
    assert "Answer so far" in pending or "need your help" in pending.lower()


def test_a_nonsense_model_names_the_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GRACE_MODELS__CHAT", "nonsense")
    get_settings.cache_clear()
    with pytest.raises(ModelSetupError, match="^GRACE_MODELS__CHAT: model 'nonsense'"):
        check_model(GraceSettings())
    with pytest.raises(ModelSetupError, match="^--model"):
        check_model(GraceSettings(), "nonsense")


def test_the_unreachable_server_hint_fits_the_provider() -> None:
    with pytest.raises(ModelUnavailableError) as openai:
        check_reachable("openai:local", "http://127.0.0.1:9/v1", timeout=0.5)
    assert "ollama" not in str(openai.value).lower() and "start the server" in str(openai.value)
    with pytest.raises(ModelUnavailableError, match="ollama serve"):
        check_reachable("ollama:qwen3", "http://127.0.0.1:9", timeout=0.5)
