"""``langgraph dev`` for tests: the project's graph served on a free loopback port.

Started from a private working directory with a private data dir (its ``.langgraph_api``
store and threads start empty), the environment's ``GRACE_*`` / LangSmith variables left
out; its process group is killed afterwards.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import NamedTuple

import pytest

from tests.integration._postgres import free_port
from tests.integration.conftest import ROOT
from tests.langgraph_config import isolated_langgraph_config

READY_TIMEOUT = 90.0


class Server(NamedTuple):
    """A running ``langgraph dev``: its URL and its log file."""

    url: str
    log: Path


def _langgraph_cli() -> list[str]:
    exe = Path(sys.executable).parent / "langgraph"
    if exe.exists():
        return [str(exe)]
    return [sys.executable, "-m", "langgraph_cli.cli"]


def _wait_ready(proc: subprocess.Popen[bytes], url: str, log: Path) -> None:
    deadline = time.monotonic() + READY_TIMEOUT
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            pytest.fail(f"langgraph dev exited with {proc.returncode}:\n{log.read_text()[-4000:]}")
        try:
            with urllib.request.urlopen(f"{url}/ok", timeout=2) as resp:
                if resp.status == 200:
                    return
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            pass
        time.sleep(0.3)
    pytest.fail(f"langgraph dev not ready after {READY_TIMEOUT:.0f}s:\n{log.read_text()[-4000:]}")


def _env(tmp: Path, extra: Mapping[str, str]) -> dict[str, str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("GRACE_", "LANGSMITH_", "LANGCHAIN_")) or k.startswith("GRACE_TEST_")
    }
    env.pop("GOOGLE_API_KEY", None)
    env.update(
        LANGGRAPH_CLI_NO_ANALYTICS="1",
        GRACE_DATA_DIR=str(tmp / "data"),
        PYTHONUNBUFFERED="1",
    )
    return env | dict(extra)


def _stop(proc: subprocess.Popen[bytes]) -> None:
    try:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=15)
    except (ProcessLookupError, subprocess.TimeoutExpired):
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        proc.wait(timeout=5)


@contextmanager
def langgraph_dev(tmp: Path, env: Mapping[str, str] | None = None) -> Iterator[Server]:
    """``langgraph dev`` in ``tmp`` (``env``: variables to add, e.g. ``GRACE_MODELS__…``)."""
    port = free_port()
    log = tmp / "server.log"
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [
                *_langgraph_cli(),
                *("dev", "--no-browser", "--no-reload", "--port", str(port)),
                *("--config", str(isolated_langgraph_config(ROOT, tmp))),
            ],
            cwd=tmp,  # its .langgraph_api (store, threads) starts empty, every run
            env=_env(tmp, env or {}),
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    url = f"http://127.0.0.1:{port}"
    try:
        _wait_ready(proc, url, log)
        yield Server(url, log)
    finally:
        _stop(proc)
