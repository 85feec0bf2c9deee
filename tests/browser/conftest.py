"""Fixtures for the browser test: the servers, Chromium, and where screenshots go."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any, NamedTuple

import pytest

from tests.browser import _stack
from tests.langgraph_config import isolated_langgraph_config


class Stack(NamedTuple):
    """The running client: its URL and the logs to show on failure."""

    app_url: str
    logs: list[Path]


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    """Agent Chat UI (``next dev``) talking to ``langgraph dev``, both on loopback."""
    missing = _stack.missing_requirements()
    if missing:
        message = "browser test needs: " + "; ".join(missing)
        if _stack.REQUIRE:
            pytest.fail(message + " (GRACE_TEST_REQUIRE_BROWSER is set)", pytrace=False)
        pytest.skip(message)
    source = _stack.client_source()
    assert source is not None
    work = tmp_path_factory.mktemp("browser")
    logs = [work / "install.log", work / "langgraph.log", work / "next.log"]
    app = _stack.prepare_client(source, work, logs[0])
    api_port, app_port = _stack.free_port(), _stack.free_port()
    base_env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("GRACE_", "LANGSMITH_", "LANGCHAIN_")) or k.startswith("GRACE_TEST_")
    }
    base_env.pop("GOOGLE_API_KEY", None)
    langgraph = Path(sys.executable).parent / "langgraph"
    config = isolated_langgraph_config(_stack.ROOT, work)
    api = _stack.start(
        [str(langgraph), "dev", "--no-browser", "--no-reload", "--port", str(api_port),
         "--config", str(config)],
        work,
        {**base_env, "LANGGRAPH_CLI_NO_ANALYTICS": "1", "GRACE_DATA_DIR": str(work / "data")},
        logs[1],
    )  # fmt: skip
    api_url = f"http://127.0.0.1:{api_port}"
    client = _stack.start(
        [str(app / "node_modules" / ".bin" / "next"), "dev", "-H", "127.0.0.1", "-p",
         str(app_port)],
        app,
        {**base_env, "NEXT_TELEMETRY_DISABLED": "1", "NEXT_PUBLIC_API_URL": api_url,
         "NEXT_PUBLIC_ASSISTANT_ID": "grace"},
        logs[2],
    )  # fmt: skip
    app_url = f"http://127.0.0.1:{app_port}/"
    try:
        _stack.wait_http(api, f"{api_url}/ok", logs[1], 120)
        _stack.wait_http(client, app_url, logs[2], 300)
        yield Stack(app_url, logs)
    finally:
        _stack.stop(client)
        _stack.stop(api)


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    """Debian's Chromium, headless, driven by Playwright (no browser download).

    Ask for it after the fixture that checks what the test needs (it imports Playwright).
    """
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        launched = p.chromium.launch(executable_path=_stack.chromium_path())
        yield launched
        launched.close()


@pytest.fixture(scope="module")
def browser(stack: Stack, chromium: Any) -> Any:
    """Chromium for the Agent Chat UI test, once its stack is up (or the test skipped)."""
    return chromium


@pytest.fixture(scope="module")
def artifacts(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where screenshots go: ``$GRACE_TEST_ARTIFACTS`` or a temporary directory."""
    path = os.environ.get("GRACE_TEST_ARTIFACTS")
    folder = Path(path) if path else tmp_path_factory.mktemp("browser-artifacts")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    """Keep each phase's report on the test (``item.rep_call``): fixtures see a failure."""
    report = yield
    setattr(item, f"rep_{report.when}", report)
    return report
