"""Tools a plan step may name, and the registry that makes them the only allowed actions.

Register any LangChain tool as a plan action with ``services.tools.register(my_tool,
role="search")`` (see ``docs/architecture.md`` §8).
"""

from grace.planning.roles import (
    ANSWER,
    ASK,
    SEARCH,
    Role,
    is_answer,
    is_ask,
    is_search,
    role_of,
)
from grace.tools.base import Tool, ToolCall, ToolEnv
from grace.tools.langchain import LangChainTool
from grace.tools.registry import ToolRegistry, default_registry

__all__ = [
    "ANSWER",
    "ASK",
    "SEARCH",
    "LangChainTool",
    "Role",
    "Tool",
    "ToolCall",
    "ToolEnv",
    "ToolRegistry",
    "default_registry",
    "is_answer",
    "is_ask",
    "is_search",
    "role_of",
]
