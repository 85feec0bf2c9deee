"""``synchronous=NORMAL`` keeps every committed checkpoint across a SIGKILL of the process.

A child process runs a graph on :func:`checkpoints.open_checkpointer` (WAL,
``synchronous=NORMAL``) with ``durability="sync"`` and kills itself with SIGKILL right
after the run returns, before closing the connection (no WAL checkpoint, no clean close).
A fresh connection must see the run's final checkpoint.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

from checkpoints import open_checkpointer

ROOT = Path(__file__).resolve().parents[2]

CHILD = textwrap.dedent(
    """
    import operator, os, signal, sys
    from typing import Annotated, TypedDict
    from langgraph.graph import END, START, StateGraph
    from checkpoints import open_checkpointer

    class S(TypedDict):
        n: Annotated[int, operator.add]

    b = StateGraph(S)
    for i in range(5):
        b.add_node(f"n{i}", lambda s: {"n": 1})
    b.add_edge(START, "n0")
    for i in range(4):
        b.add_edge(f"n{i}", f"n{i + 1}")
    b.add_edge("n4", END)
    with open_checkpointer("sqlite", sqlite_path=sys.argv[1]) as saver:
        graph = b.compile(checkpointer=saver)
        out = graph.invoke({"n": 0}, {"configurable": {"thread_id": "k"}}, durability="sync")
        assert out["n"] == 5
        os.kill(os.getpid(), signal.SIGKILL)
    """
)


def test_checkpoints_survive_sigkill_with_synchronous_normal(tmp_path: Path) -> None:
    db = tmp_path / "cp.sqlite"
    proc = subprocess.run(
        [sys.executable, "-c", CHILD, str(db)],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == -signal.SIGKILL, proc.stderr
    with open_checkpointer("sqlite", sqlite_path=db) as saver:
        saved = saver.get_tuple({"configurable": {"thread_id": "k"}})
    assert saved is not None
    assert saved.checkpoint["channel_values"]["n"] == 5
    assert saved.metadata["step"] == 5
