"""Heuristic answer judge: lexical evidence that an answer is on topic and supported.

- ``self_eval``: share of the question's key terms (names, numbers, kanji / katakana runs)
  found in the cited passages, times the reader's support; 0 when the reader abstained.
- ``coverage``: IDF-free share of the question's content tokens found in the answer
  sentence and its cited passages.
Both are measured whenever there is an answer; an abstention is measured as 0.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

from confidence.judges import AnswerJudgement
from grace.retrieval import tokenize
from grace.text import key_terms

__all__ = ["HeuristicAnswerJudge"]


class HeuristicAnswerJudge:
    """Offline judge implementing :class:`confidence.AnswerJudge`."""

    def __init__(self, *, abstain_marker: str = "do not contain") -> None:
        """Create a judge; answers containing ``abstain_marker`` count as abstentions."""
        self.abstain_marker = abstain_marker

    def judge(self, question: str, answer: str, passages: Sequence[str]) -> AnswerJudgement:
        """Judge the answer against the passages it cites."""
        if not answer.strip() or self.abstain_marker in answer:
            return AnswerJudgement(self_eval=0.0, coverage=0.0, rationale="no answer given")
        evidence = " ".join(passages)
        lowered = evidence.lower()
        q_keys = key_terms(question)
        key_share = sum(k in lowered for k in q_keys) / len(q_keys) if q_keys else 1.0
        q_tokens = set(tokenize(question))
        ev_tokens = set(tokenize(evidence + " " + answer))
        coverage = len(q_tokens & ev_tokens) / len(q_tokens) if q_tokens else 0.0
        self_eval = key_share * (0.5 + 0.5 * coverage)
        return AnswerJudgement(
            self_eval=round(self_eval, 4),
            coverage=round(coverage, 4),
            rationale=f"key terms found {key_share:.2f}, question tokens covered {coverage:.2f}",
        )

    async def ajudge(self, question: str, answer: str, passages: Sequence[str]) -> AnswerJudgement:
        """Run :meth:`judge` in a worker thread."""
        return await asyncio.to_thread(self.judge, question, answer, passages)
