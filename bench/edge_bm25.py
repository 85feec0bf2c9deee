"""Qdrant Edge's built-in ``Bm25`` encoder behind GRACE's :class:`SparseEncoder` interface.

Measured against GRACE's own encoder on the dev set (``python -m bench.retrieval_recall
DATASET --encoder edge-bm25``) and not adopted: it lost recall@1 in English and recall@5 in
Japanese, and lowered the answerable-vs-unanswerable AUROC of the top score (figures in the
documentation, "Document store"). Kept here, beside that comparison, and out of the product.
"""

from __future__ import annotations

from qdrant_edge import Bm25, Bm25Config, TokenizerType

from grace.retrieval.sparse import DEFAULT_AVGDL, DEFAULT_B, DEFAULT_K1, SparseVector

__all__ = ["EdgeBm25Embeddings"]


class EdgeBm25Embeddings:
    """Edge's BM25 (multilingual tokenizer: English stemming, Japanese word segmentation).

    Args:
        avg_len: Average document length in tokens (GRACE's default; Edge's own is 256).
        language: Stopwords and stemmer language.

    """

    def __init__(self, *, avg_len: float = DEFAULT_AVGDL, language: str = "english") -> None:
        self.model = Bm25(
            Bm25Config(
                k=DEFAULT_K1,
                b=DEFAULT_B,
                avg_len=avg_len,
                tokenizer=TokenizerType.Multilingual,
                language=language,
            )
        )

    def embed_documents(self, texts: list[str]) -> list[SparseVector]:
        """Document vectors: BM25 term-frequency weights."""
        out = []
        for text in texts:
            vec = self.model.embed_document(text)
            out.append(SparseVector(list(vec.indices), [float(v) for v in vec.values]))
        return out

    def embed_query(self, text: str) -> SparseVector:
        """Query vector: 1.0 per unique token."""
        indices = sorted(set(self.model.embed_query(text).indices))
        return SparseVector(indices, [1.0] * len(indices))
