"""Any LangChain tool (a plain ``@tool`` function, an MCP tool …) as a plan action.

:class:`LangChainTool` adapts a :class:`~langchain_core.tools.BaseTool` to GRACE's
:class:`~grace.tools.Tool`: the step's ``query`` is the tool's input (its only argument, or
the argument called ``query``; a ``collection`` argument gets the step's collection), and the
tool's return value becomes the step's result:

- a ``search`` tool returns passages — a string, a list of strings, or LangChain
  ``Document``s (``metadata["score"]`` in [0, 1] when it ranks them; an unscored passage counts
  as an exact match, 1.0, like a lookup) — which become the step's sources, citable by the
  answer step, with the hit statistics search quality is computed from;
- any other tool returns text (the step's output); a ``dict`` return value's numbers named in
  ``signals`` are its confidence signals, its ``"output"`` the text.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from grace.planning.roles import Role
from grace.schemas import Source, ToolResult
from grace.tools.base import ToolCall, ToolEnv

if TYPE_CHECKING:
    from langchain_core.tools import BaseTool

__all__ = ["LangChainTool"]


@dataclass
class LangChainTool:
    """A LangChain tool registered as a plan action with a role and confidence signals."""

    tool: BaseTool
    """The wrapped tool; its name and description are the action's."""
    role: Role = "other"
    """What the step is for (:mod:`grace.planning.roles`)."""
    signals: tuple[str, ...] = ()
    """Confidence signals the tool reports (numbers of a ``dict`` return value)."""

    name: str = field(init=False)
    """The tool's name (what plans call the action)."""
    description: str = field(init=False)
    """The tool's description (listed in the planner's prompt)."""

    def __post_init__(self) -> None:
        self.name = self.tool.name
        self.description = self.tool.description

    def _input(self, call: ToolCall, env: ToolEnv) -> dict[str, Any]:
        args = list(self.tool.args)
        query = call.step.query or call.step.description
        values: dict[str, Any] = {}
        if "collection" in args:
            values["collection"] = call.step.collection or env.default_collection
        key = "query" if "query" in args else next((a for a in args if a not in values), None)
        if key is not None:
            values[key] = query
        return values

    def runs_inline(self, env: ToolEnv) -> bool:
        """No: a foreign tool may block, so it runs under the step's timeout."""
        return False

    def run(self, call: ToolCall, env: ToolEnv) -> ToolResult:
        """Invoke the tool on the step."""
        return self._result(self.tool.invoke(self._input(call, env)))

    async def arun(self, call: ToolCall, env: ToolEnv) -> ToolResult:
        """Invoke the tool on the step without blocking the event loop."""
        return self._result(await self.tool.ainvoke(self._input(call, env)))

    def _result(self, value: Any) -> ToolResult:
        if isinstance(value, ToolResult):
            return value
        if self.role == "search":
            return self._passages(value if isinstance(value, list) else [value])
        if isinstance(value, dict):
            signals = {k: float(value[k]) for k in self.signals if k in value}
            return ToolResult(
                success=True, output=str(value.get("output", "")), confidence_factors=signals
            )
        return ToolResult(success=True, output=str(value))

    def _passages(self, items: Sequence[Any]) -> ToolResult:
        sources = [self._source(i, item) for i, item in enumerate(items)]
        scores = [s.score for s in sources]
        best = max(scores, default=0.0)
        return ToolResult(
            success=True,
            output=f"{len(sources)} passages from {self.name} (best score {best:.2f})",
            sources=sources,
            confidence_factors={
                "result_count": float(len(sources)),
                "max_score": best,
                "mean_score": sum(scores) / len(scores) if scores else 0.0,
                "spread": best - min(scores, default=0.0),
            },
        )

    def _source(self, index: int, item: Any) -> Source:
        from langchain_core.documents import Document  # with a LangChain tool's first result

        doc = item if isinstance(item, Document) else Document(page_content=str(item))
        origin = str(doc.metadata.get("source", self.name))
        score = float(doc.metadata.get("score", 1.0))
        return Source(
            source_id=f"{origin}#{index}",
            source=origin,
            title=str(doc.metadata.get("title", self.name)),
            chunk_index=index,
            text=doc.page_content,
            score=min(max(score, 0.0), 1.0),
        )
