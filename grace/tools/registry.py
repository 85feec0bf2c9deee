"""The registry of allowed actions: a plan can only run tools registered here."""

from __future__ import annotations

import sys
from collections.abc import Iterable, Mapping, Sequence
from types import MappingProxyType
from typing import TYPE_CHECKING

from grace.planning.roles import BUILT_IN_ROLES, Role
from grace.tools.ask_user import AskUserTool
from grace.tools.base import Tool
from grace.tools.langchain import LangChainTool
from grace.tools.rag_search import RagSearchTool
from grace.tools.reasoning import ReasoningTool

if TYPE_CHECKING:
    from langchain_core.tools import BaseTool
    from typing_extensions import TypeIs

__all__ = ["ToolRegistry", "default_registry"]


def _is_langchain_tool(tool: Tool | BaseTool) -> TypeIs[BaseTool]:
    """Whether ``tool`` is a LangChain ``BaseTool``.

    Read from the loaded module: where LangChain's tool module was never imported no object
    can be one, and GRACE's own tools do not import it (``grace ask`` starts faster).
    """
    module = sys.modules.get("langchain_core.tools.base")
    return module is not None and isinstance(tool, module.BaseTool)


class ToolRegistry:
    """Name → tool. Only code registers tools: a plan (or retrieved text) can never add one."""

    def __init__(self, tools: Iterable[Tool] = ()) -> None:
        """Register ``tools`` by their names."""
        self._tools: dict[str, Tool] = {}
        self._roles: dict[str, Role] = dict(BUILT_IN_ROLES)
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
            ValueError: If the name is taken, or a built-in action's name is given another
                role.

        """
        action: Tool = (
            LangChainTool(tool, role=role or "other", signals=tuple(signals))
            if _is_langchain_tool(tool)
            else tool
        )
        if action.name in self._tools:
            raise ValueError(f"tool '{action.name}' registered twice")
        known = self._roles.get(action.name)
        if known is not None and known != action.role:
            raise ValueError(
                f"action '{action.name}' is registered as a {known} tool, not {action.role}"
            )
        self._roles[action.name] = action.role
        self._tools[action.name] = action
        return action

    @property
    def roles(self) -> Mapping[str, Role]:
        """Each action's role in this registry (the built-in actions' included)."""
        return MappingProxyType(self._roles)

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
