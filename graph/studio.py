"""The graph LangGraph Studio / ``langgraph dev`` serves (``langgraph.json``: ``graph``).

A compiled graph without a checkpointer (the server brings its own), over services of its
own built from the settings on its first run. Only the server imports this module; the CLI
and :class:`graph.app.GraceApp` compile their own graph.

Why a compiled graph and not a factory: the server calls a graph factory for every run,
state read and schema fetch (``langgraph_sdk.runtime.ServerRuntime``), and GRACE's
dependencies (an open store with its lock, the sample corpus, the models) are built once,
not per call — a factory would have to keep them in a module global, which is what the
graph factory's arguments replace. Per-run choices (model, user, collection, top-k) come in
each run's ``context`` (an assistant's config in Studio).
"""

from __future__ import annotations

from graph.builder import make_graph

__all__ = ["graph"]

graph = make_graph(name="grace")
