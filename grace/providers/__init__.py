"""Model providers: the offline default and Gemini, behind the same protocols."""

from grace.providers.base import (
    Planner,
    PlanOutcome,
    PlanRequest,
    Reader,
    ReaderAnswer,
    usage_from_message,
)

__all__ = [
    "PlanOutcome",
    "PlanRequest",
    "Planner",
    "Reader",
    "ReaderAnswer",
    "usage_from_message",
]
