"""Fixtures for the reliability tests: fast retries, counting / failing tools, thresholds."""

from __future__ import annotations

import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import pytest

from grace.schemas import ToolResult
from grace.services import Services, build_services
from grace.settings import GraceSettings
from grace.tools import ToolCall, ToolEnv, ToolRegistry

SIMPLE = "When did the horse tram line open in Lumen Bay?"
COMPLEX = "When did the horse tram line open and who designed the Wren Point Lighthouse?"
UNANSWERABLE = "Who won the 2018 FIFA World Cup?"
GOOD_VERDICT = {"self_evaluation": 0.95, "query_coverage": 0.9, "rationale": "supported"}


ROOT = Path(__file__).resolve().parents[2]


def cfg(thread: str) -> dict[str, Any]:
    return {"configurable": {"thread_id": thread}}


def cli_env(data_dir: Path) -> dict[str, str]:
    """The environment of a CLI child process: only PATH, a HOME beside the data dir, the dir."""
    return {"PATH": "/usr/bin:/bin", "HOME": str(data_dir.parent), "GRACE_DATA_DIR": str(data_dir)}


def grace_cli(data_dir: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    """``grace ARGS`` in a fresh process on ``data_dir``: no GRACE_* or key from this shell."""
    return subprocess.run(
        [sys.executable, "-m", "graph.cli.main", *args],
        env={**cli_env(data_dir), **env},
        cwd=ROOT,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=120,
    )


@dataclass
class Wrapped:
    """A registered tool wrapped to count calls and fail on demand.

    ``fail(call_no, step) -> exception | None`` decides whether the n-th call (1-based, per
    query) raises instead of running the real tool.
    """

    inner: Any
    fail: Callable[[int, ToolCall], BaseException | None] | None = None
    calls: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def name(self) -> str:
        return str(self.inner.name)

    @property
    def description(self) -> str:
        return str(self.inner.description)

    @property
    def role(self) -> str:
        return str(self.inner.role)

    @property
    def signals(self) -> tuple[str, ...]:
        return tuple(self.inner.signals)

    def runs_inline(self, env: ToolEnv) -> bool:
        return False

    def run(self, call: ToolCall, env: ToolEnv) -> ToolResult:
        with self.lock:
            self.calls.append(call.step.query)
            n = self.calls.count(call.step.query)
        if self.fail is not None and (exc := self.fail(n, call)) is not None:
            raise exc
        result: ToolResult = self.inner.run(call, env)
        return result

    async def arun(self, call: ToolCall, env: ToolEnv) -> ToolResult:
        return self.run(call, env)


def with_tools(services: Services, **wrapped: Wrapped) -> Services:
    """``services`` whose named tools are replaced by ``wrapped`` ones."""
    tools = [wrapped.get(n, services.tools.get(n)) for n in services.tools.names()]
    return replace(services, tools=ToolRegistry(tools))


def make_services(offline_services: Any, *, chat_model: Any = None, **overrides: Any) -> Services:
    """Services over the session store with settings overrides (e.g. ``run={...}``)."""
    settings = GraceSettings(
        data_dir=offline_services.settings.data_dir, provider="offline", **overrides
    )
    return build_services(settings, chat_model=chat_model, store=offline_services.store)


ALWAYS_ESCALATE = {"thresholds": {"silent": 1.0, "notify": 1.0, "confirm": 1.0}}
ALWAYS_SILENT = {"thresholds": {"silent": 0.0, "notify": 0.0, "confirm": 0.0}}
ALWAYS_CONFIRM = {"thresholds": {"silent": 1.0, "notify": 1.0, "confirm": 0.0}}


@pytest.fixture
def fast_retries() -> Iterator[Any]:
    """``fast_retries(services)``: a builder over ``services`` whose RetryPolicy waits 10 ms
    (the services' settings are read when the builder is made)."""
    from dataclasses import replace

    from graph.builder import make_builder

    def fast(services: Any) -> Any:
        settings = services.settings
        run = settings.run.model_copy(update={"retry_initial_interval": 0.01})
        return make_builder(
            services=replace(services, settings=settings.model_copy(update={"run": run}))
        )

    yield fast


@pytest.fixture
def offline(offline_services: Any, cli_services: Any) -> Iterator[Any]:
    """The session's offline services; in-process ``grace`` commands run on them too."""
    cli_services(offline_services)
    yield offline_services
