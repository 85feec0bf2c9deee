"""What both backends share: payload layout, hit → chunk, query-vector cache, the generic methods.

Payloads use langchain-qdrant's layout (``page_content`` + ``metadata``), so a collection
written by either backend reads the same, and a server collection can be fed by other
langchain-qdrant tools.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Sequence
from types import TracebackType
from typing import Any, Self

from langchain_core.embeddings import Embeddings

from grace.retrieval.sparse import SparseEncoder, embed_chunks
from grace.retrieval.store import DENSE_VECTOR_NAME, SPARSE_VECTOR_NAME, SearchMode
from grace.retrieval.types import RetrievedChunk, SearchResult, search_stats

__all__ = [
    "CONTENT_KEY",
    "METADATA_KEY",
    "SOURCE_KEY",
    "QueryCache",
    "ChunkPoint",
    "StoreBase",
    "chunk_from_payload",
    "payload_of",
]

TIE_SLACK = 8
"""Hits a lexical search asks for beyond ``k``, so that chunks tied at the k-th place are all
seen and ordered the same way on every run (:meth:`StoreBase._ranked`)."""
TIE_DIGITS = 6
"""Significant digits of a raw score that rank hits (:meth:`StoreBase._ranked`): the engine
sums in single precision (about seven digits), and the last of them is not the same on every
run of one search."""
CONTENT_KEY = "page_content"
"""Payload key of the chunk text (langchain-qdrant's default)."""
METADATA_KEY = "metadata"
"""Payload key of the chunk metadata (langchain-qdrant's default)."""
SOURCE_KEY = f"{METADATA_KEY}.source"
"""Payload path of the document a chunk comes from."""


class QueryCache(Embeddings):
    """Wraps dense embeddings and remembers recent query vectors (one model call per query)."""

    def __init__(self, inner: Embeddings, size: int = 64) -> None:
        self.inner = inner
        self.size = size
        self._cache: dict[str, list[float]] = {}
        self._lock = threading.Lock()

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        """Document vectors (never cached: each is embedded once at ingestion)."""
        return self.inner.embed_documents(texts)

    def embed_query(self, text: str) -> list[float]:
        """Query vector, from the cache when the same query was embedded recently."""
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


def payload_of(text: str, metadata: dict[str, Any]) -> dict[str, Any]:
    """The stored payload of one chunk."""
    return {CONTENT_KEY: text, METADATA_KEY: dict(metadata)}


def chunk_from_payload(
    payload: dict[str, Any] | None, point_id: str, collection: str, score: float, raw: float
) -> RetrievedChunk:
    """A search hit as a :class:`RetrievedChunk` (score clamped to [0, 1]).

    Both scores are kept to :data:`TIE_DIGITS` significant digits: the engine's last digit is
    not the same on every run of one search, and a reader choosing between two passages that
    tie chose by it (:func:`stable_score`).
    """
    score, raw = stable_score(score), stable_score(raw)
    payload = payload or {}
    meta = payload.get(METADATA_KEY) or {}
    return RetrievedChunk(
        chunk_id=point_id,
        text=str(payload.get(CONTENT_KEY, "")),
        source=str(meta.get("source", "")),
        title=str(meta.get("title", "")),
        chunk_index=int(meta.get("chunk_index", 0)),
        location=str(meta.get("location", "")),
        collection=collection,
        score=min(1.0, max(0.0, score)),
        raw_score=raw,
    )


def stable_score(value: float) -> float:
    """``value`` to :data:`TIE_DIGITS` significant digits: the same on every run of a search."""
    return float(f"{value:.{TIE_DIGITS}g}")


def _rank_key(hit: RetrievedChunk) -> tuple[float, str, int]:
    """A lexical hit's place: its score, then document and position.

    The score is already :func:`stable_score`'s: every hit is made by
    :func:`chunk_from_payload`.
    """
    return -hit.raw_score, hit.source, hit.chunk_index


ChunkPoint = tuple[str, dict[str, Any], dict[str, Any]]
"""A chunk as a point: its id, its named vectors and its payload."""


class StoreBase:
    """The backend-independent half of :class:`~grace.retrieval.store.CorpusStore`.

    Subclasses implement the collection and point operations and ``_search_hits``.
    """

    default_collection: str
    dense_embeddings: QueryCache | None
    sparse_embeddings: SparseEncoder

    @property
    def mode(self) -> SearchMode:
        """``hybrid`` with dense embeddings, else ``sparse``."""
        return "hybrid" if self.dense_embeddings is not None else "sparse"

    def resolve(self, collection: str | None) -> str:
        """Return the collection name to use: ``collection`` or the default one."""
        return collection or self.default_collection

    def point_ids_by_source(self, collection: str) -> dict[str, set[str]]:
        """All point ids of ``collection`` grouped by document ``source`` (one scan)."""
        raise NotImplementedError

    def list_sources(self, collection: str) -> list[str]:
        """Documents (``source`` values) in ``collection``, sorted."""
        return sorted(self.point_ids_by_source(collection))

    def _checked_mode(self, mode: SearchMode | None) -> SearchMode:
        chosen = mode or self.mode
        if chosen != "sparse" and self.dense_embeddings is None:
            raise ValueError(f"{chosen} search needs a dense embedding model; none is configured")
        return chosen

    def _search_hits(self, query: str, name: str, k: int, mode: SearchMode) -> list[RetrievedChunk]:
        raise NotImplementedError

    def _existing(self, collection: str | None) -> str:
        raise NotImplementedError

    def _has_dense(self, name: str) -> bool:
        """Whether collection ``name`` holds dense vectors."""
        raise NotImplementedError

    def ensure_collection(self, name: str) -> None:
        """Create collection ``name`` if it does not exist."""
        raise NotImplementedError

    def _sparse_vector(self, indices: list[int], values: list[float]) -> Any:
        """The backend's sparse vector of ``indices`` and ``values``."""
        raise NotImplementedError

    def _upsert(self, collection: str, points: Sequence[ChunkPoint]) -> None:
        """Write the points to ``collection``, in batches."""
        raise NotImplementedError

    def add_chunks(
        self,
        collection: str,
        texts: Sequence[str],
        metadatas: Sequence[dict[str, Any]],
        ids: Sequence[str],
    ) -> None:
        """Upsert chunks with their metadata under the given (deterministic) point ids.

        The same steps on every backend (the collection made ready, each chunk's vectors and
        payload); the backend writes the points (``_upsert``).
        """
        if not texts:
            return
        self.ensure_collection(collection)
        vectors = self._chunk_vectors(collection, texts, metadatas)
        self._upsert(
            collection,
            [
                (pid, vector, payload_of(text, meta))
                for text, meta, pid, vector in zip(texts, metadatas, ids, vectors, strict=True)
            ],
        )

    def _chunk_vectors(
        self,
        collection: str,
        texts: Sequence[str],
        metadatas: Sequence[dict[str, Any]],
    ) -> list[dict[str, Any]]:
        """Each chunk's named vectors: sparse with its title, dense when the collection has one.

        The sparse vector holds the document title's tokens
        (:func:`~grace.retrieval.sparse.embed_chunks`), in the backend's type
        (``_sparse_vector``).
        """
        titles = [str(m.get("title", "")) for m in metadatas]
        sparse = embed_chunks(self.sparse_embeddings, texts, titles)
        dense = (
            self.dense_embeddings.embed_documents(list(texts))
            if self.dense_embeddings is not None and self._has_dense(collection)
            else None
        )
        out: list[dict[str, Any]] = []
        for i, vec in enumerate(sparse):
            vector: dict[str, Any] = {
                SPARSE_VECTOR_NAME: self._sparse_vector(vec.indices, vec.values)
            }
            if dense is not None:
                vector[DENSE_VECTOR_NAME] = dense[i]
            out.append(vector)
        return out

    def search(
        self,
        query: str,
        *,
        collection: str | None = None,
        k: int = 5,
        mode: SearchMode | None = None,
    ) -> SearchResult:
        """Top ``k`` chunks for ``query`` with normalised scores and their statistics.

        Raises:
            UnknownCollectionError: ``collection`` does not exist (it is not created).
            ValueError: ``mode`` needs dense embeddings the store was not given.

        """
        chosen = self._checked_mode(mode)
        name = self._existing(collection)
        if chosen != "sparse" and not self._has_dense(name):
            if mode is not None:
                raise ValueError(f"collection {name!r} has no dense vectors (made sparse-only)")
            chosen = "sparse"  # made before an embedding model was configured: lexical only
        hits = self._ranked(query, name, k, chosen) if k > 0 else []
        return SearchResult(
            query=query,
            collection=name,
            hits=hits,
            stats=search_stats(h.score for h in hits),
        )

    def _ranked(self, query: str, name: str, k: int, mode: SearchMode) -> list[RetrievedChunk]:
        """The top ``k`` hits, the same ones on every run.

        Chunks with equal scores come back from the engine in the order their points happen to
        sit in (which depends on the order an ingest wrote them), so a tie at the k-th place
        let two runs of one question see different fifth passages. A lexical search asks for
        :data:`TIE_SLACK` more and breaks ties by document and position. Scores are compared
        to :data:`TIE_DIGITS` significant digits: two chunks with the same words score the
        same but in the engine's last digit, which differs from run to run (the two came back
        in either order, and the reader answered from either). Hybrid search keeps the
        engine's order: its fused ranking depends on the prefetch size.
        """
        if mode != "sparse":
            return self._search_hits(query, name, k, mode)
        hits = self._search_hits(query, name, k + TIE_SLACK, mode)
        return sorted(hits, key=_rank_key)[:k]

    async def asearch(
        self,
        query: str,
        *,
        collection: str | None = None,
        k: int = 5,
        mode: SearchMode | None = None,
    ) -> SearchResult:
        """:meth:`search` in a worker thread, so the event loop is never blocked."""
        return await asyncio.to_thread(self.search, query, collection=collection, k=k, mode=mode)

    def flush(self) -> None:
        """Make every write so far durable (the server acknowledges each write: nothing)."""

    def close(self) -> None:
        """Release resources (subclasses)."""

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()
