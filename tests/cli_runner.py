"""The CLI run in this process, for tests that need its exit code and output."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from click.testing import Result
from typer.testing import CliRunner

from graph.cli.main import app


def invoke_cli(*args: str, code: int = 0) -> Result:
    """``grace ARGS`` in-process; asserts the exit code.

    The commands build their own services from the settings, or run on the test's
    (the ``cli_services`` fixture).
    """
    result = CliRunner().invoke(app, list(args))
    assert result.exit_code == code, (result.stdout, result.stderr, result.exception)
    return result


def run_cli_process(tmp_path: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    """``grace ARGS`` in a child process: no ``GRACE_*`` or API key from this environment (the
    child's data under ``tmp_path/data``) but ``env``; stdin is not a terminal."""
    base = {k: v for k, v in os.environ.items() if not k.startswith("GRACE_")}
    for key in ("GOOGLE_API_KEY", "OPENAI_API_KEY"):
        base.pop(key, None)
    base["GRACE_DATA_DIR"] = str(tmp_path / "data")
    return subprocess.run(
        [sys.executable, "-m", "graph.cli.main", *args],
        env={**base, **env},
        cwd=tmp_path,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=120,
    )


def run_python(tmp_path: Path, code: str) -> subprocess.CompletedProcess[str]:
    """``python -c CODE`` from the repository root, with only ``PATH`` and ``HOME`` /
    ``GRACE_DATA_DIR`` (both ``tmp_path``) in its environment."""
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "GRACE_DATA_DIR": str(tmp_path)}
    return subprocess.run(
        [sys.executable, "-c", code],
        env=env,
        cwd=Path(__file__).resolve().parents[1],
        capture_output=True,
        text=True,
        timeout=300,
    )
