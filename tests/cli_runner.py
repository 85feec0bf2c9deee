"""The CLI run in this process, for tests that need its exit code and output."""

from __future__ import annotations

from click.testing import Result
from typer.testing import CliRunner

from graph.cli import app


def invoke_cli(*args: str, code: int = 0) -> Result:
    """``grace ARGS`` in-process with the services in force; asserts the exit code."""
    result = CliRunner().invoke(app, list(args))
    assert result.exit_code == code, (result.stdout, result.stderr, result.exception)
    return result
