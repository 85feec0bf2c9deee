"""Retrieval: lexical / dense / hybrid search over named collections, and ingestion.

Collections hold BM25-style sparse vectors (:class:`LexicalSparseEmbeddings` with Qdrant's
IDF modifier) over language-aware tokens (:func:`tokenize`: stemmed English, SudachiPy words
+ character bigrams for Japanese); with dense embeddings, a dense vector too. Everything
goes through the :class:`CorpusStore` interface; :func:`open_store` opens a backend
(``edge``: Qdrant Edge embedded, the default; ``server``: a Qdrant server). Scores are
normalised to [0, 1] (:mod:`grace.retrieval.scoring`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from grace.retrieval.backends import BackendName, StoreOptions, open_store
from grace.retrieval.sample import ensure_sample_corpus
from grace.retrieval.sparse import LexicalSparseEmbeddings
from grace.retrieval.store import CorpusStore, SearchMode, StoreBusyError
from grace.retrieval.tokenize import tokenize
from grace.retrieval.types import (
    RetrievedChunk,
    SearchResult,
    UnknownCollectionError,
)

if TYPE_CHECKING:
    from grace.retrieval.ingest import FileProblem, IngestReport, ingest_paths

_INGEST = ("FileProblem", "IngestReport", "ingest_paths")
"""Names of :mod:`grace.retrieval.ingest`, imported on first use (PEP 562): a run that only
searches never loads the ingestion code and its document converters."""


def __getattr__(name: str) -> Any:
    """An ingestion name, imported from :mod:`grace.retrieval.ingest` on first use."""
    if name not in _INGEST:
        raise AttributeError(f"module 'grace.retrieval' has no attribute {name!r}")
    from grace.retrieval import ingest

    return getattr(ingest, name)

__all__ = [
    "BackendName",
    "CorpusStore",
    "FileProblem",
    "IngestReport",
    "LexicalSparseEmbeddings",
    "RetrievedChunk",
    "SearchMode",
    "SearchResult",
    "StoreBusyError",
    "StoreOptions",
    "UnknownCollectionError",
    "ensure_sample_corpus",
    "ingest_paths",
    "open_store",
    "tokenize",
]
