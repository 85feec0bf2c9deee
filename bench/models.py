"""Benchmark doubles: a chat model and a document store with a configurable latency.

These are **test doubles for the benchmarks only** — never a product default. They stand in
for Gemini and for a slow retrieval backend so that timings measure GRACE's orchestration
(and its concurrency) rather than a remote service:

- :func:`bench_model` is the tests' :class:`~tests.fakes.ScriptedChatModel` with fixed
  replies to every call the model-backed (Gemini) path makes — a plan (structured output
  ``PlanDraft``), a grounded answer (plain text citing ``[S1]``) and a judge verdict
  (structured output ``AnswerVerdict``) — after ``latency`` seconds (``time.sleep`` in sync
  calls, ``asyncio.sleep`` in async calls).
- :class:`LatentStore` wraps a :class:`~grace.retrieval.CorpusStore` and adds ``latency``
  seconds to every ``search`` / ``asearch``.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Sequence
from typing import Any, cast

from grace.retrieval import CorpusStore, SearchResult
from tests.fakes import ScriptedChatModel

__all__ = [
    "ANSWER",
    "GOOD_VERDICT",
    "LatentStore",
    "bench_model",
    "independent_search_plan",
]

ANSWER = "According to the documents, the answer is stated in [S1]."
"""The reader's reply: cites the first passage."""
GOOD_VERDICT: dict[str, Any] = {
    "self_evaluation": 0.95,
    "query_coverage": 0.95,
    "rationale": "benchmark double: supported",
}
"""The judge's reply."""


def independent_search_plan(queries: Sequence[str], question: str) -> dict[str, Any]:
    """A ``PlanDraft`` with one independent ``rag_search`` per query and a final answer step."""
    steps: list[dict[str, Any]] = [
        {"step_id": f"s{i}", "action": "rag_search", "query": q} for i, q in enumerate(queries, 1)
    ]
    steps.append(
        {
            "step_id": f"s{len(queries) + 1}",
            "action": "reasoning",
            "query": question,
            "depends_on": [s["step_id"] for s in steps],
        }
    )
    return {"complexity": 0.8, "steps": steps}


def bench_model(*, latency: float = 0.0, plan: dict[str, Any] | None = None) -> ScriptedChatModel:
    """The tests' scripted chat model with fixed replies and ``latency`` (benchmarks only).

    Answers every call the model-backed path makes: a plan (``plan``, else one search), a
    grounded answer citing ``[S1]`` and a good verdict; never runs out, counts its calls
    (``model.count()``) and serves any number of runs from several threads.
    """
    return ScriptedChatModel.fixed(
        {
            "PlanDraft": plan or independent_search_plan(["benchmark"], "benchmark"),
            "text": ANSWER,
            "AnswerVerdict": GOOD_VERDICT,
        },
        latency=latency,
    )


class LatentStore:
    """A :class:`CorpusStore` whose searches take ``latency`` seconds longer (benchmarks only).

    Everything but ``search`` / ``asearch`` is delegated unchanged. Use :meth:`wrap` to get
    it typed as a ``CorpusStore`` for :func:`grace.services.build_services`.
    """

    searches_in_process = False
    """Stands in for a remote backend: its searches wait (tools run them off-thread)."""

    def __init__(self, inner: CorpusStore, latency: float) -> None:
        """Wrap ``inner``."""
        self.inner = inner
        self.latency = latency

    @classmethod
    def wrap(cls, inner: CorpusStore, latency: float) -> CorpusStore:
        """``inner`` with added search latency, typed as the store it stands in for."""
        return cast(CorpusStore, cls(inner, latency))

    def search(self, query: str, *, collection: str | None = None, k: int = 5) -> SearchResult:
        """Sleep ``latency`` seconds, then search."""
        time.sleep(self.latency)
        return self.inner.search(query, collection=collection, k=k)

    async def asearch(
        self, query: str, *, collection: str | None = None, k: int = 5
    ) -> SearchResult:
        """Await ``latency`` seconds, then search (in a worker thread)."""
        await asyncio.sleep(self.latency)
        return await self.inner.asearch(query, collection=collection, k=k)

    def close(self) -> None:
        """Do not close the wrapped store (its owner does)."""

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)
