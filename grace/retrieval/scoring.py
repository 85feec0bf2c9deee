"""Score normalisation: raw Qdrant scores → similarities in [0, 1] for the confidence step.

Sparse (offline default)
    Qdrant's raw score is the BM25 sum ``Σ_{t ∈ q ∩ d} idf(t) · w_d(t)`` (see
    :mod:`grace.retrieval.sparse`). Its scale depends on the query (number and rarity of
    terms) and on the collection size, so it cannot be compared across queries. We divide it
    by the score a *reference chunk* would get: one that holds every unique query token once
    and has average length, i.e. ``Σ_{t ∈ q} idf(t) · 1``. The idf of each query token is
    the one Qdrant uses, measured on the searched collection; a token the collection never
    saw gets the idf of ``df = 0`` — the largest possible — because a question about
    something absent from the corpus should score low. The ratio is capped at 1 (repeated
    terms can push a chunk past the reference). So: a chunk holding all query terms scores
    ≈ 1, a chunk sharing only a common word scores ≈ 0, and the number reads as "the
    idf-weighted share of the question found in this chunk".

    The query's tokens are those of :data:`~grace.retrieval.tokenize.RETRIEVAL_TOKENIZER`:
    stopwords and question words (English *what / when / who*, Japanese *いつ / 誰 / 何…*)
    are not part of "the question", so they neither match nor enter the reference. The
    ranking is exactly the order of this score (ties broken by raw score), so the top hit's
    score is the best share found — the number the confidence reads.

    Methods that would re-rank by something else were measured and not adopted
    (``python -m bench.retrieval_recall DATASET --ablation``): RM3 pseudo-relevance
    feedback, neighbour-passage windows, document-score interpolation and kanji unigrams
    each lost recall@1 in one language or lowered the answerable-vs-unanswerable AUROC on
    the dev or sample set. Title context is indexed
    (:func:`~grace.retrieval.sparse.embed_chunks`): it raised recall@5 (dev English, calib
    Japanese) and lost none, for 0.006 of calib's English recall@1. Any such method must keep
    this contract: a score in [0, 1] that reads as "share of the question found", not a rank.

Hybrid (online)
    Qdrant fuses the dense and sparse rankings with Reciprocal Rank Fusion; the RRF score
    only says where a hit ranks, not how similar it is (the best hit of a nonsense query gets
    the same RRF score as the best hit of a perfect match). The fused *order* is kept, and
    each hit's reported score is the mean of its normalised sparse score (above) and its
    dense cosine similarity clamped to [0, 1]. ``raw_score`` keeps the RRF value.
"""

from __future__ import annotations

import math

__all__ = ["hybrid_score", "idf", "normalise_sparse"]


def idf(df: int, n: int) -> float:
    """Qdrant's IDF modifier: ``ln(1 + (n - df + 0.5) / (df + 0.5))``."""
    return math.log((n - df + 0.5) / (df + 0.5) + 1.0)


def normalise_sparse(raw: float, reference: float) -> float:
    """Raw BM25 score as a share of the reference score, clamped to [0, 1].

    ``reference`` is the sum of the query tokens' idf (a chunk of average length holding
    each query token once scores exactly that).
    """
    if reference <= 0.0 or raw <= 0.0:
        return 0.0
    return min(1.0, raw / reference)


def hybrid_score(sparse_normalised: float, dense_cosine: float | None) -> float:
    """Mean of the normalised sparse score and the clamped dense cosine similarity."""
    dense = 0.0 if dense_cosine is None else min(1.0, max(0.0, dense_cosine))
    return min(1.0, max(0.0, 0.5 * (sparse_normalised + dense)))
