"""``grace ui``: serve the page with Streamlit on loopback, usage statistics off.

Imports no Streamlit itself (``grace --help`` stays fast, and a missing extra is one line):
the page runs in ``python -m streamlit run`` with the options below.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

__all__ = ["DEFAULT_PORT", "PAGE", "UiSetupError", "serve", "streamlit_command"]

DEFAULT_PORT = 8501
"""Streamlit's usual port."""
PAGE = Path(__file__).with_name("page.py")
"""The script Streamlit runs."""

_OPTIONS = {
    "server.address": "127.0.0.1",  # loopback only: the page reads and writes your data
    "server.headless": "true",  # print the URL, open no browser
    "server.fileWatcherType": "none",
    "server.runOnSave": "false",
    "browser.gatherUsageStats": "false",  # offline: no statistics are sent anywhere
    "client.showErrorDetails": "none",  # errors are one message in the page, no traceback
    "client.toolbarMode": "minimal",
    "global.developmentMode": "false",
    "theme.base": "light",
    "theme.primaryColor": "#3b5bdb",
}
"""Streamlit's options for the page (command-line flags override a user's config.toml)."""


class UiSetupError(RuntimeError):
    """The page cannot be served (Streamlit is not installed)."""


def streamlit_command(port: int = DEFAULT_PORT) -> list[str]:
    """The command that serves the page on ``127.0.0.1:port``."""
    flags = [f"--{name}={value}" for name, value in {**_OPTIONS, "server.port": port}.items()]
    return [sys.executable, "-m", "streamlit", "run", str(PAGE), *flags]


def serve(port: int = DEFAULT_PORT) -> int:
    """Serve the page until interrupted; the server's exit status.

    Raises:
        UiSetupError: Streamlit is not installed (the ``ui`` extra).

    """
    if importlib.util.find_spec("streamlit") is None:
        raise UiSetupError(
            "grace ui needs Streamlit: pip install 'grace-agent[ui]' (or pip install streamlit)"
        )
    env = {**os.environ, "STREAMLIT_BROWSER_GATHER_USAGE_STATS": "false"}
    try:
        return subprocess.call(streamlit_command(port), env=env)
    except KeyboardInterrupt:  # Ctrl-C reaches the server too: it stops on its own
        return 130
