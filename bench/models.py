"""Benchmark doubles: a chat model and a document store with a configurable latency.

These are **test doubles for the benchmarks only** — never a product default. They stand in
for Gemini and for a slow retrieval backend so that timings measure GRACE's orchestration
(and its concurrency) rather than a remote service:

- :class:`BenchChatModel` answers every call the model-backed (Gemini) path makes — a plan
  (structured output ``PlanDraft``), a grounded answer (plain text citing ``[S1]``) and a
  judge verdict (structured output ``AnswerVerdict``) — after ``latency`` seconds
  (``time.sleep`` in sync calls, ``asyncio.sleep`` in async calls). Replies never run out,
  calls are counted thread-safely, and the same instance serves any number of runs.
- :class:`LatentStore` wraps a :class:`~grace.retrieval.CorpusStore` and adds ``latency``
  seconds to every ``search`` / ``asearch``.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any, cast

from langchain_core.callbacks import AsyncCallbackManagerForLLMRun, CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel, LanguageModelInput
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.runnables import Runnable
from langchain_core.tools import BaseTool
from langchain_core.utils.function_calling import convert_to_openai_tool
from pydantic import PrivateAttr

from grace.retrieval import CorpusStore, SearchResult

__all__ = [
    "ANSWER",
    "GOOD_VERDICT",
    "BenchChatModel",
    "CallCounter",
    "LatentStore",
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


class CallCounter:
    """Thread-safe count of model calls by kind (``text`` or a structured-output schema)."""

    def __init__(self) -> None:
        """Start at zero."""
        self._lock = threading.Lock()
        self.counts: Counter[str] = Counter()

    def add(self, kind: str) -> None:
        """Count one call of ``kind``."""
        with self._lock:
            self.counts[kind] += 1

    def total(self) -> int:
        """All calls so far."""
        with self._lock:
            return sum(self.counts.values())


class BenchChatModel(BaseChatModel):
    """A chat model double with fixed replies and a latency (benchmarks only)."""

    latency: float = 0.0
    """Seconds each call takes."""
    plan: dict[str, Any] | None = None
    """``PlanDraft`` arguments returned to the planner (``None``: a one-search plan)."""
    answer: str = ANSWER
    """The reader's text reply."""
    verdict: dict[str, Any] = GOOD_VERDICT
    """The judge's structured reply."""
    tool_name: str | None = None
    """Schema bound by ``bind_tools`` (``None``: plain text calls)."""
    usage: tuple[int, int] = (100, 20)
    """Reported (input, output) tokens per call."""
    _counter: CallCounter = PrivateAttr(default_factory=CallCounter)

    @property
    def counter(self) -> CallCounter:
        """Calls made through this model and its ``bind_tools`` copies."""
        return self._counter

    @property
    def _llm_type(self) -> str:
        return "grace-bench-double"

    def bind_tools(
        self,
        tools: Sequence[dict[str, Any] | type | Callable[..., Any] | BaseTool],
        *,
        tool_choice: str | None = None,
        **kwargs: Any,
    ) -> Runnable[LanguageModelInput, AIMessage]:
        """Return a copy answering the first tool's schema (shares the call counter)."""
        name = convert_to_openai_tool(tools[0])["function"]["name"]
        copy = self.model_copy(update={"tool_name": name})
        copy._counter = self._counter
        return copy

    def _reply(self) -> ChatResult:
        kind = self.tool_name or "text"
        self._counter.add(kind)
        if self.tool_name is None:
            msg = AIMessage(content=self.answer)
        else:
            if kind == "PlanDraft":
                args = self.plan or independent_search_plan(["benchmark"], "benchmark")
            elif kind == "AnswerVerdict":
                args = self.verdict
            else:
                raise RuntimeError(f"benchmark double has no reply for schema {kind}")
            msg = AIMessage(
                content="",
                tool_calls=[{"name": kind, "args": args, "id": f"call_{kind}"}],
            )
        inp, out = self.usage
        msg.usage_metadata = {"input_tokens": inp, "output_tokens": out, "total_tokens": inp + out}
        return ChatResult(generations=[ChatGeneration(message=msg)])

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        if self.latency:
            time.sleep(self.latency)
        return self._reply()

    async def _agenerate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: AsyncCallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        if self.latency:
            await asyncio.sleep(self.latency)
        return self._reply()


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
