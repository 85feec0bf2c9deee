"""``rag_search``: retrieve passages with normalised scores and the stats confidence needs."""

from __future__ import annotations

from grace.planning.roles import SEARCH, Role
from grace.retrieval import SearchResult
from grace.schemas import Source, ToolResult
from grace.tools.base import ToolCall, ToolEnv

__all__ = ["RagSearchTool"]


def _result(search: SearchResult, collection: str) -> ToolResult:
    sources = [
        Source(
            source_id=f"{hit.source}#{hit.chunk_index}",
            source=hit.source,
            title=hit.title,
            chunk_index=hit.chunk_index,
            location=hit.location,
            text=hit.text,
            score=min(max(hit.score, 0.0), 1.0),
            collection=collection,
        )
        for hit in search.hits
    ]
    stats = search.stats
    titles = ", ".join(dict.fromkeys(s.title or s.source for s in sources)) or "nothing"
    return ToolResult(
        success=True,
        output=f"{stats.count} passages from {titles} (best score {stats.max_score:.2f})",
        sources=sources,
        confidence_factors={
            "result_count": float(stats.count),
            "max_score": stats.max_score,
            "mean_score": stats.mean_score,
            "spread": stats.spread,
        },
    )


class RagSearchTool:
    """Search a collection of the document store."""

    name = SEARCH
    description = "Retrieve passages relevant to a focused query from a document collection."
    role: Role = "search"
    signals: tuple[str, ...] = ()

    def runs_inline(self, env: ToolEnv) -> bool:
        """Whether :meth:`run` may run in the caller's thread (see ``nodes.execute``).

        Only when the store searches in process: nothing to wait on, so no hang to abandon.
        """
        return bool(getattr(env.store, "searches_in_process", False))

    def run(self, call: ToolCall, env: ToolEnv) -> ToolResult:
        """Search ``step.collection`` (or the default) for ``step.query``."""
        query = call.step.query or call.step.description
        collection = call.step.collection or env.default_collection
        return _result(env.store.search(query, collection=collection, k=env.top_k), collection)

    async def arun(self, call: ToolCall, env: ToolEnv) -> ToolResult:
        """Async :meth:`run`."""
        query = call.step.query or call.step.description
        collection = call.step.collection or env.default_collection
        return _result(
            await env.store.asearch(query, collection=collection, k=env.top_k), collection
        )
