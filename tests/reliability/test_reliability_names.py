"""Collection names: one pattern everywhere, a clear one-line refusal, any script allowed."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from langgraph.checkpoint.memory import InMemorySaver

from grace.context import GraceContext
from grace.errors import InvalidCollectionError
from grace.retrieval import StoreOptions, ingest_paths, open_store
from grace.settings import GraceSettings
from grace.storage.names import check_collection_name
from grace.storage.serde import use_grace_serializer
from graph.app import GraceApp
from graph.builder import make_graph
from tests.reliability.conftest import SIMPLE, cfg, grace_cli

ROOT = Path(__file__).resolve().parents[2]
BAD = ["../../x", "a/b", ".hidden", "", "x" * 129, "tab\tname", "_private"]


@pytest.mark.parametrize("name", BAD)
def test_bad_names_are_refused_with_the_rule(name: str) -> None:
    with pytest.raises(InvalidCollectionError, match="letters, digits"):
        check_collection_name(name)


@pytest.mark.parametrize("name", ["grace", "my-docs_2024.v2", "霧ヶ丘", "x" * 128])
def test_good_names_pass(name: str) -> None:
    assert check_collection_name(name) == name


@pytest.mark.parametrize("command", [["ask", "q", "--json"], ["ingest", "README.md"]])
def test_cli_refuses_a_path_like_collection_in_one_line(tmp_path: Path, command: list[str]) -> None:
    proc = grace_cli(tmp_path, *command, "--collection", "../../x")
    assert proc.returncode == 2
    assert proc.stderr.startswith("error: invalid collection name '../../x'")
    assert "Traceback" not in proc.stderr
    assert not (tmp_path.parent / "x").exists()


def test_settings_refuse_a_bad_default_collection() -> None:
    with pytest.raises(ValueError, match="retrieval.collection|pattern"):
        GraceSettings(retrieval={"collection": "../x"})


def test_python_api_and_graph_context_refuse_it(offline: Any) -> None:
    app = GraceApp(offline.settings, use_grace_serializer(InMemorySaver()), services=offline)
    with pytest.raises(InvalidCollectionError):
        app.ask(SIMPLE, context=GraceContext(collection="../x"))
    graph = make_graph(services=offline, checkpointer=InMemorySaver())
    with pytest.raises(InvalidCollectionError):
        graph.invoke({"query": SIMPLE}, cfg("bad-ctx"), context=GraceContext(collection="a/b"))


def test_ingest_refuses_it_and_a_japanese_name_works(tmp_path: Path) -> None:
    doc = tmp_path / "note.md"
    doc.write_text("# 霧ヶ丘\n\n霧ヶ丘の図書館は月曜日が休館日です。\n", encoding="utf-8")
    # A store of its own: a collection named like the sample's town would steer the
    # session's planner towards it in other tests.
    with open_store("edge", StoreOptions(path=tmp_path / "qdrant")) as store:
        with pytest.raises(InvalidCollectionError):
            ingest_paths(store, [doc], collection="../x")
        report = ingest_paths(store, [doc], collection="霧ヶ丘")
        assert report.chunks == 1 and store.list_collections() == ["霧ヶ丘"]
