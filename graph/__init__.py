"""GRACE's front door: the graph factory, the Python API, the CLI and the page.

The graph lives in :mod:`graph.builder`: ``from graph.builder import builder, graph,
make_builder, make_graph``. ``builder`` (uncompiled) and ``graph`` (compiled) are made on
first access, each with services of its own built on its first run, so importing
:mod:`graph.builder` compiles nothing; this package imports nothing, so that ``grace --help``
and other light commands do not pay for the graph.
"""
