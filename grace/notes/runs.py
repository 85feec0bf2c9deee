"""Notes a run's output carries, and which of them still hold for its final answer.

The quality gate's note on a failed answer names the answer's step. When the final answer
is another one — a person's (an ``edit`` reply with an answer), or the answer of a step
planned after a person's reply — the note was about a draft that was discarded: it is left
out of the output's notes and the chat's final message (the gate's checks stay in the
state's ``quality``, shown by ``grace show``). Every other note is kept.
"""

from __future__ import annotations

from collections.abc import Sequence

from grace.patterns import lazy

__all__ = ["gate_note", "notes_for_final"]

_GATE_NOTE = lazy(r"^The answer of step (\S+) did not pass the quality gate\b")


def gate_note(step_id: str, best: float, threshold: float, tries: int, penalty: float) -> str:
    """The note on answer step ``step_id`` that no attempt passed the quality gate."""
    return (
        f"The answer of step {step_id} did not pass the quality gate (best score {best:.2f} < "
        f"{threshold:.2f} after {tries} regeneration{'' if tries == 1 else 's'}); its "
        f"confidence was lowered by {penalty:.2f}."
    )


def notes_for_final(notes: Sequence[str], final_step: str | None) -> list[str]:
    """``notes`` without the gate's notes on answers other than ``final_step``'s.

    ``final_step`` is the step whose answer is final (None: the person wrote it).
    """
    kept = []
    for note in notes:
        gated = _GATE_NOTE.match(note)
        if gated is None or gated.group(1) == final_step:
            kept.append(note)
    return kept
