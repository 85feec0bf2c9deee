"""Source agreement: how much the sources behind a step say the same thing."""

from __future__ import annotations

import math
import re
import unicodedata
from collections import Counter
from collections.abc import Callable, Sequence

__all__ = ["Embedder", "SourceAgreementCalculator", "char_ngram_vector", "cosine"]

Embedder = Callable[[list[str]], list[list[float]]]
"""Embeds a batch of texts, e.g. ``GoogleGenerativeAIEmbeddings().embed_documents``."""

_WHITESPACE = re.compile(r"\s+")


def char_ngram_vector(text: str, n: int = 3) -> Counter[str]:
    """Return the character ``n``-gram term-frequency vector of ``text``.

    The text is NFKC-normalised (full-width → half-width), case-folded and its whitespace
    runs collapsed to one space; then every run of ``n`` consecutive characters is one
    dimension. No tokenizer is involved, so it works the same for English and for
    Japanese written without spaces. A non-empty text shorter than ``n`` is one gram;
    an empty text is the zero vector.
    """
    normalised = _WHITESPACE.sub(" ", unicodedata.normalize("NFKC", text).casefold()).strip()
    if not normalised:
        return Counter()
    if len(normalised) < n:
        return Counter([normalised])
    return Counter(normalised[i : i + n] for i in range(len(normalised) - n + 1))


def cosine(a: Counter[str], b: Counter[str]) -> float:
    """Return the cosine similarity of two sparse vectors (0.0 if either is zero)."""
    if not a or not b:
        return 0.0
    small, large = (a, b) if len(a) <= len(b) else (b, a)
    dot = sum(count * large[gram] for gram, count in small.items())
    norm = math.sqrt(sum(c * c for c in a.values())) * math.sqrt(sum(c * c for c in b.values()))
    return dot / norm


class SourceAgreementCalculator:
    """Mean pairwise cosine similarity of the sources' vectors, clamped to [0, 1].

    With an ``embed`` function the vectors are its embeddings. Without one (offline
    default) each text is its character 3-gram term-frequency vector
    (:func:`char_ngram_vector`): exact, deterministic, language-agnostic, and for
    non-negative counts the cosine is already in [0, 1]. Fewer than two texts agree
    trivially (1.0). A zero vector (empty text) has similarity 0 with everything.
    """

    def __init__(self, embed: Embedder | None = None, *, ngram: int = 3) -> None:
        """Create a calculator.

        Args:
            embed: Batch embedding function; the offline n-gram vectors when ``None``.
            ngram: Character n-gram length of the offline representation.

        """
        if ngram < 1:
            raise ValueError("ngram must be >= 1")
        self.embed = embed
        """Batch embedding function, or ``None`` for the offline representation."""
        self.ngram = ngram
        """Character n-gram length of the offline representation."""

    def calculate(self, texts: Sequence[str]) -> float:
        """Return the mean pairwise cosine of ``texts`` (1.0 for fewer than two)."""
        items = list(texts)
        if len(items) < 2:
            return 1.0
        if self.embed is None:
            vectors = [char_ngram_vector(t, self.ngram) for t in items]
            sims = [
                cosine(vectors[i], vectors[j])
                for i in range(len(vectors))
                for j in range(i + 1, len(vectors))
            ]
            mean = sum(sims) / len(sims)
        else:
            mean = self._embedding_mean(items)
        return min(1.0, max(0.0, mean))

    def _embedding_mean(self, items: list[str]) -> float:
        import numpy as np  # only with an embedding model: the offline path never loads it

        assert self.embed is not None
        matrix = np.asarray(self.embed(items), dtype=float)
        if matrix.ndim != 2 or matrix.shape[0] != len(items):
            raise ValueError(
                f"embed returned shape {matrix.shape} for {len(items)} texts; "
                "expected one vector per text"
            )
        norms = np.linalg.norm(matrix, axis=1)
        safe = np.where(norms > 0.0, norms, 1.0)
        unit = matrix / safe[:, None]
        unit[norms == 0.0] = 0.0
        gram = unit @ unit.T
        upper = gram[np.triu_indices(len(items), k=1)]
        return float(upper.mean())
