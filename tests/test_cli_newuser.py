"""What a new user tripped on (issue 28): threads filtered before the limit, a mistyped
collection refused up front, and a paused run's draft in ``grace ask --json``."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from tests.cli_runner import invoke_cli
from tests.reliability.conftest import ALWAYS_CONFIRM, ALWAYS_SILENT, make_services

CONFIRM_QUESTION = (
    "What prize is awarded for the best children's lantern at the Lantern Tide Festival?"
)


@pytest.fixture
def grace(offline_services: Any, cli_services: Any) -> Iterator[Any]:
    cli_services(offline_services)
    yield invoke_cli


def test_a_paused_run_carries_its_draft_and_sources(
    offline_services: Any, cli_services: Any
) -> None:
    # Every answer pauses at CONFIRM here: the test is about the draft a pause carries, not
    # about the level the confidence model gives this question.
    cli_services(make_services(offline_services, confidence=ALWAYS_CONFIRM))
    out = json.loads(invoke_cli("ask", CONFIRM_QUESTION, "--json").stdout)
    assert out["status"] == "interrupted" and out["answer"] is None
    assert "Golden Wick" in out["draft"]["answer"]
    (source,) = out["draft"]["sources"]
    assert source["source"] == "lumen-bay-lantern-festival.md" and source["source_id"] == "S1"


def test_a_mistyped_collection_is_refused_before_a_run(grace: Any) -> None:
    refused = grace("ask", "When did the tram open?", "--collection", "gracee", "--json", code=2)
    assert "unknown collection 'gracee'" in refused.stderr and "grace" in refused.stderr
    assert refused.stdout == ""  # no run, no thread


def test_threads_filters_by_status_before_the_limit(
    offline_services: Any, cli_services: Any
) -> None:
    cli_services(make_services(offline_services, confidence=ALWAYS_CONFIRM))
    for i in range(3):
        invoke_cli("ask", f"When did the horse tram line open? ({i})", "--json")
    cli_services(make_services(offline_services, confidence=ALWAYS_SILENT))
    for i in range(3):
        invoke_cli("ask", f"When did the lantern festival start? ({i})", "--json")
    rows = json.loads(
        invoke_cli("threads", "--status", "interrupted", "--limit", "2", "--json").stdout
    )
    assert [r["status"] for r in rows] == ["interrupted", "interrupted"]
    everything = json.loads(
        invoke_cli("threads", "--status", "interrupted", "--limit", "5", "--json").stdout
    )
    assert len(everything) == 3
