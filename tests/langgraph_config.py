"""A ``langgraph.json`` for test servers, so their state stays out of the repository."""

from __future__ import annotations

import json
from pathlib import Path


def isolated_langgraph_config(root: Path, work: Path) -> Path:
    """Write the project's ``langgraph.json`` with absolute paths into ``work``; its path.

    ``langgraph dev`` keeps its in-memory store, threads and checkpoints in ``.langgraph_api``
    under its working directory, reloaded at the next start. Run from the repository, a test
    server inherits earlier runs' store (a user's adapted thresholds) and results change from
    one local run to the next; run from ``work`` with this config, every server starts empty.
    The config names no ``env`` file: a developer's ``.env`` (a real API key) never reaches a
    test server, whose environment is the one the test gives it.
    """
    config = json.loads((root / "langgraph.json").read_text(encoding="utf-8"))
    config["dependencies"] = [str(root)]
    config["graphs"] = {k: str(root / v) for k, v in config["graphs"].items()}
    config.pop("env", None)
    target = work / "langgraph.json"
    target.write_text(json.dumps(config), encoding="utf-8")
    return target
