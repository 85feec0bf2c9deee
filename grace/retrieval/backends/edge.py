"""The ``edge`` backend (default): Qdrant Edge, the Qdrant engine embedded in the process.

Qdrant Edge (``qdrant-edge-py``) runs Qdrant's storage and search engine in-process — no
server — with on-disk segments, a write-ahead log, an inverted index for sparse vectors with
the IDF modifier and HNSW for dense vectors. Each collection is one shard directory under the
store's root (:class:`~grace.retrieval.backends.edge_shards.ShardPool`), used by one process
at a time (:mod:`grace.retrieval.backends.edge_lock`).

Sparse vectors come from GRACE's encoder (:class:`~grace.retrieval.sparse.LexicalSparseEmbeddings`:
stemmed English, SudachiPy words + bigrams for Japanese); the score normalisation needs each
query token's idf, read back from the shard with one batched query and cached until the shard
changes. With a dense embedding model, collections also hold a cosine ``dense`` vector and
searches default to hybrid: Reciprocal Rank Fusion of the sparse and dense rankings, reported
scores as in :mod:`grace.retrieval.scoring`.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any, cast

from langchain_core.embeddings import Embeddings
from qdrant_edge import (
    CountRequest,
    Distance,
    EdgeConfig,
    EdgeOptimizersConfig,
    EdgeShard,
    EdgeSparseVectorParams,
    EdgeVectorParams,
    FieldCondition,
    Filter,
    Fusion,
    HasIdCondition,
    MatchValue,
    Memory,
    Modifier,
    Point,
    Prefetch,
    Query,
    QueryBatchRequest,
    QueryRequest,
    ScoredPoint,
    ScrollRequest,
    SparseVector,
    UpdateOperation,
)

from grace.retrieval.backends.common import (
    METADATA_KEY,
    SOURCE_KEY,
    ChunkPoint,
    QueryCache,
    StoreBase,
    chunk_from_payload,
)
from grace.retrieval.backends.edge_shards import ShardPool
from grace.retrieval.scoring import hybrid_score, idf, normalise_sparse
from grace.retrieval.sparse import LexicalSparseEmbeddings, SparseEncoder
from grace.retrieval.store import DENSE_VECTOR_NAME, SPARSE_VECTOR_NAME, SearchMode
from grace.retrieval.types import RetrievedChunk, UnknownCollectionError

__all__ = ["EdgeStore"]

_RRF_K = 2
"""Reciprocal Rank Fusion constant (Qdrant's default)."""
_WRITE_BATCH = 256
"""Points per upsert operation."""
_COMPACT_EVERY = 2_500
"""Points written between compactions of a shard during a long ingestion.

A compaction (``optimize``) builds an indexed on-disk segment from the in-memory mutable one
once that holds more than :data:`_INDEXING_THRESHOLD_KB`; checking often keeps the mutable
segment, and so the transient memory of that build, near the threshold (measured at 100k
chunks, ingesting process peak RSS: 50k → 722 MiB, 20k → 570 MiB, 10k → 523 MiB, 5k →
504 MiB, 2.5k → 493 MiB; ingestion speed and query p50 unchanged within noise).
"""
_INDEXING_THRESHOLD_KB = 5_000
"""Mutable-segment size (vector data, KB) from which a compaction builds an indexed segment.

Qdrant's default (10,000) let the mutable segment reach ~12.5k of GRACE's chunks and each
build's transient ~95 MiB; at 5,000 it is ~6k chunks (measured at 100k chunks with
``_COMPACT_EVERY`` 2.5k: ingesting peak 463 → 434 MiB, query process 303 → 292 MiB, query
p50 0.72 → 0.76 ms, ingestion ~4 % slower from the extra builds; at 10k chunks the one
build comes earlier and the ingest peak rises 309 → 367 MiB). 2,500 saved another 14 MiB
at 100k but cost 6 % of ingestion speed and 0.1 ms of p50.
"""
_SPARSE_INDEX_MEMORY = Memory.Cold
"""Sparse inverted index of compacted segments memory-mapped, not pinned in RAM.

The pages a search touches stay in the page cache; the process no longer holds every
segment's index (query p50 at 100k chunks unchanged, ~0.7 ms).
"""
_SEGMENTS = 16
"""Segments the optimizer keeps before merging (default: one per CPU).

Compacting every ``_COMPACT_EVERY`` points turns the in-memory mutable segment into an
on-disk indexed one; letting up to 16 of them exist instead of merging them into one or two
huge segments bounds the memory a compaction needs (measured at 200k chunks: ingesting
process peak 1.8 GiB → 0.8 GiB, query p50 unchanged).
"""


class EdgeStore(StoreBase):
    """Named collections in embedded Qdrant Edge shards, searched lexically, densely or hybrid.

    Args:
        path: Directory of the shards (created if missing).
        dense_embeddings: A dense embedding model; given → collections get a dense vector
            and searches default to hybrid.
        default_collection: Collection used when a call names none.
        sparse_embeddings: The lexical encoder (default :class:`LexicalSparseEmbeddings`).
        lock_timeout: Seconds to wait for a collection another process holds.
        idle_release: Seconds of disuse after which a shard is closed and its lock released
            (``None``: keep shards open until :meth:`close`).

    """

    is_local = True
    """The data lives in this process: a full scan is cheap."""

    def __init__(
        self,
        path: Path,
        *,
        dense_embeddings: Embeddings | None = None,
        default_collection: str = "grace",
        sparse_embeddings: SparseEncoder | None = None,
        lock_timeout: float = 30.0,
        idle_release: float | None = 2.0,
    ) -> None:
        self.path = Path(path)
        self.path.mkdir(parents=True, exist_ok=True)
        self.default_collection = default_collection
        self.dense_embeddings = QueryCache(dense_embeddings) if dense_embeddings else None
        self.sparse_embeddings = sparse_embeddings or LexicalSparseEmbeddings()
        self.shards = ShardPool(
            self.path,
            lock_timeout=lock_timeout,
            idle_release=idle_release,
            compact_every=_COMPACT_EVERY,
        )
        self._idf: dict[str, tuple[int, int, dict[int, float]]] = {}
        self._dense_size: int | None = None

    @property
    def searches_in_process(self) -> bool:
        """True without dense embeddings: the query is encoded and matched in this process."""
        return self.dense_embeddings is None

    def close(self) -> None:
        """Flush, compact and close every shard and release the locks. Idempotent."""
        self.shards.close()

    def flush(self) -> None:
        """Make every write so far durable."""
        self.shards.flush()

    # ------------------------------------------------------------------ collections

    def list_collections(self) -> list[str]:
        """Names of all collections, sorted."""
        return self.shards.names()

    def has_collection(self, name: str) -> bool:
        """Whether collection ``name`` exists."""
        return self.shards.exists(name)

    def ensure_collection(self, name: str) -> None:
        """Create collection ``name`` (sparse IDF vector, plus dense in hybrid mode) if missing."""
        with self.shards.use(name, create=self._config):
            pass

    def _config(self) -> EdgeConfig:
        vectors: dict[str, EdgeVectorParams] = {}
        if self.dense_embeddings is not None:
            vectors[DENSE_VECTOR_NAME] = EdgeVectorParams(
                size=self._dense_dimension(), distance=Distance.Cosine
            )
        return EdgeConfig(
            vectors=vectors,
            sparse_vectors={
                SPARSE_VECTOR_NAME: EdgeSparseVectorParams(
                    modifier=Modifier.Idf, memory=_SPARSE_INDEX_MEMORY
                )
            },
            optimizers=EdgeOptimizersConfig(
                default_segment_number=_SEGMENTS, indexing_threshold=_INDEXING_THRESHOLD_KB
            ),
        )

    def _dense_dimension(self) -> int:
        if self._dense_size is None:
            assert self.dense_embeddings is not None
            self._dense_size = len(self.dense_embeddings.embed_query("dimension probe"))
        return self._dense_size

    def count(self, collection: str | None = None) -> int:
        """Count the chunks in ``collection``; raises :class:`UnknownCollectionError`."""
        name = self._existing(collection)
        with self.shards.use(name) as shard:
            return int(shard.count(CountRequest(exact=True)))

    def _has_dense(self, name: str) -> bool:
        """Whether collection ``name`` was made with a dense vector (read from its config)."""
        return self.shards.has_vector(name, DENSE_VECTOR_NAME)

    def _existing(self, collection: str | None) -> str:
        name = self.resolve(collection)
        if not self.shards.exists(name):
            raise UnknownCollectionError(name, self.list_collections())
        return name

    # ------------------------------------------------------------------ writes

    def _sparse_vector(self, indices: list[int], values: list[float]) -> SparseVector:
        """Qdrant Edge's sparse vector."""
        return SparseVector(indices, values)

    def _upsert(self, collection: str, chunks: Sequence[ChunkPoint]) -> None:
        """Upsert the points into the collection's shard, :data:`_WRITE_BATCH` at a time."""
        points = [Point(pid, vector, payload) for pid, vector, payload in chunks]
        with self.shards.use(
            collection, create=self._config, write=True, points=len(points)
        ) as shard:
            for start in range(0, len(points), _WRITE_BATCH):
                shard.update(UpdateOperation.upsert_points(points[start : start + _WRITE_BATCH]))

    def delete_points(self, collection: str, ids: Sequence[str]) -> None:
        """Delete points by id."""
        if ids and self.has_collection(collection):
            with self.shards.use(collection, write=True) as shard:
                shard.update(UpdateOperation.delete_points(list(ids)))

    def delete_source(self, collection: str, source: str) -> int:
        """Delete every chunk of document ``source``; return how many there were."""
        if not self.has_collection(collection):
            return 0
        flt = _source_filter(source)
        with self.shards.use(collection, write=True) as shard:
            found = int(shard.count(CountRequest(exact=True, filter=flt)))
            if found:
                shard.update(UpdateOperation.delete_points_by_filter(flt))
        return found

    def source_point_ids(self, collection: str, source: str) -> set[str]:
        """Point ids of the chunks of document ``source`` in ``collection``."""
        if not self.has_collection(collection):
            return set()
        with self.shards.use(collection) as shard:
            return {str(r.id) for r in _scroll(shard, _source_filter(source), False)}

    def point_ids_by_source(self, collection: str) -> dict[str, set[str]]:
        """All point ids of ``collection`` grouped by document ``source`` (one scan)."""
        if not self.has_collection(collection):
            return {}
        found: dict[str, set[str]] = {}
        with self.shards.use(collection) as shard:
            for record in _scroll(shard, None, [SOURCE_KEY]):
                meta = (record.payload or {}).get(METADATA_KEY) or {}
                found.setdefault(str(meta.get("source", "")), set()).add(str(record.id))
        return found

    # ------------------------------------------------------------------ search

    def _search_hits(self, query: str, name: str, k: int, mode: SearchMode) -> list[RetrievedChunk]:
        qvec = self.sparse_embeddings.embed_query(query)
        sparse_query = Query.Nearest(
            SparseVector(qvec.indices, [1.0] * len(qvec.indices)), using=SPARSE_VECTOR_NAME
        )
        if mode == "sparse" and not qvec.indices:
            return []
        dense_vec = (
            self.dense_embeddings.embed_query(query)
            if mode != "sparse" and self.dense_embeddings is not None
            else []
        )
        with self.shards.use(name) as shard:
            found = shard.query(_ranking(mode, sparse_query, dense_vec, k))
            if not found:
                return []
            reference = self._reference(shard, name, qvec.indices)
            if mode == "sparse":
                return [_hit(p, name, normalise_sparse(p.score, reference), p.score) for p in found]
            ids = HasIdCondition({p.id for p in found})
            lexical = _scores(shard, sparse_query, ids, len(found)) if qvec.indices else {}
            cosine = _scores(shard, Query.Nearest(dense_vec, DENSE_VECTOR_NAME), ids, len(found))
        return [
            _hit(
                p,
                name,
                _blend(
                    mode,
                    normalise_sparse(lexical.get(str(p.id), 0.0), reference),
                    cosine.get(str(p.id)),
                ),
                p.score,
            )
            for p in found
        ]

    def _reference(self, shard: EdgeShard, name: str, indices: list[int]) -> float:
        """Σ idf of the query tokens as the shard scores them (cached until the shard changes).

        A single-token query's best hit scores ``idf · w`` and carries its stored weight ``w``,
        which gives the idf; a token no chunk holds has ``df = 0``.
        """
        generation = self.shards.generation(name)
        cached = self._idf.get(name)
        if cached is None or cached[0] != generation:
            n = int(shard.count(CountRequest(exact=True)))
            cached = (generation, n, {})
            self._idf[name] = cached
        _, n, known = cached
        missing = [i for i in indices if i not in known]
        if missing:
            requests = [
                QueryRequest(
                    limit=1,
                    query=Query.Nearest(SparseVector([i], [1.0]), using=SPARSE_VECTOR_NAME),
                    with_vector=[SPARSE_VECTOR_NAME],
                )
                for i in missing
            ]
            for i, points in zip(
                missing, shard.query_batch(QueryBatchRequest(requests)), strict=True
            ):
                known[i] = _token_idf(i, points, n)
        return sum(known[i] for i in indices)


def _token_idf(index: int, points: list[ScoredPoint], n: int) -> float:
    if points:
        vectors = points[0].vector
        sparse = vectors.get(SPARSE_VECTOR_NAME) if isinstance(vectors, dict) else None
        if isinstance(sparse, SparseVector) and index in sparse.indices:
            weight = sparse.values[sparse.indices.index(index)]
            if weight > 0:
                return float(points[0].score) / weight
    return idf(0, n)


def _ranking(mode: SearchMode, sparse_query: Query, dense_vec: list[float], k: int) -> QueryRequest:
    if mode == "sparse":
        return QueryRequest(limit=k, query=sparse_query, with_payload=True)
    dense_query = Query.Nearest(dense_vec, using=DENSE_VECTOR_NAME)
    if mode == "dense":
        return QueryRequest(limit=k, query=dense_query, with_payload=True)
    return QueryRequest(
        limit=k,
        prefetches=[Prefetch(limit=k, query=sparse_query), Prefetch(limit=k, query=dense_query)],
        query=cast(Fusion, Fusion.Rrf(k=_RRF_K)),  # the stubs type the class, not its variants
        with_payload=True,
    )


def _scores(shard: EdgeShard, query: Query, ids: HasIdCondition, limit: int) -> dict[str, float]:
    """Scores of the given points under ``query`` (points it does not match are left out)."""
    request = QueryRequest(limit=limit, query=query, filter=Filter(must=[ids]))
    return {str(p.id): float(p.score) for p in shard.query(request)}


def _blend(mode: SearchMode, lexical: float, cosine: float | None) -> float:
    if mode == "dense":
        return min(1.0, max(0.0, cosine or 0.0))
    return hybrid_score(lexical, cosine)


def _hit(point: ScoredPoint, collection: str, score: float, raw: float) -> RetrievedChunk:
    return chunk_from_payload(point.payload, str(point.id), collection, score, float(raw))


def _source_filter(source: str) -> Filter:
    return Filter(must=[FieldCondition(key=SOURCE_KEY, match=MatchValue(source))])


def _scroll(shard: EdgeShard, flt: Filter | None, payload: bool | list[str]) -> list[Any]:
    out: list[Any] = []
    offset: Any = None
    while True:
        records, offset = shard.scroll(
            ScrollRequest(offset=offset, limit=2048, filter=flt, with_payload=payload)
        )
        out.extend(records)
        if offset is None:
            return out
