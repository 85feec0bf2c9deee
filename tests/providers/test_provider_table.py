"""A provider's request shapes live in its row of ``PROVIDERS`` and nowhere else.

The structured-output ladder (``structured_methods``) and the token-cap field
(``max_tokens_field``) of a model are read from the row of its chat class: changing the row
changes what the planner, judge, evaluator and every role's model do; a class no row names
gets the plain defaults.
"""

from __future__ import annotations

import importlib.util
from dataclasses import replace
from typing import Any

import pytest
from langchain_openai import AzureChatOpenAI

from grace.providers.generation import with_max_tokens
from grace.providers.models import (
    DEFAULT_METHODS,
    PROVIDERS,
    chat_model,
    provider_of,
    structured_methods,
)
from grace.services import build_services
from grace.settings import GraceSettings
from tests.fakes import ScriptedChatModel


@pytest.fixture
def openai_model(monkeypatch: pytest.MonkeyPatch) -> Any:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")  # built, never called
    return chat_model("openai:local", base_url="http://127.0.0.1:9/v1", temperature=0, timeout=1)


def test_a_model_finds_its_row_by_chat_class(openai_model: Any) -> None:
    assert provider_of(openai_model) is PROVIDERS["openai"]
    azure = type("AzureChatOpenAI", (ScriptedChatModel,), {})  # another class of the row
    assert provider_of(azure.replying("x")) is PROVIDERS["openai"]
    assert provider_of(ScriptedChatModel.replying("x")) is None
    assert structured_methods(ScriptedChatModel.replying("x")) == DEFAULT_METHODS
    assert structured_methods(openai_model)[0] == "json_schema"


def test_the_engine_takes_its_ladders_and_token_caps_from_the_row(
    openai_model: Any, offline_services: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    row = replace(PROVIDERS["openai"], structured_methods=("json_mode", "text"))
    monkeypatch.setitem(PROVIDERS, "openai", row)
    settings = GraceSettings(data_dir=offline_services.settings.data_dir, provider="offline")
    services = build_services(settings, chat_model=openai_model, store=offline_services.store)
    assert services.judge.methods == ("json_mode", "text")  # type: ignore[attr-defined]
    assert services.evaluator.methods == ("json_mode", "text")  # type: ignore[attr-defined]
    assert services.planner._structured.method == "json_mode"  # type: ignore[attr-defined]
    # One memory of what works per model, shared by the three (a refusal is learned once).
    memory = services.judge.memory  # type: ignore[attr-defined]
    assert services.evaluator.memory is memory  # type: ignore[attr-defined]
    assert services.planner._structured.memory is memory  # type: ignore[attr-defined]
    assert with_max_tokens(openai_model, 64).max_tokens == 64
    monkeypatch.setitem(PROVIDERS, "openai", replace(row, max_tokens_field=None))
    assert with_max_tokens(openai_model, 64) is openai_model  # no cap: requests as they were


def test_a_named_server_gets_max_tokens_in_the_body_from_the_row(
    openai_model: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    capped = with_max_tokens(openai_model, 64)  # a server you named: llama.cpp, LM Studio …
    assert capped.extra_body == {"max_tokens": 64}  # type: ignore[attr-defined]
    assert capped.stream_usage is True  # type: ignore[attr-defined]
    assert openai_model.extra_body is None  # a copy: the model itself is unchanged
    for var in ("OPENAI_BASE_URL", "OPENAI_API_BASE"):
        monkeypatch.delenv(var, raising=False)
    own_api = chat_model("openai:gpt-4.1-mini", temperature=0, timeout=1)  # OpenAI's own API
    assert with_max_tokens(own_api, 64).extra_body is None  # type: ignore[attr-defined]
    azure = AzureChatOpenAI(  # another class of the row, at Azure's own API: as it was
        base_url="http://127.0.0.1:9/openai/deployments/d", api_version="2024-10-21", api_key="x"
    )
    assert with_max_tokens(azure, 64).extra_body is None  # type: ignore[attr-defined]
    monkeypatch.setitem(PROVIDERS, "openai", replace(PROVIDERS["openai"], named_server_field=None))
    assert with_max_tokens(openai_model, 64).extra_body is None  # type: ignore[attr-defined]
    assert with_max_tokens(openai_model, 64).max_tokens == 64  # type: ignore[attr-defined]


@pytest.mark.parametrize("provider", sorted(PROVIDERS))
def test_init_chat_model_builds_the_rows_first_chat_class(
    provider: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The row's first chat class is the one ``init_chat_model`` builds for its provider."""
    row = PROVIDERS[provider]
    if row.extra and importlib.util.find_spec(f"langchain_{provider}") is None:
        pytest.skip(f"the {row.extra} extra is not installed")
    if row.key_env:
        monkeypatch.setenv(row.key_env, "test-key")  # built, never called
    model = chat_model(f"{provider}:some-model", temperature=0, timeout=1)
    assert type(model).__name__ == row.chat_classes[0]
    assert provider_of(model) is row
