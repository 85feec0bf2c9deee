"""Retrieval: lexical / dense / hybrid search over named collections, and ingestion.

Collections hold BM25-style sparse vectors (:class:`LexicalSparseEmbeddings` with Qdrant's
IDF modifier) over language-aware tokens (:func:`tokenize`: stemmed English, SudachiPy words
+ character bigrams for Japanese); with dense embeddings, a dense vector too. Everything
goes through the :class:`CorpusStore` interface; :func:`open_store` opens a backend
(``edge``: Qdrant Edge embedded, the default; ``server``: a Qdrant server). Scores are
normalised to [0, 1] (:mod:`grace.retrieval.scoring`).
"""

from grace.retrieval.backends import BackendName, StoreOptions, open_store
from grace.retrieval.ingest import (
    FileProblem,
    IngestReport,
    ensure_sample_corpus,
    ingest_paths,
)
from grace.retrieval.sparse import LexicalSparseEmbeddings
from grace.retrieval.store import CorpusStore, SearchMode, StoreBusyError
from grace.retrieval.tokenize import tokenize
from grace.retrieval.types import (
    RetrievedChunk,
    SearchResult,
    UnknownCollectionError,
)

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
