"""Chunks tied at the k-th place: every run keeps the same ones, in document order."""

from __future__ import annotations

from pathlib import Path

import pytest

from grace.retrieval import CorpusStore, StoreOptions, ingest_paths, open_store


def _open(kind: str, path: Path) -> CorpusStore:
    if kind == "edge":
        return open_store("edge", StoreOptions(path=path))
    from qdrant_client import QdrantClient

    from grace.retrieval.backends.server import ServerStore

    return ServerStore(client=QdrantClient(location=":memory:"))


@pytest.mark.parametrize("kind", ["edge", "server"])
def test_tied_hits_are_the_same_whatever_the_ingest_order(tmp_path: Path, kind: str) -> None:
    files = []
    for i in range(10):
        f = tmp_path / "docs" / f"note-{i:02d}.md"
        f.parent.mkdir(exist_ok=True)
        f.write_text("# Lantern notes\n\nThe brass lantern glows at dusk.\n", encoding="utf-8")
        files.append(f)
    seen = []
    for order, paths in (("forward", files), ("backward", files[::-1])):
        with _open(kind, tmp_path / order) as store:
            for path in paths:  # one ingest per file: the points land in this order
                ingest_paths(store, [path], collection="notes")
            hits = store.search("brass lantern", collection="notes", k=3).hits
        assert len({h.raw_score for h in hits}) == 1, "the ten chunks must tie"
        seen.append([h.source for h in hits])
    assert seen[0] == seen[1] == ["note-00.md", "note-01.md", "note-02.md"]
