"""Extractive reader: answers with the passage sentence that best matches the question.

It never writes text of its own: the answer is a sentence copied from a retrieved passage,
with its citation, or an explicit statement that the passages do not contain the answer.
Sentences are scored by the IDF-weighted share of the question's terms they (with their
neighbours) contain, plus the share of the question's key terms (names, numbers) present.
"""

from __future__ import annotations

import asyncio
import math
from collections.abc import Sequence
from dataclasses import dataclass

from grace.providers.base import ReaderAnswer
from grace.retrieval import tokenize
from grace.schemas import Source
from grace.text import key_terms, split_sentences

__all__ = ["NOT_FOUND", "ExtractiveReader"]

NOT_FOUND = "The documents I searched do not contain an answer to this question."


@dataclass(frozen=True)
class _Candidate:
    score: float
    sentence: str
    source_id: str


class ExtractiveReader:
    """Offline reader that quotes the best-supported sentence."""

    def __init__(self, *, min_support: float = 0.4) -> None:
        """Create a reader that abstains when the best sentence covers < ``min_support``."""
        self.min_support = min_support

    def answer(
        self, question: str, passages: Sequence[Source], *, feedback: str | None = None
    ) -> ReaderAnswer:
        """Quote the sentence that best answers the question, or abstain."""
        q_tokens = set(tokenize(question))
        if not passages or not q_tokens:
            return ReaderAnswer(text=NOT_FOUND, abstained=True, support=0.0)
        idf = _idf(q_tokens, passages)
        total = sum(idf.values()) or 1.0
        q_keys = key_terms(question)
        best: _Candidate | None = None
        for passage in passages:
            sentences = split_sentences(passage.text)
            token_sets = [set(tokenize(s)) for s in sentences]
            passage_tokens = set().union(*token_sets) if token_sets else set()
            for i, sentence in enumerate(sentences):
                window = token_sets[i] | (token_sets[i - 1] if i else set())
                window |= token_sets[i + 1] if i + 1 < len(token_sets) else set()
                local = sum(idf[t] for t in q_tokens & token_sets[i]) / total
                near = sum(idf[t] for t in q_tokens & window) / total
                wide = sum(idf[t] for t in q_tokens & passage_tokens) / total
                keys = _key_share(q_keys, passage.text)
                score = 0.45 * local + 0.25 * near + 0.15 * wide + 0.15 * keys
                if best is None or score > best.score:
                    best = _Candidate(score, sentence, passage.source_id)
        assert best is not None
        support = round(min(best.score, 1.0), 4)
        if support < self.min_support:
            return ReaderAnswer(text=NOT_FOUND, abstained=True, support=support)
        return ReaderAnswer(
            text=f"{best.sentence} [{best.source_id}]",
            cited=[best.source_id],
            support=support,
        )

    async def aanswer(
        self, question: str, passages: Sequence[Source], *, feedback: str | None = None
    ) -> ReaderAnswer:
        """Run :meth:`answer` in a worker thread (tokenisation is CPU work)."""
        return await asyncio.to_thread(self.answer, question, passages, feedback=feedback)


def _idf(q_tokens: set[str], passages: Sequence[Source]) -> dict[str, float]:
    """IDF of each question token over the passages' sentences (rarer terms weigh more)."""
    sentences = [set(tokenize(s)) for p in passages for s in split_sentences(p.text)]
    n = max(len(sentences), 1)
    return {t: math.log(1.0 + (n + 1) / (1 + sum(t in s for s in sentences))) for t in q_tokens}


def _key_share(q_keys: set[str], text: str) -> float:
    if not q_keys:
        return 1.0
    lowered = text.lower()
    return sum(k in lowered for k in q_keys) / len(q_keys)
