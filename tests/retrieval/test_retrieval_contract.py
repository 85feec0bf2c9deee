"""The :class:`CorpusStore` contract, run against every backend.

``edge`` is the real embedded engine on disk; ``server`` is the langchain-qdrant backend on
an in-memory Qdrant client (the same client API a server answers; no network in tests).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from grace.retrieval import (
    CorpusStore,
    StoreOptions,
    UnknownCollectionError,
    ingest_paths,
    open_store,
)
from tests.retrieval.test_retrieval_store import HashingEmbeddings

EN = [
    "The horse tram line opened on 2 August 1874 between the station and the quay.",
    "The lighthouse on Wren Point was designed by the engineer Mara Quill.",
    "The lantern festival is held every year on the first Saturday of October.",
]
JA = [
    "霧ヶ丘の鉄道は1921年に開業し、町と港を結んだ。",
    "霧ヶ丘の秋祭りでは灯籠が川に流される。",
]


def _ids(n: int, start: int = 0) -> list[str]:
    return [f"00000000-0000-4000-8000-{i:012d}" for i in range(start, start + n)]


def _metas(source: str, n: int) -> list[dict[str, object]]:
    return [
        {"source": source, "title": source.removesuffix(".md"), "chunk_index": i} for i in range(n)
    ]


def _open(kind: str, path: Path, dense: bool = False) -> CorpusStore:
    embeddings = HashingEmbeddings() if dense else None
    if kind == "edge":
        return open_store("edge", StoreOptions(path=path, dense_embeddings=embeddings))
    from qdrant_client import QdrantClient

    from grace.retrieval.backends.server import ServerStore

    return ServerStore(client=QdrantClient(location=":memory:"), dense_embeddings=embeddings)


@pytest.fixture(params=["edge", "server"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[CorpusStore]:
    with _open(request.param, tmp_path / "store") as s:
        s.add_chunks("docs", EN, _metas("lumen.md", 3), _ids(3))
        s.add_chunks("docs", JA, _metas("ja-kiri.md", 2), _ids(2, start=10))
        yield s


def test_store_satisfies_the_protocol(store: CorpusStore) -> None:
    assert isinstance(store, CorpusStore)
    assert store.mode == "sparse"


def test_english_round_trip(store: CorpusStore) -> None:
    result = store.search("When did the horse tram line open?", collection="docs", k=2)
    top = result.hits[0]
    assert top.text == EN[0] and top.source == "lumen.md" and top.title == "lumen"
    assert top.chunk_index == 0 and top.collection == "docs" and top.chunk_id == _ids(1)[0]
    assert 0.8 < top.score <= 1.0 and top.raw_score > 0
    assert result.stats.count == len(result.hits) and result.stats.max_score == top.score


def test_japanese_round_trip(store: CorpusStore) -> None:
    result = store.search("霧ヶ丘の鉄道はいつ開業した？", collection="docs", k=2)
    assert result.hits[0].text == JA[0] and result.hits[0].source == "ja-kiri.md"
    assert result.hits[0].score > 0.6


def test_upsert_same_ids_replaces_never_duplicates(store: CorpusStore) -> None:
    assert store.count("docs") == 5
    store.add_chunks(
        "docs", ["The horse tram line closed in 1931."], _metas("lumen.md", 1), _ids(1)
    )
    assert store.count("docs") == 5
    hit = store.search("horse tram closed", collection="docs", k=1).hits[0]
    assert hit.text == "The horse tram line closed in 1931."


def test_sources_listed_and_deleted_by_source(store: CorpusStore) -> None:
    assert store.list_sources("docs") == ["ja-kiri.md", "lumen.md"]
    assert store.source_point_ids("docs", "lumen.md") == set(_ids(3))
    assert store.point_ids_by_source("docs") == {
        "lumen.md": set(_ids(3)),
        "ja-kiri.md": set(_ids(2, start=10)),
    }
    assert store.delete_source("docs", "lumen.md") == 3
    assert store.count("docs") == 2 and store.list_sources("docs") == ["ja-kiri.md"]
    assert store.search("horse tram", collection="docs").hits == []
    assert store.delete_source("docs", "lumen.md") == 0
    store.delete_points("docs", _ids(1, start=10))
    assert store.count("docs") == 1


def test_collections_and_unknown_names(store: CorpusStore) -> None:
    assert store.list_collections() == ["docs"] and store.has_collection("docs")
    store.ensure_collection("empty")
    assert store.list_collections() == ["docs", "empty"] and store.count("empty") == 0
    assert store.search("tram", collection="empty").hits == []
    with pytest.raises(UnknownCollectionError):
        store.search("tram", collection="nope")
    with pytest.raises(UnknownCollectionError):
        store.count("nope")
    assert not store.has_collection("nope") and store.list_sources("nope") == []


def test_dense_modes_need_an_embedding_model(store: CorpusStore) -> None:
    with pytest.raises(ValueError, match="dense embedding model"):
        store.search("tram", collection="docs", mode="hybrid")
    assert store.search("tram", collection="docs", k=0).hits == []


@pytest.mark.parametrize("kind", ["edge", "server"])
def test_sparse_dense_and_hybrid_searches(tmp_path: Path, kind: str) -> None:
    with _open(kind, tmp_path / "h", dense=True) as s:
        assert s.mode == "hybrid"
        s.add_chunks("docs", EN, _metas("lumen.md", 3), _ids(3))
        query = "Who designed the lighthouse on Wren Point?"
        for mode in ("sparse", "dense", "hybrid"):
            result = s.search(query, collection="docs", k=3, mode=mode)  # type: ignore[arg-type]
            assert result.hits[0].text == EN[1], mode
            assert all(0.0 <= h.score <= 1.0 for h in result.hits)
        dense = s.search(query, collection="docs", k=1, mode="dense").hits[0]
        assert dense.score == pytest.approx(dense.raw_score, abs=1e-4)  # the cosine itself


@pytest.mark.parametrize("kind", ["edge", "server"])
def test_close_is_idempotent_and_ingest_works_on_every_backend(
    tmp_path: Path, kind: str, corpus_dir: Path
) -> None:
    s = _open(kind, tmp_path / "c")
    report = ingest_paths(s, [corpus_dir], collection="kb")
    assert report.files == 3 and s.count("kb") == report.chunks
    again = ingest_paths(s, [corpus_dir], collection="kb")
    assert again.written == 0 and s.count("kb") == report.chunks
    s.flush()
    s.close()
    s.close()


def test_sparse_collection_opened_with_an_embedding_model_stays_lexical(tmp_path: Path) -> None:
    # A collection made offline, later opened with dense embeddings (an API key was set).
    with _open("edge", tmp_path / "s") as offline:
        offline.add_chunks("docs", EN, _metas("lumen.md", 3), _ids(3))
    with _open("edge", tmp_path / "s", dense=True) as online:
        assert online.mode == "hybrid"
        online.add_chunks("docs", JA[:1], _metas("ja-kiri.md", 1), _ids(1, start=10))
        assert online.count("docs") == 4
        hit = online.search("Who designed the lighthouse on Wren Point?", collection="docs").hits[0]
        assert hit.text == EN[1]
        with pytest.raises(ValueError, match="no dense vectors"):
            online.search("lighthouse", collection="docs", mode="dense")
        online.ensure_collection("fresh")  # new collections get the dense vector
        online.add_chunks("fresh", EN, _metas("lumen.md", 3), _ids(3))
        assert online.search("lighthouse", collection="fresh", mode="dense").hits


@pytest.mark.parametrize("kind", ["edge", "server"])
@pytest.mark.parametrize(
    ("chunks", "query", "expected"),
    [
        (
            [
                ("Grellan Observatory", "Its main telescope has a 1.2-metre mirror."),
                ("Harbour Museum", "Its old telescope has a small mirror."),
            ],
            "Grellan Observatory telescope mirror",
            "Its main telescope has a 1.2-metre mirror.",
        ),
        (
            [
                ("霧ヶ丘鉄道", "路線の長さは12.4キロメートルである。"),
                ("港町バス", "路線の長さは8キロメートルである。"),
            ],
            "霧ヶ丘鉄道の路線の長さは？",
            "路線の長さは12.4キロメートルである。",
        ),
    ],
)
def test_a_chunk_is_found_by_its_document_title(
    kind: str, tmp_path: Path, chunks: list[tuple[str, str]], query: str, expected: str
) -> None:
    with _open(kind, tmp_path / "store") as s:
        for n, (title, text) in enumerate(chunks):
            s.add_chunks("docs", [text], [{"source": f"d{n}.md", "title": title}], _ids(1, n))
        hits = s.search(query, collection="docs", k=2).hits
        assert hits[0].text == expected  # the title is indexed, never added to the text
        assert hits[0].score < 1.0  # a title token counts below one the chunk holds
        assert hits[0].score > hits[1].score
