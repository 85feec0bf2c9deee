"""The registry of allowed actions: a plan can only run tools registered here."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from langchain_core.tools import BaseTool

from grace.tools.ask_user import AskUserTool
from grace.tools.base import Tool
from grace.tools.langchain import LangChainTool
from grace.tools.rag_search import RagSearchTool
from grace.tools.reasoning import ReasoningTool
from grace.tools.roles import Role, declare_role

__all__ = ["ToolRegistry", "default_registry"]


class ToolRegistry:
    """Name → tool. Only code registers tools: a plan (or retrieved text) can never add one."""

    def __init__(self, tools: Iterable[Tool] = ()) -> None:
        """Register ``tools`` by their names."""
        self._tools: dict[str, Tool] = {}
        for tool in tools:
            self.register(tool)

    def register(
        self, tool: Tool | BaseTool, *, role: Role | None = None, signals: Sequence[str] = ()
    ) -> Tool:
        """Make ``tool`` a plan action; returns the registered :class:`Tool`.

        Args:
            tool: A GRACE :class:`Tool`, or any LangChain ``BaseTool`` (a plain ``@tool``
                function, an MCP tool …), wrapped as a :class:`LangChainTool`.
            role: A LangChain tool's role (``search`` / ``answer`` / ``ask`` / ``other``,
                default ``other``); a GRACE tool declares its own.
            signals: A LangChain tool's confidence signals (see :class:`LangChainTool`).

        Raises:
            ValueError: If the name is taken, or was declared with another role.

        """
        action: Tool = (
            LangChainTool(tool, role=role or "other", signals=tuple(signals))
            if isinstance(tool, BaseTool)
            else tool
        )
        if action.name in self._tools:
            raise ValueError(f"tool '{action.name}' registered twice")
        declare_role(action.name, action.role)
        self._tools[action.name] = action
        return action

    def names(self) -> list[str]:
        """Registered tool names."""
        return list(self._tools)

    def descriptions(self) -> dict[str, str]:
        """Name → description of every registered tool (what the planner is shown)."""
        return {name: tool.description for name, tool in self._tools.items()}

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
    """The built-in tools: search the store, answer from passages, ask the person."""
    return ToolRegistry([RagSearchTool(), ReasoningTool(), AskUserTool()])
