"""The page's first answer (``grace ui``) against ``grace ask``, on a warm data directory.

Both run on one data directory that already holds the sample corpus (its first, ingesting
``grace ask`` is not timed). ``grace ask --json`` is timed from the process's start to its
exit. The page is served by a fresh ``grace ui`` each time (nothing of GRACE is built yet:
the server builds its app on the first page view) and driven by Debian's Chromium through
Playwright; two figures per fresh server:

- ``page_ask_s``: from pressing Enter in the chat box to the answer shown — what a person
  waits for, on a page they have opened;
- ``page_open_and_ask_s``: from loading the page's address to the answer shown, i.e. with
  the page's first load (which opens the app: store, threads, models) counted too;

and ``page_second_ask_s``, a second question in the same tab (the app open). The goal is
the first answer within 2x the CLI's time.
"""

from __future__ import annotations

import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.startup import QUESTION, offline_env

__all__ = ["ui_first_answer"]

_CLI = [sys.executable, "-m", "graph.cli.main"]
SECOND = "How long is the breakwater that shelters the Port of Lumen Bay?"
GOAL_RATIO = 2.0


def _env(data_dir: str) -> dict[str, str]:
    """:func:`bench.startup.offline_env` without the caller's ``STREAMLIT_`` settings."""
    return {k: v for k, v in offline_env(data_dir).items() if not k.startswith("STREAMLIT_")}


def _cli_seconds(env: dict[str, str]) -> float:
    start = time.perf_counter()
    subprocess.run([*_CLI, "ask", QUESTION, "--json"], env=env, capture_output=True, check=True)
    return time.perf_counter() - start


def _answered(page: Any, question: str) -> float:
    """Send ``question``; seconds from Enter to the answer shown."""
    box = page.get_by_placeholder("Ask a question").or_(
        page.get_by_placeholder("Ask a follow-up in this thread")
    )
    box.fill(question)
    start = time.perf_counter()
    box.press("Enter")
    page.get_by_text("calibrated P(answer correct)").wait_for()
    return time.perf_counter() - start


def _page_seconds(env: dict[str, str], browser: Any, work: Path) -> dict[str, float]:
    from tests.browser import _stack

    port = _stack.free_port()
    log = work / f"ui-{port}.log"
    server = _stack.start([*_CLI, "ui", "--port", str(port)], work, env, log)
    try:
        _stack.wait_http(server, f"http://127.0.0.1:{port}/_stcore/health", log, 120)
        page = browser.new_page()
        page.set_default_timeout(120_000)
        start = time.perf_counter()
        page.goto(f"http://127.0.0.1:{port}/")
        page.get_by_placeholder("Ask a question").wait_for()
        ask = _answered(page, QUESTION)
        opened = time.perf_counter() - start
        page.get_by_role("button", name="New thread").click()
        page.get_by_placeholder("Ask a question").wait_for()
        second = _answered(page, SECOND)
        page.close()
    finally:
        _stack.stop(server)
    return {"ask": ask, "open": opened, "second": second}


def ui_first_answer(runs: int = 3) -> dict[str, Any]:
    """Median seconds of ``grace ask`` and of the page's first answer; their ratio."""
    from playwright.sync_api import sync_playwright

    from tests.browser import _stack

    chromium = _stack.chromium_path() or shutil.which("chromium")
    if chromium is None:
        raise RuntimeError("the ui benchmark needs Debian's chromium (apt-get install chromium)")
    with tempfile.TemporaryDirectory(prefix="grace-bench-ui-") as tmp:
        env = _env(str(Path(tmp) / "data"))
        subprocess.run([*_CLI, "ask", QUESTION, "--json"], env=env, capture_output=True, check=True)
        cli = [_cli_seconds(env) for _ in range(runs)]
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=chromium)
            pages = [_page_seconds(env, browser, Path(tmp)) for _ in range(runs)]
            browser.close()
    cli_s = statistics.median(cli)
    ask_s = statistics.median(r["ask"] for r in pages)
    open_s = statistics.median(r["open"] for r in pages)
    return {
        "runs": runs,
        "cli_ask_s": round(cli_s, 3),
        "page_ask_s": round(ask_s, 3),
        "page_open_and_ask_s": round(open_s, 3),
        "page_second_ask_s": round(statistics.median(r["second"] for r in pages), 3),
        "ratio": round(ask_s / cli_s, 2),
        "ratio_with_page_load": round(open_s / cli_s, 2),
        "goal": {"ratio": GOAL_RATIO},
        "met": ask_s / cli_s <= GOAL_RATIO,
    }
