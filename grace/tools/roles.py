"""What a plan action is for: its role, and the built-in action of each role.

The graph never names a tool: it asks for the role of a step's action (``is_search``,
``is_answer``, ``is_ask``). Every tool declares its role when it is registered
(:meth:`grace.tools.ToolRegistry.register`), which records it here; the template plan,
plan repairs and replans create steps with the built-in action of a role (:data:`SEARCH`,
:data:`ANSWER`, :data:`ASK`).

- ``search`` — returns passages (``sources``) with hit statistics; scored by search quality;
- ``answer`` — answers the question from the passages of its dependencies, citing them; its
  output is the run's answer, judged and gated;
- ``ask`` — a question for the person: the run pauses (ESCALATE) for a reply;
- ``other`` — any other step: scored like an answer step from its own factors.
"""

from __future__ import annotations

from typing import Final, Literal

__all__ = [
    "ANSWER",
    "ASK",
    "SEARCH",
    "Role",
    "declare_role",
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

_roles: dict[str, Role] = {SEARCH: "search", ANSWER: "answer", ASK: "ask"}


def declare_role(action: str, role: Role) -> None:
    """Record ``action``'s role (a name keeps one role for the process)."""
    known = _roles.get(action)
    if known is not None and known != role:
        raise ValueError(f"action '{action}' is registered as a {known} tool, not {role}")
    _roles[action] = role


def role_of(action: str | None) -> Role:
    """The role of ``action`` (``other`` for a name no registry declared)."""
    return _roles.get(action or "", "other")


def is_search(action: str | None) -> bool:
    """Whether ``action`` is a search (its step's output is passages)."""
    return role_of(action) == "search"


def is_answer(action: str | None) -> bool:
    """Whether ``action`` answers the question from passages."""
    return role_of(action) == "answer"


def is_ask(action: str | None) -> bool:
    """Whether ``action`` asks the person."""
    return role_of(action) == "ask"
