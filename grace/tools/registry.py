"""The registry of allowed actions: a plan can only run tools registered here."""

from __future__ import annotations

from collections.abc import Iterable

from grace.tools.ask_user import AskUserTool
from grace.tools.base import Tool
from grace.tools.rag_search import RagSearchTool
from grace.tools.reasoning import ReasoningTool

__all__ = ["ToolRegistry", "default_registry"]


class ToolRegistry:
    """Name → tool; names are fixed at construction (retrieved text cannot add one)."""

    def __init__(self, tools: Iterable[Tool]) -> None:
        """Register ``tools`` by their names."""
        self._tools: dict[str, Tool] = {}
        for tool in tools:
            if tool.name in self._tools:
                raise ValueError(f"tool '{tool.name}' registered twice")
            self._tools[tool.name] = tool

    def names(self) -> list[str]:
        """Registered tool names."""
        return list(self._tools)

    def __contains__(self, name: object) -> bool:
        """Whether ``name`` is a registered tool."""
        return name in self._tools

    def get(self, name: str) -> Tool:
        """The tool called ``name`` (KeyError naming the registered tools otherwise)."""
        try:
            return self._tools[name]
        except KeyError:
            raise KeyError(f"unknown tool '{name}'; registered: {', '.join(self._tools)}") from None


def default_registry() -> ToolRegistry:
    """rag_search, reasoning and ask_user."""
    return ToolRegistry([RagSearchTool(), ReasoningTool(), AskUserTool()])
