"""GRACE's public Python surface: the graph, its context and the run helpers."""

from graph.builder import builder, graph, make_builder

__all__ = ["builder", "graph", "make_builder"]
