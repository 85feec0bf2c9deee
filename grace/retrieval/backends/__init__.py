"""Store backends behind :class:`~grace.retrieval.store.CorpusStore`, chosen by name.

=========  =====================================================================
``edge``   Qdrant Edge embedded in the process, one shard per collection on disk
           (default). Collections of the earlier local-mode store are copied over
           on first open (:mod:`grace.retrieval.backends.legacy`).
``server`` A Qdrant server or cluster by URL, through langchain-qdrant (scale-out).
=========  =====================================================================
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from langchain_core.embeddings import Embeddings

from grace.retrieval.sparse import SparseEncoder
from grace.retrieval.store import CorpusStore

__all__ = ["BACKENDS", "BackendName", "StoreOptions", "open_store"]

BackendName = Literal["edge", "server"]
"""Names of the store backends."""

EDGE_SUBDIR = "edge"
"""Shard directory inside the store directory."""


@dataclass(frozen=True, kw_only=True)
class StoreOptions:
    """Everything a backend may need to open the store."""

    path: Path | None = None
    """Store directory (``edge``): shards go to ``<path>/edge``; old local-mode files here."""
    url: str | None = None
    """Qdrant server URL (``server``)."""
    api_key: str | None = None
    """Qdrant server API key (``server``; default ``$QDRANT_API_KEY``)."""
    dense_embeddings: Embeddings | None = None
    """Dense embedding model: hybrid collections and searches."""
    default_collection: str = "grace"
    """Collection used when a call names none."""
    sparse_embeddings: SparseEncoder | None = None
    """Lexical encoder (default :class:`~grace.retrieval.sparse.LexicalSparseEmbeddings`)."""
    lock_timeout: float = 30.0
    """Seconds to wait for a collection another process holds (``edge``)."""
    idle_release: float | None = 2.0
    """Seconds before an unused shard is closed and unlocked (``edge``; None: at close)."""


def _open_edge(options: StoreOptions) -> CorpusStore:
    from grace.retrieval.backends.edge import EdgeStore
    from grace.retrieval.backends.legacy import migrate_local_mode

    if options.path is None:
        raise ValueError("the edge backend needs a store directory (retrieval.qdrant_path)")
    store = EdgeStore(
        options.path / EDGE_SUBDIR,
        dense_embeddings=options.dense_embeddings,
        default_collection=options.default_collection,
        sparse_embeddings=options.sparse_embeddings,
        lock_timeout=options.lock_timeout,
        idle_release=options.idle_release,
    )
    try:
        migrate_local_mode(options.path, store)
    except BaseException:
        store.close()
        raise
    return store


def _open_server(options: StoreOptions) -> CorpusStore:
    from grace.retrieval.backends.server import ServerStore

    if not options.url:
        raise ValueError("the server backend needs retrieval.qdrant_url")
    return ServerStore(
        options.url,
        api_key=options.api_key,
        dense_embeddings=options.dense_embeddings,
        default_collection=options.default_collection,
        sparse_embeddings=options.sparse_embeddings,
    )


BACKENDS: dict[str, Callable[[StoreOptions], CorpusStore]] = {
    "edge": _open_edge,
    "server": _open_server,
}
"""Backend name → opener."""


def open_store(backend: BackendName, options: StoreOptions) -> CorpusStore:
    """Open the document store of ``backend`` with ``options``."""
    try:
        opener = BACKENDS[backend]
    except KeyError:
        raise ValueError(f"unknown store backend {backend!r}; known: {sorted(BACKENDS)}") from None
    return opener(options)
