"""Events GRACE writes to LangGraph's ``custom`` stream (``stream_mode="custom"``).

Every event is a dict with ``"event"`` (one of :data:`EVENT_TYPES`) plus:

- ``plan_ready``: ``plan_id``, ``origin``, ``steps`` (``[{step_id, action, query, depends_on}]``),
  ``repairs``;
- ``step_started``: ``step_id``, ``action``;
- ``step_finished``: ``step_id``, ``status``, ``execution_time_ms``;
- ``step_scored``: ``step_id``, ``confidence``, ``level``;
- ``notice``: ``level`` ("notify"), ``confidence``, ``message`` (NOTIFY never pauses);
- ``quality_gate``: ``step_id``, ``passed``, ``score`` (kept attempt), ``pass_threshold``,
  ``attempts``, ``regenerations``, ``kept_attempt``, ``penalty`` (0 when passed);
- ``intervention_required``: ``level``, ``confidence``, ``step_id``;
- ``replan``: ``trigger``, ``strategy``, ``reason``;
- ``final``: ``confidence``, ``level``.
"""

from __future__ import annotations

from typing import Any, Literal, get_args

from langgraph.config import get_stream_writer

__all__ = ["EVENT_TYPES", "EventType", "emit"]

EventType = Literal[
    "plan_ready",
    "step_started",
    "step_finished",
    "step_scored",
    "notice",
    "quality_gate",
    "intervention_required",
    "replan",
    "final",
]
EVENT_TYPES: tuple[str, ...] = get_args(EventType)


def emit(event: EventType, **fields: Any) -> None:
    """Write one event to the custom stream (a no-op outside a streaming run)."""
    try:
        writer = get_stream_writer()
    except RuntimeError:  # called outside a graph run (e.g. a unit test of a helper)
        return
    writer({"event": event, **fields})
