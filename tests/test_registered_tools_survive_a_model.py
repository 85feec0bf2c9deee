"""A tool (and the confidence system) registered once is used whatever model a run names."""

from __future__ import annotations

from typing import Any

import pytest
from langchain_core.tools import tool

from grace.services import build_services
from grace.settings import GraceSettings


@tool
def staff_directory(query: str) -> list[str]:
    """Look up who runs a department of the company in the staff directory."""
    return ["The finance department is run by Ada Lovelace since 2021."]


def test_a_registered_tool_survives_a_per_run_model(
    offline_services: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-not-used")  # building sends nothing
    settings = GraceSettings(data_dir=offline_services.settings.data_dir, provider="offline")
    services = build_services(settings, store=offline_services.store)
    services.tools.register(staff_directory, role="search")
    variant = services.with_model("openai:gpt-4.1-mini")
    assert variant is not services and variant.provider != services.provider
    assert "staff_directory" in variant.tools.names()
    assert variant.calculator is services.calculator
    assert services.with_model("openai:gpt-4.1-mini") is variant  # built once
