"""Strict serialisation on every path: no "unregistered type" warning, whatever compiles GRACE.

The README snippet compiles ``graph.builder`` with a plain ``InMemorySaver()`` or
``SqliteSaver``; LangGraph logs "Deserializing unregistered type …" (once per type and
process) when a checkpoint holds a type its serializer was not told about. A fresh process
per saver runs to a pause and resumes, with Python warnings turned into errors, and fails
on any such log line.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = textwrap.dedent(
    """
    import sqlite3, sys
    from langgraph.checkpoint.memory import InMemorySaver
    from langgraph.checkpoint.sqlite import SqliteSaver
    from langgraph.types import Command
    from graph.builder import builder

    kind, path = sys.argv[1], sys.argv[2]
    saver = (
        InMemorySaver()
        if kind == "memory"
        else SqliteSaver(sqlite3.connect(path, check_same_thread=False))
    )
    app = builder.compile(checkpointer=saver)
    cfg = {"configurable": {"thread_id": "strict"}}
    out = app.invoke({"query": "Who won the 2018 FIFA World Cup?"}, cfg)
    assert "__interrupt__" in out, out
    out = app.invoke(Command(resume={"type": "response", "args": "France won it."}), cfg)
    assert "France" in out["answer"], out
    app.get_state(cfg)
    print("ok")
    """
)


@pytest.mark.parametrize("saver", ["memory", "sqlite"])
def test_builder_compiled_with_a_plain_saver_logs_no_unregistered_type(
    saver: str, tmp_path: Path
) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GRACE_")}
    env.pop("LANGGRAPH_STRICT_MSGPACK", None)
    env["GRACE_DATA_DIR"] = str(tmp_path / "data")
    proc = subprocess.run(
        [sys.executable, "-W", "error", "-c", SCRIPT, saver, str(tmp_path / "cp.sqlite")],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert proc.stdout.strip().endswith("ok")
    assert "unregistered type" not in proc.stderr, proc.stderr[-3000:]
