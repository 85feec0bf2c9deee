"""``CorpusStore``: named Qdrant collections searched through langchain-qdrant.

One code path for every deployment:

- ``CorpusStore(path=...)`` — Qdrant *local mode* on disk (offline default, no server).
  Local mode holds a file lock: open one store per path per process. Calls are serialised
  with a lock, so the store can be shared by threads and by ``asearch``.
- ``CorpusStore(url=..., api_key=...)`` — a Qdrant server or cluster (scale-out). The API
  key falls back to the ``QDRANT_API_KEY`` environment variable.
- ``CorpusStore()`` — an in-memory Qdrant (tests, throwaway runs).

Without ``dense_embeddings`` collections hold one sparse lexical vector
(:class:`LexicalSparseEmbeddings`, Qdrant IDF modifier = BM25); with them, a dense vector
too, and searches are hybrid (Reciprocal Rank Fusion of both) through
``QdrantVectorStore(retrieval_mode=HYBRID)``. Scores are normalised to [0, 1] as described in
:mod:`grace.retrieval.scoring`.

Writes always go through ``QdrantVectorStore.add_texts``; sparse searches go through
``QdrantVectorStore.similarity_search_with_score``, except in local mode where the
equivalent :class:`LocalSparseIndex` answers them (local mode's brute-force sparse scan is
~100x slower; pass ``fast_local_search=False`` to bypass the index).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import sqlite3
import threading
from collections.abc import Sequence
from pathlib import Path
from types import TracebackType
from typing import Any, Self

from langchain_core.documents import Document
from langchain_core.embeddings import Embeddings
from langchain_qdrant import QdrantVectorStore, RetrievalMode
from qdrant_client import QdrantClient, models

from grace.retrieval.local_index import LocalSparseIndex
from grace.retrieval.scoring import hybrid_score, idf, normalise_sparse
from grace.retrieval.sparse import LexicalSparseEmbeddings
from grace.retrieval.types import (
    RetrievedChunk,
    SearchResult,
    UnknownCollectionError,
    search_stats,
)

__all__ = ["DENSE_VECTOR_NAME", "SPARSE_VECTOR_NAME", "CorpusStore"]

SPARSE_VECTOR_NAME = "lexical"
"""Name of the sparse (BM25) vector in every GRACE collection."""
DENSE_VECTOR_NAME = "dense"
"""Name of the dense vector in hybrid collections."""


class _QueryCache(Embeddings):
    """Wraps dense embeddings and remembers recent query vectors (one model call per query)."""

    def __init__(self, inner: Embeddings, size: int = 64) -> None:
        self.inner = inner
        self.size = size
        self._cache: dict[str, list[float]] = {}
        self._lock = threading.Lock()

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return self.inner.embed_documents(texts)

    def embed_query(self, text: str) -> list[float]:
        with self._lock:
            hit = self._cache.get(text)
        if hit is not None:
            return hit
        vector = self.inner.embed_query(text)
        with self._lock:
            if len(self._cache) >= self.size:
                self._cache.pop(next(iter(self._cache)))
            self._cache[text] = vector
        return vector


class CorpusStore:
    """Named collections of document chunks in Qdrant, searched lexically or hybrid.

    Args:
        path: Directory for Qdrant local mode (created if missing).
        url: URL of a Qdrant server or cluster (exclusive with ``path``).
        api_key: API key for ``url``; defaults to ``$QDRANT_API_KEY``.
        dense_embeddings: A dense embedding model; given → hybrid collections and search.
        default_collection: Collection used when a call names none.
        sparse_embeddings: The lexical encoder (default :class:`LexicalSparseEmbeddings`).
        fast_local_search: In local mode, answer sparse searches from the in-memory index.

    """

    def __init__(
        self,
        *,
        path: Path | None = None,
        url: str | None = None,
        api_key: str | None = None,
        dense_embeddings: Embeddings | None = None,
        default_collection: str = "grace",
        sparse_embeddings: LexicalSparseEmbeddings | None = None,
        fast_local_search: bool = True,
    ) -> None:
        if path is not None and url is not None:
            raise ValueError("give either path (local mode) or url (server), not both")
        if url is not None:
            self.client = QdrantClient(url=url, api_key=api_key or os.environ.get("QDRANT_API_KEY"))
            self.is_local = False
        elif path is not None:
            Path(path).mkdir(parents=True, exist_ok=True)
            self.client = QdrantClient(path=str(path))
            self.is_local = True
        else:
            self.client = QdrantClient(location=":memory:")
            self.is_local = True
        self.path = path
        self.url = url
        self.default_collection = default_collection
        self.dense_embeddings = _QueryCache(dense_embeddings) if dense_embeddings else None
        self.sparse_embeddings = sparse_embeddings or LexicalSparseEmbeddings()
        self.fast_local_search = fast_local_search and self.is_local
        self._lock: contextlib.AbstractContextManager[Any] = (
            threading.RLock() if self.is_local else contextlib.nullcontext()
        )
        self._stores: dict[str, QdrantVectorStore] = {}
        self._indexes: dict[str, LocalSparseIndex] = {}
        self._dense_size: int | None = None
        self._closed = False

    # ------------------------------------------------------------------ lifecycle

    @property
    def mode(self) -> str:
        """``"hybrid"`` with dense embeddings, else ``"sparse"``."""
        return "hybrid" if self.dense_embeddings is not None else "sparse"

    def close(self) -> None:
        """Release the client (and local mode's file lock). Idempotent."""
        if self._closed:
            return
        self._closed = True
        with self._lock:
            self._stores.clear()
            self._indexes.clear()
            self.client.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    # ------------------------------------------------------------------ collections

    def resolve(self, collection: str | None) -> str:
        """Return the collection name to use: ``collection`` or the default one."""
        return collection or self.default_collection

    def list_collections(self) -> list[str]:
        """Names of all collections, sorted."""
        with self._lock:
            return sorted(c.name for c in self.client.get_collections().collections)

    def has_collection(self, name: str) -> bool:
        """Whether collection ``name`` exists."""
        with self._lock:
            return bool(self.client.collection_exists(name))

    def ensure_collection(self, name: str) -> None:
        """Create collection ``name`` (sparse IDF vector, plus dense in hybrid mode) if missing."""
        with self._lock:
            if self.client.collection_exists(name):
                return
            vectors: dict[str, models.VectorParams] = {}
            if self.dense_embeddings is not None:
                vectors[DENSE_VECTOR_NAME] = models.VectorParams(
                    size=self._dense_dimension(), distance=models.Distance.COSINE
                )
            self.client.create_collection(
                name,
                vectors_config=vectors,
                sparse_vectors_config={
                    SPARSE_VECTOR_NAME: models.SparseVectorParams(modifier=models.Modifier.IDF)
                },
            )
            if not self.is_local:  # payload indexes are a no-op in local mode
                self.client.create_payload_index(
                    name, "metadata.source", models.PayloadSchemaType.KEYWORD
                )

    def count(self, collection: str | None = None) -> int:
        """Count the chunks in ``collection``; raises :class:`UnknownCollectionError`."""
        name = self._existing(collection)
        with self._lock:
            return int(self.client.count(name, exact=True).count)

    def _existing(self, collection: str | None) -> str:
        name = self.resolve(collection)
        with self._lock:
            if not self.client.collection_exists(name):
                known = sorted(c.name for c in self.client.get_collections().collections)
                raise UnknownCollectionError(name, known)
        return name

    def _dense_dimension(self) -> int:
        if self._dense_size is None:
            assert self.dense_embeddings is not None
            self._dense_size = len(self.dense_embeddings.embed_query("dimension probe"))
        return self._dense_size

    def vector_store(self, collection: str | None = None) -> QdrantVectorStore:
        """Return the langchain-qdrant store of an existing collection."""
        name = self._existing(collection)
        with self._lock:
            store = self._stores.get(name)
            if store is None:
                store = QdrantVectorStore(
                    client=self.client,
                    collection_name=name,
                    embedding=self.dense_embeddings,
                    retrieval_mode=(
                        RetrievalMode.HYBRID if self.dense_embeddings else RetrievalMode.SPARSE
                    ),
                    vector_name=DENSE_VECTOR_NAME,
                    sparse_embedding=self.sparse_embeddings,
                    sparse_vector_name=SPARSE_VECTOR_NAME,
                )
                self._stores[name] = store
            return store

    # ------------------------------------------------------------------ writes

    def add_chunks(
        self,
        collection: str,
        texts: Sequence[str],
        metadatas: Sequence[dict[str, Any]],
        ids: Sequence[str],
        *,
        batch_size: int = 128,
    ) -> None:
        """Upsert chunks with their metadata under the given (deterministic) point ids."""
        if not texts:
            return
        self.ensure_collection(collection)
        store = self.vector_store(collection)
        with self._lock:
            self._indexes.pop(collection, None)
            self._fast_local_writes(collection)
            store.add_texts(list(texts), list(metadatas), ids=list(ids), batch_size=batch_size)

    def _fast_local_writes(self, collection: str) -> None:
        """Local mode on disk: put the collection's SQLite file in WAL mode, ``synchronous=NORMAL``.

        Embedded Qdrant commits every point in its own transaction (``batch_size`` does not
        change that), and SQLite's default rollback journal syncs each commit to disk: that
        made ingestion disk-bound (~150–800 chunks/s). In WAL mode with ``synchronous=NORMAL``
        a commit is an append to the log, synced at WAL checkpoints only: about 5× faster. A
        crash or SIGKILL of the process loses nothing committed; a power loss or OS crash may
        lose the last commits (the database stays consistent; re-run the ingestion, which is
        idempotent). Best effort: reaches into the local client, and does nothing if its
        layout differs.
        """
        if not self.is_local or self.path is None:
            return
        local = getattr(self.client, "_client", None)
        collections = getattr(local, "collections", None)
        found = collections.get(collection) if isinstance(collections, dict) else None
        conn = getattr(getattr(found, "storage", None), "storage", None)
        if isinstance(conn, sqlite3.Connection):
            with contextlib.suppress(sqlite3.Error):
                conn.execute("PRAGMA journal_mode=WAL")
                conn.execute("PRAGMA synchronous=NORMAL")

    def source_point_ids(self, collection: str, source: str) -> set[str]:
        """Point ids of the chunks of document ``source`` in ``collection``."""
        if not self.has_collection(collection):
            return set()
        flt = _source_filter(source)
        found: set[str] = set()
        offset: Any = None
        with self._lock:
            while True:
                points, offset = self.client.scroll(
                    collection,
                    scroll_filter=flt,
                    limit=1024,
                    offset=offset,
                    with_payload=False,
                    with_vectors=False,
                )
                found.update(str(p.id) for p in points)
                if offset is None:
                    return found

    def point_ids_by_source(self, collection: str) -> dict[str, set[str]]:
        """All point ids of ``collection`` grouped by document ``source`` (one scan)."""
        if not self.has_collection(collection):
            return {}
        found: dict[str, set[str]] = {}
        offset: Any = None
        with self._lock:
            while True:
                points, offset = self.client.scroll(
                    collection,
                    limit=2048,
                    offset=offset,
                    with_payload=["metadata.source"],
                    with_vectors=False,
                )
                for p in points:
                    meta = (p.payload or {}).get(QdrantVectorStore.METADATA_KEY) or {}
                    found.setdefault(str(meta.get("source", "")), set()).add(str(p.id))
                if offset is None:
                    return found

    def delete_points(self, collection: str, ids: Sequence[str]) -> None:
        """Delete points by id."""
        if not ids:
            return
        with self._lock:
            self._indexes.pop(collection, None)
            self._fast_local_writes(collection)
            self.client.delete(collection, points_selector=models.PointIdsList(points=list(ids)))

    # ------------------------------------------------------------------ search

    @property
    def searches_in_process(self) -> bool:
        """Whether :meth:`search` is CPU work in this process only (no network call to wait on).

        True for a local (embedded or in-memory) store without dense embeddings: the query is
        embedded lexically and matched in memory, so a search cannot hang on I/O. A server
        (``url``) or hybrid mode (a dense query embedding is a model call) may wait on the
        network.
        """
        return self.is_local and self.dense_embeddings is None

    def search(self, query: str, *, collection: str | None = None, k: int = 5) -> SearchResult:
        """Top ``k`` chunks for ``query`` with normalised scores and their statistics.

        Raises:
            UnknownCollectionError: ``collection`` does not exist (it is not created).

        """
        name = self._existing(collection)
        if self.dense_embeddings is not None:
            hits = self._search_hybrid(query, name, k)
        else:
            hits = self._search_sparse(query, name, k)
        return SearchResult(
            query=query, collection=name, hits=hits, stats=search_stats(h.score for h in hits)
        )

    async def asearch(
        self, query: str, *, collection: str | None = None, k: int = 5
    ) -> SearchResult:
        """:meth:`search` in a worker thread, so the event loop is never blocked."""
        return await asyncio.to_thread(self.search, query, collection=collection, k=k)

    def _search_sparse(self, query: str, name: str, k: int) -> list[RetrievedChunk]:
        qvec = self.sparse_embeddings.embed_query(query)
        if not qvec.indices or k <= 0:
            return []
        with self._lock:
            if self.fast_local_search:
                index = self._local_index(name)
                reference = sum(
                    idf(df, len(index)) for df in index.document_frequencies(qvec.indices).values()
                )
                found = [
                    (_document(h.payload, h.point_id), h.raw_score)
                    for h in index.search(qvec.indices, qvec.values, k)
                ]
            else:
                found = [
                    (doc, float(raw))
                    for doc, raw in self.vector_store(name).similarity_search_with_score(query, k=k)
                ]
                reference = self._reference_from_server(name, qvec.indices)
        return [_chunk(doc, name, normalise_sparse(raw, reference), raw) for doc, raw in found]

    def _search_hybrid(self, query: str, name: str, k: int) -> list[RetrievedChunk]:
        assert self.dense_embeddings is not None
        qvec = self.sparse_embeddings.embed_query(query)
        with self._lock:
            found = self.vector_store(name).similarity_search_with_score(query, k=k)
            ids = [str(doc.metadata["_id"]) for doc, _ in found]
            if not ids:
                return []
            flt = models.Filter(must=[models.HasIdCondition(has_id=list(ids))])
            dense = {
                str(p.id): p.score
                for p in self.client.query_points(
                    name,
                    query=self.dense_embeddings.embed_query(query),
                    using=DENSE_VECTOR_NAME,
                    query_filter=flt,
                    limit=len(ids),
                ).points
            }
            sparse: dict[str, float] = {}
            reference = 0.0
            if qvec.indices:
                if self.fast_local_search:
                    index = self._local_index(name)
                    sparse = index.score_points(qvec.indices, qvec.values, ids)
                    reference = sum(
                        idf(df, len(index))
                        for df in index.document_frequencies(qvec.indices).values()
                    )
                else:
                    sparse = {
                        str(p.id): p.score
                        for p in self.client.query_points(
                            name,
                            query=models.SparseVector(indices=qvec.indices, values=qvec.values),
                            using=SPARSE_VECTOR_NAME,
                            query_filter=flt,
                            limit=len(ids),
                        ).points
                    }
                    reference = self._reference_from_server(name, qvec.indices)
        return [
            _chunk(
                doc,
                name,
                hybrid_score(normalise_sparse(sparse.get(pid, 0.0), reference), dense.get(pid)),
                float(raw),
            )
            for (doc, raw), pid in zip(found, ids, strict=True)
        ]

    def _local_index(self, name: str) -> LocalSparseIndex:
        index = self._indexes.get(name)
        if index is None:
            index = LocalSparseIndex.build(self.client, name, SPARSE_VECTOR_NAME)
            self._indexes[name] = index
        return index

    def _reference_from_server(self, name: str, indices: Sequence[int]) -> float:
        """Σ idf of the query tokens as Qdrant sees them, read back from single-token queries.

        For each token, the best single-token hit scores ``idf · w``; its stored weight ``w``
        gives the idf. A token without any hit has ``df = 0``.
        """
        n = int(self.client.count(name, exact=True).count)
        requests = [
            models.QueryRequest(
                query=models.SparseVector(indices=[i], values=[1.0]),
                using=SPARSE_VECTOR_NAME,
                limit=1,
                with_vector=[SPARSE_VECTOR_NAME],
            )
            for i in indices
        ]
        total = 0.0
        for i, response in zip(
            indices, self.client.query_batch_points(name, requests), strict=True
        ):
            weight = 0.0
            if response.points:
                point = response.points[0]
                vectors = point.vector if isinstance(point.vector, dict) else {}
                sparse = vectors.get(SPARSE_VECTOR_NAME)
                if isinstance(sparse, models.SparseVector) and i in sparse.indices:
                    weight = sparse.values[sparse.indices.index(i)]
            total += response.points[0].score / weight if weight > 0 else idf(0, n)
        return total


def _source_filter(source: str) -> models.Filter:
    return models.Filter(
        must=[models.FieldCondition(key="metadata.source", match=models.MatchValue(value=source))]
    )


def _document(payload: dict[str, Any], point_id: str) -> Document:
    metadata = dict(payload.get(QdrantVectorStore.METADATA_KEY) or {})
    metadata["_id"] = point_id
    return Document(
        page_content=str(payload.get(QdrantVectorStore.CONTENT_KEY, "")), metadata=metadata
    )


def _chunk(doc: Document, collection: str, score: float, raw: float) -> RetrievedChunk:
    meta = doc.metadata
    return RetrievedChunk(
        chunk_id=str(meta.get("_id", "")),
        text=doc.page_content,
        source=str(meta.get("source", "")),
        title=str(meta.get("title", "")),
        chunk_index=int(meta.get("chunk_index", 0)),
        collection=collection,
        score=min(1.0, max(0.0, score)),
        raw_score=raw,
    )
