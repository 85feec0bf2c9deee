"""Checkpoint serialisation: an explicit msgpack allow-list of GRACE's state types.

LangGraph's default serializer accepts any type with a warning (or, with
``LANGGRAPH_STRICT_MSGPACK=true``, only the types of the state schema it finds at
``compile()``). GRACE gives its checkpointers a serializer that allows exactly the types its
state holds, so checkpoints load silently and nothing else is ever revived from them.
"""

from __future__ import annotations

import dataclasses
import enum
from typing import TypeVar, cast, get_args, get_type_hints

from langchain_core import messages as lc_messages
from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.checkpoint.serde.jsonplus import JsonPlusSerializer
from pydantic import BaseModel

from grace.state import State, StepConfidence, StepTask

__all__ = [
    "STATE_TYPES",
    "allow_grace_types",
    "grace_serializer",
    "msgpack_allowlist",
    "state_types",
    "use_grace_serializer",
]

_PROJECT = ("grace.", "confidence.")


def _annotations(cls: type) -> list[object]:
    if isinstance(cls, type) and issubclass(cls, BaseModel):
        return [f.annotation for f in cls.model_fields.values()]
    if dataclasses.is_dataclass(cls):
        return list(get_type_hints(cls, include_extras=True).values())
    return []


def state_types(*roots: type) -> tuple[type, ...]:
    """Every project class reachable from ``roots``' field types (models, enums, dataclasses).

    Derived from the schema, so a type added to the state is allow-listed without a second
    hand-kept list. The roots themselves are not included.
    """
    found: dict[str, type] = {}
    todo: list[object] = [a for root in roots for a in _annotations(root)]
    while todo:
        hint = todo.pop()
        todo.extend(get_args(hint))
        if not isinstance(hint, type) or not hint.__module__.startswith(_PROJECT):
            continue
        key = f"{hint.__module__}.{hint.__qualname__}"
        if key not in found and (
            issubclass(hint, BaseModel | enum.Enum) or dataclasses.is_dataclass(hint)
        ):
            found[key] = hint
            todo.extend(_annotations(hint))
    return tuple(sorted(found.values(), key=lambda t: t.__name__))


STATE_TYPES: tuple[type, ...] = (
    *state_types(State, StepTask),
    StepConfidence,
    StepTask,
)
"""Every project type stored in a checkpoint: the state's, ``StepTask`` (``Send``'s payload)
and ``StepConfidence`` (``confidence``'s update to ``results``, a pending write)."""

_MESSAGE_TYPES = (
    "AIMessage",
    "AIMessageChunk",
    "BaseMessage",
    "ChatMessage",
    "FunctionMessage",
    "HumanMessage",
    "RemoveMessage",
    "SystemMessage",
    "ToolMessage",
)

SaverT = TypeVar("SaverT", bound=BaseCheckpointSaver[str])


def msgpack_allowlist() -> list[tuple[str, str]]:
    """(module, class) pairs the serializer may revive: state types and chat messages."""
    pairs = [(t.__module__, t.__name__) for t in STATE_TYPES]
    for name in _MESSAGE_TYPES:
        cls = getattr(lc_messages, name, None)
        if cls is not None:
            pairs.append((cls.__module__, cls.__name__))
    return pairs


def grace_serializer() -> JsonPlusSerializer:
    """A serializer that revives exactly GRACE's state types (and LangGraph's safe types)."""
    return JsonPlusSerializer(allowed_msgpack_modules=msgpack_allowlist())


def use_grace_serializer(saver: SaverT) -> SaverT:
    """Give ``saver`` the GRACE serializer (in place) and return it."""
    saver.serde = grace_serializer()
    return saver


def allow_grace_types(saver: SaverT) -> SaverT:
    """``saver`` set up to revive GRACE's state types without warnings.

    LangGraph's default serializer (a plain ``JsonPlusSerializer`` that accepts any type with
    a warning) is replaced by :func:`grace_serializer`; a serializer the caller configured
    (an explicit allow-list, an encrypted serializer) keeps its settings and gains GRACE's
    types through LangGraph's own ``with_allowlist``.
    """
    if type(saver.serde) is JsonPlusSerializer:
        return use_grace_serializer(saver)
    return cast(SaverT, saver.with_allowlist(msgpack_allowlist()))
