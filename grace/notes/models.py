"""Model failures and structured-output methods as the run's notes (``model_errors``).

The code that calls a model reports what went wrong (:mod:`confidence.model_log`); the node
that ran it adds one note per distinct report (:func:`with_model_notes`). A failure note
starts with :data:`MODEL_FAILURE`, so ``grace ask --json`` (``model_errors``), the pause and
the final answer can tell "the model failed" from "the documents do not hold the answer".
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from langgraph.types import Overwrite

from confidence.model_log import ModelEvent

__all__ = [
    "MODEL_FAILURE",
    "REVIEWED_ROLES",
    "failed_roles",
    "model_errors",
    "no_answer_text",
    "note_of",
    "with_model_notes",
]

MODEL_FAILURE = "Model failure"
"""How every model-failure note begins."""


def note_of(event: ModelEvent) -> str:
    """The note that tells the person about ``event``."""
    if event.kind == "failure":
        detail = event.detail.rstrip(".")
        return (
            f"{MODEL_FAILURE} ({event.role}): {detail}. The model failed here; this says "
            "nothing about whether the documents hold the answer."
        )
    return f"Structured output ({event.role}): {event.detail}."


def model_errors(notes: Sequence[str]) -> list[str]:
    """The model-failure notes among ``notes``."""
    return [note for note in notes if note.startswith(MODEL_FAILURE)]


REVIEWED_ROLES = ("answer", "judge")
"""Roles whose failure means a person must review the run (it never ends SILENT / NOTIFY)."""


def failed_roles(notes: Sequence[str], roles: Sequence[str] = REVIEWED_ROLES) -> list[str]:
    """The ``roles`` named by a model-failure note among ``notes``, in ``roles`` order."""
    errors = model_errors(notes)
    return [r for r in roles if any(e.startswith(f"{MODEL_FAILURE} ({r})") for e in errors)]


def with_model_notes(
    update: dict[str, Any], events: Sequence[ModelEvent], earlier: Sequence[str]
) -> dict[str, Any]:
    """``update`` with a note per distinct event not already in ``earlier`` (the run's notes).

    A node that starts a new turn overwrites the notes (``Overwrite``): the new notes go
    into that list, and only its own notes count as already said.
    """
    notes = update.get("notes")
    said = list(notes.value) if isinstance(notes, Overwrite) else [*earlier, *(notes or [])]
    new = [note for note in dict.fromkeys(map(note_of, events)) if note not in said]
    if not new:
        return update
    if isinstance(notes, Overwrite):
        return {**update, "notes": Overwrite([*notes.value, *new])}
    return {**update, "notes": [*(notes or []), *new]}


def no_answer_text(notes: Sequence[str], default: str) -> str:
    """The final answer when no step produced one: ``default``, unless the model failed."""
    if model_errors(notes):
        return "GRACE could not produce an answer because the model failed (see the notes)."
    return default
