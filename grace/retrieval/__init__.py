"""Retrieval: lexical / hybrid search over named Qdrant collections, and ingestion.

Offline (default) collections hold BM25-style sparse vectors (:class:`LexicalSparseEmbeddings`
with Qdrant's IDF modifier) over language-aware tokens (:func:`tokenize`: stemmed English,
SudachiPy words + character bigrams for Japanese). With dense embeddings the store is
hybrid. Scores are normalised to [0, 1] (:mod:`grace.retrieval.scoring`).
"""

from grace.retrieval.ingest import (
    FileProblem,
    IngestReport,
    ensure_sample_corpus,
    ingest_paths,
)
from grace.retrieval.sparse import LexicalSparseEmbeddings
from grace.retrieval.store import CorpusStore
from grace.retrieval.tokenize import tokenize
from grace.retrieval.types import (
    RetrievedChunk,
    SearchResult,
    UnknownCollectionError,
)

__all__ = [
    "CorpusStore",
    "FileProblem",
    "IngestReport",
    "LexicalSparseEmbeddings",
    "RetrievedChunk",
    "SearchResult",
    "UnknownCollectionError",
    "ensure_sample_corpus",
    "ingest_paths",
    "tokenize",
]
