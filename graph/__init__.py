"""GRACE's public Python surface: the graph, its context and the run helpers.

``builder``, ``graph``, ``make_builder`` and ``make_graph`` (from :mod:`graph.builder`) are
loaded on first use, so that ``grace --help`` and other light commands do not pay for
building the graph; ``builder`` and ``graph`` themselves are made on first access (each with
services of its own, built on its first run), so even importing :mod:`graph.builder`
compiles nothing. They are properties of the package (not plain attributes) because
importing the submodule ``graph.builder`` would otherwise rebind ``graph.builder`` to the
module.
"""

from __future__ import annotations

import importlib
import sys
import types
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from graph.builder import builder, graph, make_builder, make_graph

__all__ = ["builder", "graph", "make_builder", "make_graph"]


def _export(name: str) -> property:
    def get(_: types.ModuleType) -> Any:
        return getattr(importlib.import_module("graph.builder"), name)

    def ignore(_: types.ModuleType, __: Any) -> None:
        """The import system binds the submodule here; the export stays."""

    return property(get, ignore)


class _Package(types.ModuleType):
    builder = _export("builder")
    graph = _export("graph")
    make_builder = _export("make_builder")
    make_graph = _export("make_graph")


sys.modules[__name__].__class__ = _Package
