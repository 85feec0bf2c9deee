"""The ``server`` backend: a Qdrant server or cluster by URL (scale-out), through langchain-qdrant.

Writes upsert points in langchain-qdrant's payload layout, their vectors made as the edge
backend makes them (the sparse one holds the document title: ``add_texts`` would embed the
chunk text alone); sparse and hybrid searches go through
``QdrantVectorStore.similarity_search_with_score`` (``retrieval_mode`` SPARSE / HYBRID),
dense ones through ``DENSE``. The reported scores are normalised as described in
:mod:`grace.retrieval.scoring`; the idf of each query token is read back from the server
(the IDF modifier is computed there, over the whole collection).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

from langchain_core.documents import Document
from langchain_core.embeddings import Embeddings
from langchain_qdrant import QdrantVectorStore, RetrievalMode, SparseEmbeddings
from langchain_qdrant import SparseVector as LangchainSparseVector
from qdrant_client import QdrantClient, models

from grace.retrieval.backends.common import (
    METADATA_KEY,
    SOURCE_KEY,
    ChunkPoint,
    QueryCache,
    StoreBase,
    chunk_from_payload,
)
from grace.retrieval.scoring import hybrid_score, idf, normalise_sparse
from grace.retrieval.sparse import LexicalSparseEmbeddings, SparseEncoder
from grace.retrieval.store import DENSE_VECTOR_NAME, SPARSE_VECTOR_NAME, SearchMode
from grace.retrieval.types import RetrievedChunk, UnknownCollectionError

__all__ = ["ServerStore"]

_WRITE_BATCH = 128
"""Points per upsert request."""

_LANGCHAIN_MODE = {
    "sparse": RetrievalMode.SPARSE,
    "dense": RetrievalMode.DENSE,
    "hybrid": RetrievalMode.HYBRID,
}


class _LangchainSparse(SparseEmbeddings):
    """GRACE's lexical encoder in langchain-qdrant's sparse-embeddings interface."""

    def __init__(self, inner: SparseEncoder) -> None:
        self.inner = inner

    def embed_documents(self, texts: list[str]) -> list[LangchainSparseVector]:
        """Document vectors."""
        return [
            LangchainSparseVector(indices=v.indices, values=v.values)
            for v in self.inner.embed_documents(texts)
        ]

    def embed_query(self, text: str) -> LangchainSparseVector:
        """Query vector."""
        v = self.inner.embed_query(text)
        return LangchainSparseVector(indices=v.indices, values=v.values)


class ServerStore(StoreBase):
    """Named collections on a Qdrant server, searched lexically, densely or hybrid.

    Args:
        url: URL of the Qdrant server or cluster.
        api_key: Its API key; defaults to ``$QDRANT_API_KEY``.
        dense_embeddings: A dense embedding model; given → collections get a dense vector
            and searches default to hybrid.
        default_collection: Collection used when a call names none.
        sparse_embeddings: The lexical encoder (default :class:`LexicalSparseEmbeddings`).
        client: An already built client (tests pass an in-memory one); exclusive with ``url``.

    """

    is_local = False
    """The data lives on the server: full scans cost network round trips."""

    def __init__(
        self,
        url: str | None = None,
        *,
        api_key: str | None = None,
        dense_embeddings: Embeddings | None = None,
        default_collection: str = "grace",
        sparse_embeddings: SparseEncoder | None = None,
        client: QdrantClient | None = None,
    ) -> None:
        if (url is None) == (client is None):
            raise ValueError("give exactly one of url or client")
        self.client = client or QdrantClient(
            url=url, api_key=api_key or os.environ.get("QDRANT_API_KEY")
        )
        self.url = url
        self.default_collection = default_collection
        self.dense_embeddings = QueryCache(dense_embeddings) if dense_embeddings else None
        self.sparse_embeddings = sparse_embeddings or LexicalSparseEmbeddings()
        self._stores: dict[tuple[str, SearchMode], QdrantVectorStore] = {}
        self._dense_size: int | None = None
        self._dense_collections: dict[str, bool] = {}
        self._closed = False

    @property
    def searches_in_process(self) -> bool:
        """Never: every search is a network call."""
        return False

    def close(self) -> None:
        """Release the client. Idempotent."""
        if self._closed:
            return
        self._closed = True
        self._stores.clear()
        self.client.close()

    # ------------------------------------------------------------------ collections

    def list_collections(self) -> list[str]:
        """Names of all collections, sorted."""
        return sorted(c.name for c in self.client.get_collections().collections)

    def has_collection(self, name: str) -> bool:
        """Whether collection ``name`` exists."""
        return bool(self.client.collection_exists(name))

    def ensure_collection(self, name: str) -> None:
        """Create collection ``name`` (sparse IDF vector, plus dense in hybrid mode) if missing."""
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
        if self.url is not None:  # an in-memory test client has no payload indexes
            self.client.create_payload_index(name, SOURCE_KEY, models.PayloadSchemaType.KEYWORD)

    def count(self, collection: str | None = None) -> int:
        """Count the chunks in ``collection``; raises :class:`UnknownCollectionError`."""
        return int(self.client.count(self._existing(collection), exact=True).count)

    def _has_dense(self, name: str) -> bool:
        """Whether collection ``name`` holds a dense vector (asked once per collection)."""
        if name not in self._dense_collections:
            vectors = self.client.get_collection(name).config.params.vectors
            self._dense_collections[name] = (
                isinstance(vectors, dict) and DENSE_VECTOR_NAME in vectors
            )
        return self._dense_collections[name]

    def _existing(self, collection: str | None) -> str:
        name = self.resolve(collection)
        if not self.client.collection_exists(name):
            raise UnknownCollectionError(name, self.list_collections())
        return name

    def _dense_dimension(self) -> int:
        if self._dense_size is None:
            assert self.dense_embeddings is not None
            self._dense_size = len(self.dense_embeddings.embed_query("dimension probe"))
        return self._dense_size

    def _vector_store(self, name: str, mode: SearchMode) -> QdrantVectorStore:
        store = self._stores.get((name, mode))
        if store is None:
            store = QdrantVectorStore(
                client=self.client,
                collection_name=name,
                embedding=self.dense_embeddings if mode != "sparse" else None,
                retrieval_mode=_LANGCHAIN_MODE[mode],
                vector_name=DENSE_VECTOR_NAME,
                sparse_embedding=_LangchainSparse(self.sparse_embeddings),
                sparse_vector_name=SPARSE_VECTOR_NAME,
                validate_collection_config=False,
            )
            self._stores[(name, mode)] = store
        return store

    # ------------------------------------------------------------------ writes

    def _sparse_vector(self, indices: list[int], values: list[float]) -> models.SparseVector:
        """The Qdrant client's sparse vector."""
        return models.SparseVector(indices=indices, values=values)

    def _upsert(self, collection: str, chunks: Sequence[ChunkPoint]) -> None:
        """Upsert the points through the client, :data:`_WRITE_BATCH` at a time."""
        points = [
            models.PointStruct(id=pid, vector=vector, payload=payload)
            for pid, vector, payload in chunks
        ]
        for start in range(0, len(points), _WRITE_BATCH):
            self.client.upsert(collection, points=points[start : start + _WRITE_BATCH])

    def delete_points(self, collection: str, ids: Sequence[str]) -> None:
        """Delete points by id."""
        if ids:
            self.client.delete(collection, points_selector=models.PointIdsList(points=list(ids)))

    def delete_source(self, collection: str, source: str) -> int:
        """Delete every chunk of document ``source``; return how many there were."""
        if not self.has_collection(collection):
            return 0
        flt = _source_filter(source)
        found = int(self.client.count(collection, count_filter=flt, exact=True).count)
        if found:
            self.client.delete(collection, points_selector=models.FilterSelector(filter=flt))
        return found

    def source_point_ids(self, collection: str, source: str) -> set[str]:
        """Point ids of the chunks of document ``source`` in ``collection``."""
        if not self.has_collection(collection):
            return set()
        return {str(p.id) for p in self._scroll(collection, _source_filter(source), False)}

    def point_ids_by_source(self, collection: str) -> dict[str, set[str]]:
        """All point ids of ``collection`` grouped by document ``source`` (one scan)."""
        if not self.has_collection(collection):
            return {}
        found: dict[str, set[str]] = {}
        for p in self._scroll(collection, None, [SOURCE_KEY]):
            meta = (p.payload or {}).get(METADATA_KEY) or {}
            found.setdefault(str(meta.get("source", "")), set()).add(str(p.id))
        return found

    def _scroll(
        self, collection: str, flt: models.Filter | None, payload: bool | list[str]
    ) -> list[models.Record]:
        out: list[models.Record] = []
        offset: Any = None
        while True:
            points, offset = self.client.scroll(
                collection,
                scroll_filter=flt,
                limit=2048,
                offset=offset,
                with_payload=payload,
                with_vectors=False,
            )
            out.extend(points)
            if offset is None:
                return out

    # ------------------------------------------------------------------ search

    def _search_hits(self, query: str, name: str, k: int, mode: SearchMode) -> list[RetrievedChunk]:
        qvec = self.sparse_embeddings.embed_query(query)
        if mode == "sparse" and not qvec.indices:
            return []
        found = self._vector_store(name, mode).similarity_search_with_score(query, k=k)
        if not found:
            return []
        ids = [str(doc.metadata["_id"]) for doc, _ in found]
        if mode == "sparse":  # the ranking's own score is the BM25 sum
            sparse = {pid: float(raw) for (_, raw), pid in zip(found, ids, strict=True)}
            reference = self._reference(name, qvec.indices)
        else:
            sparse, reference = self._sparse_scores(name, qvec.indices, ids)
        dense = self._dense_scores(name, query, ids) if mode != "sparse" else {}
        out = []
        for (doc, raw), pid in zip(found, ids, strict=True):
            lexical = normalise_sparse(sparse.get(pid, 0.0), reference)
            score = lexical if mode == "sparse" else _blend(mode, lexical, dense.get(pid))
            out.append(chunk_from_payload(_payload(doc), pid, name, score, float(raw)))
        return out

    def _sparse_scores(
        self, name: str, indices: list[int], ids: list[str]
    ) -> tuple[dict[str, float], float]:
        if not indices:
            return {}, 0.0
        points = self.client.query_points(
            name,
            query=models.SparseVector(indices=indices, values=[1.0] * len(indices)),
            using=SPARSE_VECTOR_NAME,
            query_filter=models.Filter(must=[models.HasIdCondition(has_id=list(ids))]),
            limit=len(ids),
        ).points
        return {str(p.id): p.score for p in points}, self._reference(name, indices)

    def _dense_scores(self, name: str, query: str, ids: list[str]) -> dict[str, float]:
        assert self.dense_embeddings is not None
        points = self.client.query_points(
            name,
            query=self.dense_embeddings.embed_query(query),
            using=DENSE_VECTOR_NAME,
            query_filter=models.Filter(must=[models.HasIdCondition(has_id=list(ids))]),
            limit=len(ids),
        ).points
        return {str(p.id): p.score for p in points}

    def _reference(self, name: str, indices: Sequence[int]) -> float:
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
                vectors = response.points[0].vector
                sparse = vectors.get(SPARSE_VECTOR_NAME) if isinstance(vectors, dict) else None
                if isinstance(sparse, models.SparseVector) and i in sparse.indices:
                    weight = sparse.values[sparse.indices.index(i)]
            total += response.points[0].score / weight if weight > 0 else idf(0, n)
        return total


def _blend(mode: SearchMode, lexical: float, dense: float | None) -> float:
    if mode == "dense":
        return min(1.0, max(0.0, dense or 0.0))
    return hybrid_score(lexical, dense)


def _payload(doc: Document) -> dict[str, Any]:
    meta = {k: v for k, v in doc.metadata.items() if k not in ("_id", "_collection_name")}
    return {"page_content": doc.page_content, METADATA_KEY: meta}


def _source_filter(source: str) -> models.Filter:
    return models.Filter(
        must=[models.FieldCondition(key=SOURCE_KEY, match=models.MatchValue(value=source))]
    )
