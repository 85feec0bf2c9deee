"""Checkpoint serialisation: an explicit msgpack allow-list of GRACE's state types.

LangGraph's default serializer accepts any type with a warning (or, with
``LANGGRAPH_STRICT_MSGPACK=true``, only the types of the state schema it finds at
``compile()``). GRACE gives its checkpointers a serializer that allows exactly the types its
state holds, so checkpoints load silently and nothing else is ever revived from them.
"""

from __future__ import annotations

from typing import TypeVar, cast

from langchain_core import messages as lc_messages
from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.checkpoint.serde.jsonplus import JsonPlusSerializer

from confidence.types import ActionDecision, ConfidenceScore, InterventionLevel
from grace.schemas import (
    ExecutionPlan,
    InterventionRecord,
    PlanStep,
    QualityCheck,
    ReplanRecord,
    Source,
    StepResult,
    StepStatus,
    TokenUsage,
)
from grace.state import ReplanRequest, StepTask

__all__ = [
    "STATE_TYPES",
    "allow_grace_types",
    "grace_serializer",
    "msgpack_allowlist",
    "use_grace_serializer",
]

STATE_TYPES: tuple[type, ...] = (
    ActionDecision,
    ConfidenceScore,
    ExecutionPlan,
    InterventionLevel,
    InterventionRecord,
    PlanStep,
    QualityCheck,
    ReplanRecord,
    ReplanRequest,
    Source,
    StepResult,
    StepStatus,
    StepTask,
    TokenUsage,
)
"""Every project type stored in the graph state."""

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
