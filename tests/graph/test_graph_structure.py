"""The graph's shape: the nodes, conditional edges out of confidence and intervene."""

from __future__ import annotations

from pathlib import Path

from graph.builder import builder, graph

SNAPSHOT = Path(__file__).parent / "graph.mmd"


def test_graph_has_the_six_nodes() -> None:
    nodes = set(graph.get_graph().nodes)
    assert {"plan", "execute", "confidence", "pause", "intervene", "replan", "finalize"} <= nodes


def test_conditional_edges_out_of_confidence_cover_every_route() -> None:
    edges = graph.get_graph().edges
    out = {(e.data, e.target) for e in edges if e.source == "confidence"}
    assert all(e.conditional for e in edges if e.source == "confidence")
    assert out == {
        ("SILENT/NOTIFY", "execute"),
        ("CONFIRM/ESCALATE", "pause"),
        ("failed/low confidence", "replan"),
        ("all done", "finalize"),
    }
    assert [(e.source, e.target) for e in edges if e.source == "pause"] == [("pause", "intervene")]
    after_intervene = {(e.data, e.target) for e in edges if e.source == "intervene"}
    assert after_intervene == {
        ("accept", "execute"),
        ("edit/response", "replan"),
        ("ignore or done", "finalize"),
    }


def test_mermaid_snapshot() -> None:
    mermaid = builder.compile().get_graph().draw_mermaid()
    assert SNAPSHOT.read_text(encoding="utf-8") == mermaid, (
        "graph changed: regenerate tests/graph/graph.mmd and the README diagram with "
        "`python -m graph.diagram --write`"
    )


def test_compiled_graph_has_no_checkpointer() -> None:
    assert graph.checkpointer is None
