from __future__ import annotations

import asyncio
import hashlib
import math
from pathlib import Path

import pytest
from langchain_core.embeddings import Embeddings

from grace.retrieval import (
    CorpusStore,
    SearchResult,
    StoreOptions,
    UnknownCollectionError,
    ensure_sample_corpus,
    ingest_paths,
    open_store,
)
from grace.retrieval.tokenize import tokenize


def _open(kind: str, path: Path, **options: object) -> CorpusStore:
    """The edge backend on disk, or the server backend on an in-memory Qdrant client."""
    if kind == "edge":
        return open_store("edge", StoreOptions(path=path, **options))  # type: ignore[arg-type]
    from qdrant_client import QdrantClient

    from grace.retrieval.backends.server import ServerStore

    return ServerStore(client=QdrantClient(location=":memory:"), **options)  # type: ignore[arg-type]


def _check_stats(result: SearchResult) -> None:
    scores = [h.score for h in result.hits]
    assert all(0.0 <= s <= 1.0 for s in scores)
    assert result.stats.count == len(scores)
    if scores:
        assert result.stats.max_score == pytest.approx(max(scores))
        assert result.stats.mean_score == pytest.approx(sum(scores) / len(scores))
        assert result.stats.spread == pytest.approx(max(scores) - min(scores))
        assert scores == sorted(scores, reverse=True), f"hits out of rank order: {scores}"
        raw = [h.raw_score for h in result.hits]
        assert raw == sorted(raw, reverse=True), f"raw scores out of rank order: {raw}"


def test_japanese_question_retrieves_japanese_passage(store: CorpusStore, corpus_dir: Path) -> None:
    ingest_paths(store, [corpus_dir], collection="docs")
    result = store.search("豪雨となりやすいのは梅雨のいつごろか？", collection="docs", k=3)
    assert result.hits[0].source == "ja-tsuyu.md"
    assert "末期" in result.hits[0].text
    _check_stats(result)


def test_scores_normalised_and_separate_answerable(store: CorpusStore, corpus_dir: Path) -> None:
    ingest_paths(store, [corpus_dir], collection="docs")
    good = store.search("What is used to examine steam engine performance?", collection="docs")
    bad = store.search("Which network broadcast the Super Bowl?", collection="docs")
    _check_stats(good)
    _check_stats(bad)
    assert good.stats.max_score > 0.8
    assert bad.stats.max_score < 0.3
    assert good.hits[0].raw_score > good.hits[0].score * 0  # raw BM25 kept


def test_edge_and_server_backends_rank_and_score_alike(tmp_path: Path, corpus_dir: Path) -> None:
    queries = ["steam engine performance", "梅雨の末期", "capital of Poland", "zzz unknown"]
    results = {}
    for kind in ("edge", "server"):
        with _open(kind, tmp_path / kind) as s:
            ingest_paths(s, [corpus_dir], collection="docs")
            results[kind] = [s.search(q, collection="docs", k=4) for q in queries]
    assert results["edge"][0].hits and not results["edge"][3].hits
    for a, b in zip(results["edge"], results["server"], strict=True):
        assert [h.chunk_id for h in a.hits] == [h.chunk_id for h in b.hits]
        for x, y in zip(a.hits, b.hits, strict=True):
            assert x.raw_score == pytest.approx(y.raw_score, rel=1e-4)
            assert x.score == pytest.approx(y.score, rel=1e-4)


def test_unknown_collection_raises_and_is_not_created(store: CorpusStore, corpus_dir: Path) -> None:
    ingest_paths(store, [corpus_dir], collection="docs")
    with pytest.raises(UnknownCollectionError) as info:
        store.search("steam", collection="nope")
    assert "nope" in str(info.value) and "'docs'" in str(info.value)
    assert isinstance(info.value, LookupError)
    assert not store.has_collection("nope")
    assert store.list_collections() == ["docs"]
    with pytest.raises(UnknownCollectionError):
        store.count("nope")


def test_default_collection_and_empty_query(tmp_path: Path, corpus_dir: Path) -> None:
    with _open("edge", tmp_path / "q", default_collection="kb") as s:
        ingest_paths(s, [corpus_dir])
        assert s.list_collections() == ["kb"]
        assert s.search("Warsaw capital").collection == "kb"
        empty = s.search("the of and")
        assert empty.hits == [] and empty.stats.count == 0


async def test_asearch(store: CorpusStore, corpus_dir: Path) -> None:
    ingest_paths(store, [corpus_dir], collection="docs")
    results = await asyncio.gather(
        store.asearch("steam engine", collection="docs"),
        store.asearch("Warsaw", collection="docs"),
    )
    assert results[0].hits[0].source == "steam-engine.md"
    assert results[1].hits[0].source == "warsaw.md"


def test_reopen_edge_store_keeps_data(tmp_path: Path, corpus_dir: Path) -> None:
    with _open("edge", tmp_path / "q") as s:
        ingest_paths(s, [corpus_dir], collection="docs")
    with _open("edge", tmp_path / "q") as s:
        assert s.count("docs") == 7
        assert s.search("Vistula", collection="docs").hits[0].source == "warsaw.md"


def test_ensure_sample_corpus(store: CorpusStore) -> None:
    from grace.retrieval.sample import SAMPLE_CORPUS_DIR

    if not SAMPLE_CORPUS_DIR.is_dir():
        pytest.skip("sample corpus not bundled yet")
    report = ensure_sample_corpus(store)
    assert report is not None and report.files > 0 and store.count() > 0
    assert ensure_sample_corpus(store) is None


class HashingEmbeddings(Embeddings):
    """Deterministic bag-of-tokens dense embeddings (scripted, offline)."""

    dim = 64

    def _embed(self, text: str) -> list[float]:
        vec = [0.0] * self.dim
        for tok in tokenize(text):
            h = int(hashlib.sha256(tok.encode()).hexdigest(), 16)
            vec[h % self.dim] += 1.0
        norm = math.sqrt(sum(v * v for v in vec)) or 1.0
        return [v / norm for v in vec]

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return [self._embed(t) for t in texts]

    def embed_query(self, text: str) -> list[float]:
        return self._embed(text)


@pytest.mark.parametrize("kind", ["edge", "server"])
def test_hybrid_mode(tmp_path: Path, corpus_dir: Path, kind: str) -> None:
    with _open(kind, tmp_path / "h", dense_embeddings=HashingEmbeddings()) as s:
        assert s.mode == "hybrid"
        ingest_paths(s, [corpus_dir], collection="docs")
        result = s.search("steam engine indicator performance", collection="docs", k=3)
        assert result.hits[0].source == "steam-engine.md"
        _check_stats(result)
        assert result.hits[0].raw_score <= 1.0  # RRF fusion score, not a similarity
        assert result.hits[0].score > 0.5
        off = s.search("Super Bowl broadcast network", collection="docs", k=3)
        _check_stats(off)
        assert off.stats.max_score < result.stats.max_score
