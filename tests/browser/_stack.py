"""The browser test's stack: Agent Chat UI (an offline copy), ``langgraph dev``, Chromium.

Everything runs on loopback: the client's npm packages come from the registry once per run
(its committed lockfile, ``pnpm install --frozen-lockfile``), its Google font is replaced by
the system font (``next/font/google`` cannot fetch offline), and Debian's ``chromium`` is
driven by Playwright with ``executable_path`` (no browser download).
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import socket
import subprocess
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
REQUIRE = os.environ.get("GRACE_TEST_REQUIRE_BROWSER", "") not in ("", "0", "false")
"""Set by ``.ci/run``: a missing browser, Node.js or client is then a failure, not a skip."""
CLIENT_NAME = "agent-chat-ui"


def client_source() -> Path | None:
    """Agent Chat UI's source: ``$GRACE_TEST_AGENT_CHAT_UI``, else ``shared/clients/`` beside
    the repository (or one of its parents)."""
    if env := os.environ.get("GRACE_TEST_AGENT_CHAT_UI"):
        return Path(env) if (Path(env) / "package.json").exists() else None
    for parent in ROOT.parents:
        candidate = parent / "shared" / "clients" / CLIENT_NAME
        if (candidate / "package.json").exists():
            return candidate
    return None


def chromium_path() -> str | None:
    """Debian's Chromium: ``$GRACE_TEST_CHROMIUM`` or ``chromium`` on PATH."""
    return os.environ.get("GRACE_TEST_CHROMIUM") or shutil.which("chromium")


def missing_requirements() -> list[str]:
    """What the browser test cannot run without, in words."""
    missing = []
    if chromium_path() is None:
        missing.append("chromium (apt-get install chromium)")
    for tool in ("node", "npx"):
        if shutil.which(tool) is None:
            missing.append(f"{tool} (apt-get install nodejs npm)")
    if client_source() is None:
        missing.append(f"the {CLIENT_NAME} source (set GRACE_TEST_AGENT_CHAT_UI)")
    try:
        import playwright  # noqa: F401
    except ImportError:
        missing.append("playwright for Python (pip install -e '.[dev]')")
    return missing


def free_port() -> int:
    """A TCP port nobody listens on right now (on 127.0.0.1)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def prepare_client(source: Path, work: Path, log: Path) -> Path:
    """Copy the client to ``work``, make it offline, install its locked dependencies."""
    app = work / CLIENT_NAME
    shutil.copytree(source, app, ignore=shutil.ignore_patterns("node_modules", ".next"))
    layout = app / "src" / "app" / "layout.tsx"
    text = layout.read_text(encoding="utf-8")
    text = text.replace('import { Inter } from "next/font/google";\n', "")
    text = re.sub(
        r"const inter = Inter\(\{.*?\}\);",
        'const inter = { className: "font-sans" }; // offline: the system font',
        text,
        flags=re.S,
    )
    layout.write_text(text, encoding="utf-8")
    with log.open("ab") as out:
        subprocess.run(
            # The packageManager pin's signature check needs registry metadata a mirror may
            # lack; the lockfile alone fixes every package version.
            ["npx", "-y", "pnpm@10", "install", "--frozen-lockfile",
             "--config.manage-package-manager-versions=false"],
            cwd=app, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
            check=True, timeout=900, env={**os.environ, "CI": "1"},
        )  # fmt: skip
    return app


def start(cmd: list[str], cwd: Path, env: dict[str, str], log: Path) -> subprocess.Popen[bytes]:
    """Start ``cmd`` in its own process group, output to ``log``."""
    with log.open("ab") as out:
        return subprocess.Popen(
            cmd, cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=out,
            stderr=subprocess.STDOUT, start_new_session=True,
        )  # fmt: skip


def stop(proc: subprocess.Popen[bytes]) -> None:
    """Stop a process started by :func:`start` and its children."""
    for sig, wait in ((signal.SIGTERM, 15), (signal.SIGKILL, 5)):
        try:
            os.killpg(proc.pid, sig)
            proc.wait(timeout=wait)
            return
        except ProcessLookupError:
            return
        except subprocess.TimeoutExpired:
            continue


def wait_http(proc: subprocess.Popen[bytes], url: str, log: Path, timeout: float) -> None:
    """Wait until ``url`` answers 200 (``next dev`` compiles the page on the first request)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(
                f"{url}: process exited {proc.returncode}:\n{log.read_text()[-3000:]}"
            )
        try:
            with urllib.request.urlopen(url, timeout=timeout) as resp:  # noqa: S310 (loopback)
                if resp.status == 200:
                    return
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            time.sleep(1.0)
    raise RuntimeError(f"{url} not ready after {timeout:.0f}s:\n{log.read_text()[-3000:]}")
