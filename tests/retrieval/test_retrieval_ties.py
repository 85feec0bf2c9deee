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


def test_scores_equal_but_in_the_engines_last_digit_tie() -> None:
    """Two chunks that score the same but in the engine's last (single-precision) digit.

    The engine's last digit is not the same on every run of one search, so such hits came
    back in either order and the reader answered from either: they are ranked as a tie
    (document, then position). A difference in the sixth digit still ranks.
    """
    from grace.retrieval.backends.common import TIE_DIGITS, _rank_key, chunk_from_payload
    from grace.retrieval.types import RetrievedChunk

    def hit(raw: float, chunk: int) -> RetrievedChunk:  # as the store makes it
        meta = {"source": "mill.md", "title": "Mill", "chunk_index": chunk}
        return chunk_from_payload(
            {"page_content": "", "metadata": meta}, f"c{chunk}", "notes", 0.5, raw
        )

    assert TIE_DIGITS == 6
    noisy = [hit(6.3993616104125980, 10), hit(6.3993611335754395, 4)]
    assert [h.chunk_index for h in sorted(noisy, key=_rank_key)] == [4, 10]
    apart = [hit(6.39936, 10), hit(6.39926, 4)]
    assert [h.chunk_index for h in sorted(apart, key=_rank_key)] == [10, 4]


def test_a_hits_scores_are_kept_to_the_ranking_digits() -> None:
    """A hit's scores are the same on every run: the engine's noisy last digit is dropped."""
    from grace.retrieval.backends.common import chunk_from_payload, stable_score

    hit = chunk_from_payload(
        {"page_content": "x", "metadata": {"source": "mill.md"}}, "p1", "notes",
        0.55172704503758, 6.399361610412598,
    )
    assert (hit.score, hit.raw_score) == (0.551727, 6.39936)
    assert stable_score(6.3993616104125980) == stable_score(6.3993611335754395)
