"""What a plan action is for: its role, and the built-in action of each role.

The graph never names a tool: it asks for the role of a step's action (``is_search``,
``is_answer``, ``is_ask``). Every tool declares its role when it is registered
(:meth:`grace.tools.ToolRegistry.register`), and the registry keeps it: two registries may
give one name different roles. A node reads the roles of its run's registry
(:func:`roles_in_force`, set by ``nodes.common.services_for`` for the node's task only);
outside a run the built-in actions' roles apply. The template plan,
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
from contextvars import ContextVar
from types import MappingProxyType
from typing import Final, Literal

__all__ = [
    "ANSWER",
    "ASK",
    "BUILT_IN_ROLES",
    "SEARCH",
    "Role",
    "is_answer",
    "is_ask",
    "is_search",
    "role_of",
    "roles_in_force",
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

_in_force: ContextVar[Mapping[str, Role]] = ContextVar("grace_tool_roles", default=BUILT_IN_ROLES)


def roles_in_force(roles: Mapping[str, Role]) -> None:
    """Make ``roles`` (a registry's) the ones the current context reads.

    LangGraph runs each task in a context of its own, so a node that sets them sets them for
    its own task: two graphs with different registries never see each other's roles.
    """
    _in_force.set(roles)


def role_of(action: str | None) -> Role:
    """The role of ``action`` in the registry in force (``other`` for a name it lacks)."""
    return _in_force.get().get(action or "", "other")


def is_search(action: str | None) -> bool:
    """Whether ``action`` is a search (its step's output is passages)."""
    return role_of(action) == "search"


def is_answer(action: str | None) -> bool:
    """Whether ``action`` answers the question from passages."""
    return role_of(action) == "answer"


def is_ask(action: str | None) -> bool:
    """Whether ``action`` asks the person."""
    return role_of(action) == "ask"
