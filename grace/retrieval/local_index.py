"""In-memory inverted index mirroring Qdrant's sparse IDF scoring, for local mode.

Qdrant *local mode* scores sparse queries by brute force in pure Python (a merge join per
stored vector): about 0.4 s per query at 10,000 chunks. This index answers the same query
— identical scores: ``Σ idf(t) · q(t) · w_d(t)`` with Qdrant's idf over the same points —
in a few milliseconds with numpy postings. It is a read cache: the points live in Qdrant
(written through ``QdrantVectorStore``), the index is rebuilt from them after any write.
Local mode holds a file lock, so no other process can change the collection meanwhile.
A server deployment does not use it (the server has a real inverted index).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from qdrant_client import QdrantClient, models

from grace.retrieval.scoring import idf

__all__ = ["LocalHit", "LocalSparseIndex"]


@dataclass(frozen=True)
class LocalHit:
    """A scored point from :class:`LocalSparseIndex`."""

    point_id: str
    raw_score: float
    payload: dict[str, Any]


@dataclass
class LocalSparseIndex:
    """Postings of one collection's sparse vector: token index → (rows, weights)."""

    ids: list[str] = field(default_factory=list)
    payloads: list[dict[str, Any]] = field(default_factory=list)
    postings: dict[int, tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]] = field(
        default_factory=dict
    )

    @classmethod
    def build(
        cls, client: QdrantClient, collection: str, vector_name: str, batch: int = 2048
    ) -> LocalSparseIndex:
        """Read every point of ``collection`` and index its sparse vector."""
        index = cls()
        rows: dict[int, list[int]] = defaultdict(list)
        weights: dict[int, list[float]] = defaultdict(list)
        offset: Any = None
        while True:
            points, offset = client.scroll(
                collection,
                limit=batch,
                offset=offset,
                with_payload=True,
                with_vectors=[vector_name],
            )
            for point in points:
                vectors = point.vector if isinstance(point.vector, dict) else {}
                sparse = vectors.get(vector_name)
                if not isinstance(sparse, models.SparseVector):
                    continue
                row = len(index.ids)
                index.ids.append(str(point.id))
                index.payloads.append(dict(point.payload or {}))
                for i, v in zip(sparse.indices, sparse.values, strict=True):
                    rows[i].append(row)
                    weights[i].append(v)
            if offset is None:
                break
        index.postings = {
            i: (np.asarray(rows[i], dtype=np.int64), np.asarray(weights[i], dtype=np.float64))
            for i in rows
        }
        return index

    def __len__(self) -> int:
        return len(self.ids)

    def document_frequencies(self, indices: Sequence[int]) -> dict[int, int]:
        """Return the number of points holding each token index."""
        return {i: len(self.postings[i][0]) if i in self.postings else 0 for i in indices}

    def score_points(
        self, indices: Sequence[int], values: Sequence[float], point_ids: Sequence[str]
    ) -> dict[str, float]:
        """Raw scores of the given points (0.0 for no overlap or unknown points)."""
        wanted_ids = set(point_ids)
        wanted = {pid: r for r, pid in enumerate(self.ids) if pid in wanted_ids}
        n = len(self.ids)
        out = dict.fromkeys(point_ids, 0.0)
        for i, q in zip(indices, values, strict=True):
            posting = self.postings.get(i)
            if posting is None:
                continue
            post_rows, w = posting
            weight = idf(len(post_rows), n) * q
            for pid, r in wanted.items():
                hit = np.nonzero(post_rows == r)[0]
                if hit.size:
                    out[pid] += weight * float(w[hit[0]])
        return out

    def search(self, indices: Sequence[int], values: Sequence[float], k: int) -> list[LocalHit]:
        """Top ``k`` points by ``Σ idf · q · w`` among points sharing a token with the query."""
        n = len(self.ids)
        if n == 0 or k <= 0:
            return []
        scores = np.zeros(n, dtype=np.float64)
        touched = np.zeros(n, dtype=bool)
        for i, q in zip(indices, values, strict=True):
            posting = self.postings.get(i)
            if posting is None:
                continue
            rows, w = posting
            scores[rows] += idf(len(rows), n) * q * w
            touched[rows] = True
        candidates = np.nonzero(touched)[0]
        if candidates.size == 0:
            return []
        if candidates.size > k:
            part = np.argpartition(-scores[candidates], k - 1)[:k]
            candidates = candidates[part]
        order = candidates[np.lexsort((candidates, -scores[candidates]))]
        return [LocalHit(self.ids[r], float(scores[r]), self.payloads[r]) for r in order.tolist()]
