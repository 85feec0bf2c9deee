"""Result types of the retrieval layer and its errors."""

# No `from __future__ import annotations`: pydantic reads the fields' types at import; as
# objects they need no evaluating (docs/performance.md).
from collections.abc import Iterable, Sequence

from pydantic import BaseModel, ConfigDict, Field

from confidence.types import SearchStats

__all__ = ["RetrievedChunk", "SearchResult", "UnknownCollectionError", "search_stats"]


class RetrievedChunk(BaseModel):
    """One retrieved chunk with its provenance and scores."""

    model_config = ConfigDict(frozen=True)

    chunk_id: str
    """Qdrant point id (a deterministic UUID, see :mod:`grace.retrieval.ingest`)."""
    text: str
    """The chunk's text as ingested."""
    source: str
    """File name of the document the chunk comes from."""
    title: str
    """Document title (first ``# `` heading, ``<title>``, or the file stem)."""
    chunk_index: int
    """Position of the chunk in its document, from 0."""
    location: str = ""
    """Where in the file: ``p. 3``, ``row 4``, ``§ Setup > Install``; empty for plain text."""
    collection: str
    """Collection the chunk was found in."""
    score: float = Field(ge=0.0, le=1.0)
    """Normalised similarity in [0, 1], comparable across queries and modes.

    Sparse mode: the idf-weighted share of the query's terms the chunk matches (BM25 score
    divided by the score of a chunk holding every query term once), capped at 1. Hybrid
    mode: the mean of that and the dense cosine similarity (clamped to [0, 1]).
    See :mod:`grace.retrieval.scoring`.
    """
    raw_score: float
    """Score as Qdrant returned it: BM25 sum (sparse) or RRF fusion score (hybrid)."""


class SearchResult(BaseModel):
    """Hits of one search, best first, and their statistics for the confidence step."""

    model_config = ConfigDict(frozen=True)

    query: str
    """The query text as searched."""
    collection: str
    """Collection searched."""
    hits: list[RetrievedChunk] = Field(default_factory=list)
    """Hits ordered by rank (best first)."""
    stats: SearchStats = Field(default_factory=SearchStats)
    """Count, max, mean and spread of the hits' normalised scores."""


class UnknownCollectionError(LookupError):
    """A search or count named a collection that does not exist (it is never created)."""

    def __init__(self, name: str, known: Sequence[str]) -> None:
        self.name = name
        self.known = list(known)
        listing = ", ".join(repr(k) for k in self.known) or "none"
        super().__init__(f"unknown collection {name!r}; known collections: {listing}")


def search_stats(scores: Iterable[float]) -> SearchStats:
    """Statistics of normalised scores: count, max, mean and spread (max - min)."""
    values = [min(1.0, max(0.0, s)) for s in scores]
    if not values:
        return SearchStats()
    return SearchStats(
        count=len(values),
        max_score=max(values),
        mean_score=min(1.0, sum(values) / len(values)),
        spread=max(values) - min(values),
    )
