"""Tools a plan step may name, and the registry that makes them the only allowed actions."""

from grace.tools.base import Tool, ToolCall, ToolEnv
from grace.tools.registry import ToolRegistry, default_registry

__all__ = ["Tool", "ToolCall", "ToolEnv", "ToolRegistry", "default_registry"]
