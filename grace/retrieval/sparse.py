"""Lexical sparse vectors (BM25 document weights; Qdrant's IDF modifier supplies the idf).

A collection's sparse vector is configured with ``models.Modifier.IDF``: Qdrant multiplies
each *query* value by ``idf(t) = ln(1 + (N - df + 0.5) / (df + 0.5))`` computed over the
collection at query time. The score of a document is therefore

    score(q, d) = Σ_{t ∈ q ∩ d} idf(t) · w_q(t) · w_d(t)

With ``w_q(t) = 1`` per unique query token and the BM25 term-frequency saturation with
length normalisation as document value,

    w_d(t) = tf · (k1 + 1) / (tf + k1 · (1 - b + b · |d| / avgdl))

this is exactly Okapi BM25 (with a fixed ``avgdl``: the document value is computed at
ingestion time, without corpus statistics). A single occurrence in a document of average
length weighs exactly 1.0, which the score normalisation relies on.

Token indices are stable across processes and machines: the first 31 bits of the
BLAKE2b digest of the token (Python's ``hash()`` is salted per process).

A chunk is indexed with its document's title (:func:`embed_chunks`): splitting took the
title from the chunk ("Its main telescope has a 1.2-metre mirror" under the Grellan
Observatory page), so each title token the chunk lacks is added at :data:`TITLE_WEIGHT`.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Protocol

from grace.retrieval.tokenize import RETRIEVAL_TOKENIZER

__all__ = [
    "DEFAULT_AVGDL",
    "DEFAULT_B",
    "DEFAULT_K1",
    "TITLE_WEIGHT",
    "LexicalSparseEmbeddings",
    "SparseEncoder",
    "SparseVector",
    "embed_chunks",
    "token_index",
]

DEFAULT_K1 = 1.2
"""BM25 term-frequency saturation."""
DEFAULT_B = 0.75
"""BM25 length normalisation strength."""
DEFAULT_AVGDL = 60.0
"""Assumed average chunk length in tokens (a paragraph; measured on the dev corpus)."""
TITLE_WEIGHT = 0.35
"""Document value of a title token the chunk itself lacks (a single occurrence in the chunk
weighs about 1.0). Measured with ``python -m bench.retrieval_recall DATASET --ablation``
("title context"): recall@5 rose or held in both languages on the calib and dev sets, and
the title at full weight (prefixed to the chunk) lost Japanese recall@5 on dev."""


_SPLIT_MIN = 16
"""Texts from which :meth:`LexicalSparseEmbeddings.embed_documents` uses its helper thread."""


@lru_cache(maxsize=1)
def _helper() -> ThreadPoolExecutor:
    """The helper thread that encodes half of a long list of documents."""
    return ThreadPoolExecutor(max_workers=1, thread_name_prefix="grace-sparse")


@lru_cache(maxsize=200_000)
def token_index(token: str) -> int:
    """Stable 31-bit index of ``token`` (BLAKE2b, independent of ``PYTHONHASHSEED``)."""
    digest = hashlib.blake2b(token.encode("utf-8"), digest_size=4).digest()
    return int.from_bytes(digest, "big") & 0x7FFFFFFF


@dataclass(frozen=True)
class SparseVector:
    """A sparse vector: token indices (ascending) and their weights.

    GRACE's own type, so the embedded backend never imports the server client; the server
    backend converts it for langchain-qdrant.
    """

    indices: list[int] = field(default_factory=list)
    """Token indices, ascending."""
    values: list[float] = field(default_factory=list)
    """Weights of ``indices``."""


class SparseEncoder(Protocol):
    """Text → sparse vectors: documents with BM25 weights, queries with 1.0 per token."""

    def embed_documents(self, texts: list[str]) -> list[SparseVector]:
        """Document vectors."""
        ...

    def embed_query(self, text: str) -> SparseVector:
        """Query vector."""
        ...


class LexicalSparseEmbeddings:
    """BM25-style sparse vectors over language-aware tokens (see :mod:`grace.retrieval.tokenize`).

    Args:
        tokenizer: Text → tokens; defaults to
            :data:`~grace.retrieval.tokenize.RETRIEVAL_TOKENIZER` (:func:`tokenize` without
            Japanese question words).
        k1: BM25 term-frequency saturation.
        b: BM25 length normalisation.
        avgdl: Average document length in tokens used by the length normalisation.

    """

    def __init__(
        self,
        tokenizer: Callable[[str], list[str]] = RETRIEVAL_TOKENIZER,
        *,
        k1: float = DEFAULT_K1,
        b: float = DEFAULT_B,
        avgdl: float = DEFAULT_AVGDL,
    ) -> None:
        self.tokenizer = tokenizer
        self.k1 = k1
        self.b = b
        self.avgdl = avgdl

    def embed_documents(self, texts: list[str]) -> list[SparseVector]:
        """Document vectors: BM25 saturated, length-normalised term frequencies.

        A long list is split with a helper thread: SudachiPy releases the GIL while it
        analyses, so Japanese text is encoded on two cores (the tokenizer is thread-safe).
        """
        if len(texts) < _SPLIT_MIN:
            return [self._document(text) for text in texts]
        half = len(texts) // 2
        rest = _helper().submit(lambda: [self._document(text) for text in texts[half:]])
        return [self._document(text) for text in texts[:half]] + rest.result()

    def embed_query(self, text: str) -> SparseVector:
        """Query vector: 1.0 per unique token (Qdrant multiplies it by the idf)."""
        indices = sorted({token_index(t) for t in self.tokenizer(text)})
        return SparseVector(indices=indices, values=[1.0] * len(indices))

    def _document(self, text: str) -> SparseVector:
        tokens = self.tokenizer(text)
        # Count token indices directly (token_index is cached, so each token costs one cache
        # lookup): tokens whose indices collide add up, as in one dict pass.
        counts = Counter(map(token_index, tokens))
        norm = self.k1 * (1.0 - self.b + self.b * len(tokens) / self.avgdl)
        indices = sorted(counts)
        k = self.k1 + 1.0
        values = [n * k / (n + norm) for n in map(counts.__getitem__, indices)]
        return SparseVector(indices=indices, values=values)


def embed_chunks(
    encoder: SparseEncoder, texts: Sequence[str], titles: Sequence[str]
) -> list[SparseVector]:
    """Document vectors of chunks, each with its document title's tokens.

    A title token the chunk lacks gets :data:`TITLE_WEIGHT`; one it has keeps its own
    weight when higher. The title's tokens are the encoder's query tokens (any encoder).
    """
    vectors = encoder.embed_documents(list(texts))
    title_tokens = {t: encoder.embed_query(t).indices for t in set(titles) if t.strip()}
    return [
        _with_tokens(v, title_tokens.get(title, []), TITLE_WEIGHT)
        for v, title in zip(vectors, titles, strict=True)
    ]


def _with_tokens(vector: SparseVector, indices: list[int], weight: float) -> SparseVector:
    """``vector`` with each of ``indices`` at ``weight`` at least."""
    if not indices:
        return vector
    merged = dict(zip(vector.indices, vector.values, strict=True))
    for i in indices:
        merged[i] = max(merged.get(i, 0.0), weight)
    order = sorted(merged)
    return SparseVector(indices=order, values=[merged[i] for i in order])
