"""``CorpusStore``: the one document-store interface GRACE's tools, ingestion and services use.

A store holds named *collections* of document chunks (text + ``source`` / ``title`` /
``chunk_index`` metadata, under deterministic point ids chosen by
:mod:`grace.retrieval.ingest`) and searches them:

- ``sparse``: lexical BM25 (:class:`~grace.retrieval.sparse.LexicalSparseEmbeddings` document
  weights, Qdrant's IDF modifier at query time);
- ``dense``: cosine similarity of a dense embedding model's vectors;
- ``hybrid``: Reciprocal Rank Fusion of both rankings.

Scores are normalised to [0, 1] as described in :mod:`grace.retrieval.scoring`.

Two backends implement it (:mod:`grace.retrieval.backends`): ``edge`` — Qdrant Edge, the
Qdrant engine embedded in the process, one shard per collection under the data directory
(the default) — and ``server`` — a Qdrant server or cluster by URL through langchain-qdrant.
Nothing outside the backends names a Qdrant class.
"""

from __future__ import annotations

from collections.abc import Sequence
from types import TracebackType
from typing import Any, Literal, Protocol, Self, runtime_checkable

from grace.errors import StoreBusyError
from grace.retrieval.types import SearchResult

__all__ = [
    "DENSE_VECTOR_NAME",
    "SPARSE_VECTOR_NAME",
    "CorpusStore",
    "SearchMode",
    "StoreBusyError",
]

SPARSE_VECTOR_NAME = "lexical"
"""Name of the sparse (BM25) vector in every GRACE collection."""
DENSE_VECTOR_NAME = "dense"
"""Name of the dense vector in hybrid collections."""

SearchMode = Literal["sparse", "dense", "hybrid"]
"""How a search ranks: lexical, dense embeddings, or the fusion of both."""


@runtime_checkable
class CorpusStore(Protocol):
    """Named collections of document chunks, searched lexically, densely or hybrid."""

    default_collection: str
    """Collection used when a call names none."""

    @property
    def mode(self) -> SearchMode:
        """Default search mode: ``hybrid`` with a dense embedding model, else ``sparse``."""
        ...

    @property
    def is_local(self) -> bool:
        """Whether the data lives in this process (embedded): a full scan is cheap."""
        ...

    @property
    def searches_in_process(self) -> bool:
        """Whether :meth:`search` is CPU work in this process only (nothing to wait on)."""
        ...

    def resolve(self, collection: str | None) -> str:
        """Return the collection name to use: ``collection`` or the default one."""
        ...

    def list_collections(self) -> list[str]:
        """Names of all collections, sorted."""
        ...

    def has_collection(self, name: str) -> bool:
        """Whether collection ``name`` exists."""
        ...

    def ensure_collection(self, name: str) -> None:
        """Create collection ``name`` if missing."""
        ...

    def count(self, collection: str | None = None) -> int:
        """Chunks in ``collection``; raises :class:`UnknownCollectionError`."""
        ...

    def add_chunks(
        self,
        collection: str,
        texts: Sequence[str],
        metadatas: Sequence[dict[str, Any]],
        ids: Sequence[str],
    ) -> None:
        """Upsert chunks with their metadata under the given (deterministic) point ids."""
        ...

    def delete_points(self, collection: str, ids: Sequence[str]) -> None:
        """Delete chunks by point id."""
        ...

    def delete_source(self, collection: str, source: str) -> int:
        """Delete every chunk of document ``source``; return how many there were."""
        ...

    def source_point_ids(self, collection: str, source: str) -> set[str]:
        """Point ids of the chunks of document ``source`` in ``collection``."""
        ...

    def point_ids_by_source(self, collection: str) -> dict[str, set[str]]:
        """All point ids of ``collection`` grouped by document ``source`` (one scan)."""
        ...

    def list_sources(self, collection: str) -> list[str]:
        """Documents (``source`` values) in ``collection``, sorted."""
        ...

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
        ...

    async def asearch(
        self,
        query: str,
        *,
        collection: str | None = None,
        k: int = 5,
        mode: SearchMode | None = None,
    ) -> SearchResult:
        """:meth:`search` without blocking the event loop."""
        ...

    def flush(self) -> None:
        """Make every write so far durable (on disk, or acknowledged by the server)."""
        ...

    def close(self) -> None:
        """Release files, locks and connections. Idempotent."""
        ...

    def __enter__(self) -> Self:
        """Use as a context manager that closes the store."""
        ...

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        """Close the store."""
        ...
