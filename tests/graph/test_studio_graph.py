"""The graph ``langgraph.json`` names, loaded the way ``langgraph dev`` loads it.

The server imports the file by path and reads the variable from the module's ``__dict__``
(a module ``__getattr__`` would not do): it must be a compiled graph without a checkpointer
(``langgraph dev`` refuses one with its own), whose services are its own and not built until
its first run. ``tests/integration/test_studio_server.py`` runs it in a real server.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

from langgraph.pregel import Pregel

from grace.services import LazyServices

ROOT = Path(__file__).resolve().parents[2]


def test_langgraph_json_names_a_compiled_graph_in_the_modules_dict() -> None:
    config = json.loads((ROOT / "langgraph.json").read_text(encoding="utf-8"))
    path, variable = config["graphs"]["grace"].split(":")
    assert path == "./graph/studio.py"
    spec = importlib.util.spec_from_file_location("graph__studio_test", ROOT / path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    served = module.__dict__[variable]
    assert isinstance(served, Pregel) and served.name == "grace"
    assert served.checkpointer is None and served.store is None
    services = served.builder.services  # type: ignore[attr-defined]
    assert isinstance(services, LazyServices) and services.ready() is None  # built on a run
