"""Shared fixtures. The network is blocked and real model calls are refused in every test."""

from __future__ import annotations

import contextlib
import os
import socket
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

_LOOPBACK = ("127.", "::1", "localhost")


def _guarded_connect(original: Any) -> Any:
    def connect(self: socket.socket, address: Any) -> Any:
        host = address[0] if isinstance(address, tuple) else str(address)
        if self.family in (socket.AF_INET, socket.AF_INET6) and not str(host).startswith(_LOOPBACK):
            raise RuntimeError(f"network access blocked in tests: {address!r}")
        return original(self, address)

    return connect


@pytest.fixture(autouse=True, scope="session")
def _block_network() -> Iterator[None]:
    """Refuse every non-loopback connection and every real Gemini request."""
    original = socket.socket.connect
    socket.socket.connect = _guarded_connect(original)  # type: ignore[method-assign]
    from langchain_google_genai import ChatGoogleGenerativeAI

    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("real model requests are disabled in tests")

    saved = (ChatGoogleGenerativeAI._generate, ChatGoogleGenerativeAI._agenerate)
    ChatGoogleGenerativeAI._generate = refuse  # type: ignore[method-assign]
    ChatGoogleGenerativeAI._agenerate = refuse  # type: ignore[method-assign]
    try:
        yield
    finally:
        socket.socket.connect = original  # type: ignore[method-assign]
        ChatGoogleGenerativeAI._generate, ChatGoogleGenerativeAI._agenerate = saved


@pytest.fixture(autouse=True)
def _isolated_env(
    monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """No API key, no user config file, a private data directory."""
    monkeypatch.delenv("GOOGLE_API_KEY", raising=False)
    monkeypatch.delenv("GRACE_CONFIG", raising=False)
    for key in list(os.environ):
        if key.startswith("GRACE_") and not key.startswith("GRACE_TEST_"):
            monkeypatch.delenv(key, raising=False)
    monkeypatch.setenv("GRACE_DATA_DIR", str(tmp_path_factory.mktemp("grace-data")))
    from grace.settings import get_settings

    get_settings.cache_clear()


@pytest.fixture(scope="session")
def offline_services(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """Offline services over the bundled sample corpus (built once per session)."""
    from grace.services import build_services
    from grace.settings import GraceSettings

    data_dir: Path = tmp_path_factory.mktemp("grace-session")
    services = build_services(GraceSettings(data_dir=data_dir, provider="offline"))
    yield services
    services.close()


@pytest.fixture
def cli_services(monkeypatch: pytest.MonkeyPatch) -> Callable[[Any], None]:
    """``cli_services(s)``: in-process ``grace`` commands run on ``s`` (left open).

    The CLI opens its app (``graph.cli.main._open_app``) and library
    (``graph.cli.main._library``) on services of its own built from the settings; this opens
    them on the test's services instead. Call it again to switch services within a test.
    """

    def use(services: Any) -> None:
        from grace.library import Library
        from grace.settings import get_settings
        from graph.app import GraceApp
        from graph.cli import main as cli

        def open_app(model: str | None = None, **_: Any) -> Any:
            return GraceApp.open(model=model, services=services)

        @contextlib.contextmanager
        def library() -> Iterator[Any]:
            yield Library(services.store, get_settings())

        monkeypatch.setattr(cli, "_open_app", open_app)
        monkeypatch.setattr(cli, "_library", library)

    return use


REQUIRE_POSTGRES = os.environ.get("GRACE_TEST_REQUIRE_POSTGRES", "") not in ("", "0", "false")
"""Set by ``.ci/run``: missing PostgreSQL binaries fail the Postgres tests instead of skipping."""


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    """URL of a private PostgreSQL cluster on loopback, started once per session.

    ``GRACE_TEST_POSTGRES_URL`` points the tests at a server of yours instead.
    """
    external = os.environ.get("GRACE_TEST_POSTGRES_URL")
    if external:
        yield external
        return
    from tests.integration._postgres import PostgresCluster, find_pg_bin

    bindir = find_pg_bin()
    if bindir is None:
        message = (
            "PostgreSQL server binaries not found (apt-get install postgresql, "
            "or set GRACE_TEST_PG_BIN)"
        )
        if REQUIRE_POSTGRES:
            pytest.fail(message + " and GRACE_TEST_REQUIRE_POSTGRES is set", pytrace=False)
        pytest.skip(message)
    cluster = PostgresCluster(bindir).start()
    try:
        yield cluster.url
    finally:
        cluster.stop()
