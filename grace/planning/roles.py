"""What a plan action is for: its role, and the built-in action of each role.

The graph never names a tool: it asks for the role of a step's action (``is_search``,
``is_answer``, ``is_ask``) in the roles of its run's tool registry. Every tool declares its
role when it is registered (:meth:`grace.tools.ToolRegistry.register`), and the registry
keeps it (:attr:`~grace.tools.ToolRegistry.roles`): two registries may give one name
different roles. The functions below take those roles (default: the built-in actions'
alone, :data:`BUILT_IN_ROLES`). The template plan,
plan repairs and replans create steps with the built-in action of a role (:data:`SEARCH`,
:data:`ANSWER`, :data:`ASK`).

- ``search`` — returns passages (``sources``) with hit statistics; scored by search quality;
- ``answer`` — answers the question from the passages of its dependencies, citing them; its
  output is the run's answer, judged and gated;
- ``ask`` — a question for the person: the run pauses (ESCALATE) for a reply;
- ``other`` — any other step: scored like an answer step from its own factors.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Final, Literal

__all__ = [
    "ANSWER",
    "ASK",
    "BUILT_IN_ROLES",
    "SEARCH",
    "Role",
    "Roles",
    "is_answer",
    "is_ask",
    "is_search",
    "role_of",
]

Role = Literal["search", "answer", "ask", "other"]
"""What a tool does for the run (see the module docstring)."""

SEARCH: Final = "rag_search"
"""The built-in search action (steps the planner's template and replans create)."""
ANSWER: Final = "reasoning"
"""The built-in answer action."""
ASK: Final = "ask_user"
"""The built-in action that asks the person."""

BUILT_IN_ROLES: Mapping[str, Role] = MappingProxyType(
    {SEARCH: "search", ANSWER: "answer", ASK: "ask"}
)
"""The built-in actions' roles (what applies outside a run)."""

Roles = Mapping[str, Role]
"""A registry's roles by action name."""


def role_of(action: str | None, roles: Roles = BUILT_IN_ROLES) -> Role:
    """The role of ``action`` in ``roles`` (``other`` for a name they lack)."""
    return roles.get(action or "", "other")


def is_search(action: str | None, roles: Roles = BUILT_IN_ROLES) -> bool:
    """Whether ``action`` is a search (its step's output is passages)."""
    return role_of(action, roles) == "search"


def is_answer(action: str | None, roles: Roles = BUILT_IN_ROLES) -> bool:
    """Whether ``action`` answers the question from passages."""
    return role_of(action, roles) == "answer"


def is_ask(action: str | None, roles: Roles = BUILT_IN_ROLES) -> bool:
    """Whether ``action`` asks the person."""
    return role_of(action, roles) == "ask"
