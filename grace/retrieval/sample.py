"""The bundled sample corpus, ingested into the default collection of a new data directory.

Apart from :mod:`grace.retrieval.ingest`: every run opens the store and asks whether the
collection exists, and only a new data directory ingests — so a warm run never loads the
ingestion code and its document converters.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from grace.data import sample_corpus_dir
from grace.retrieval.store import CorpusStore

if TYPE_CHECKING:
    from grace.retrieval.ingest import IngestReport

__all__ = ["SAMPLE_CORPUS_DIR", "ensure_sample_corpus"]

SAMPLE_CORPUS_DIR = sample_corpus_dir()
"""The bundled sample corpus (English and Japanese Markdown documents)."""


def ensure_sample_corpus(store: CorpusStore, collection: str | None = None) -> IngestReport | None:
    """Ingest the bundled sample corpus if ``collection`` does not exist yet.

    Only a collection that was never made is seeded: once it exists, what it holds is yours
    (removing the sample's documents leaves it empty, and it stays empty).

    Returns:
        The ingestion report, or ``None`` when the collection already existed.

    """
    name = store.resolve(collection)
    if store.has_collection(name):
        store.count(name)  # opened now: damaged collection files are refused here, in one line
        return None
    from grace.retrieval.ingest import ingest_paths

    return ingest_paths(store, [SAMPLE_CORPUS_DIR], collection=name)
