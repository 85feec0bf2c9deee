"""What GRACE says in the chat (``messages``): at a pause, and with the final answer.

Chat clients (Agent Chat UI, Studio's chat) show ``messages``; the interrupt is shown apart.
So a pause posts the draft (or "I need your help: …") as an AI message, and the answer
message lists its sources and notes. Messages are only ever appended (no fixed ids): nothing
the person wrote is replaced.
"""

from __future__ import annotations

from collections.abc import Sequence

from langchain_core.messages import AIMessage

from confidence.types import InterventionLevel
from grace.schemas import Source

__all__ = ["answer_message", "pause_message", "source_lines"]


def source_lines(sources: Sequence[Source]) -> list[str]:
    """``[S1] title (rules.pdf p. 2)`` per source, in order, each once.

    The file and the place in it (:attr:`Source.citation`); a source whose title is its file
    name is just ``[S1] rules.pdf p. 2``.
    """
    seen: dict[str, str] = {}
    for s in sources:
        titled = bool(s.title) and s.title != s.source
        line = f"{s.title} ({s.citation})" if titled else s.citation
        seen.setdefault(s.source_id, f"[{s.source_id}] {line}")
    return list(seen.values())


def _sources_block(sources: Sequence[Source]) -> str:
    lines = source_lines(sources)
    return "\n\n**Sources:**\n" + "\n".join(f"- {line}" for line in lines) if lines else ""


def pause_message(
    level: InterventionLevel,
    confidence: float,
    draft: str,
    sources: Sequence[Source],
    *,
    model_failed: bool = False,
) -> AIMessage:
    """The chat message at a pause: the draft to review, or a plain request for help."""
    escalate = level == InterventionLevel.ESCALATE
    if model_failed:
        head = (
            "I need your help: the model failed during this run (see the notes), so "
            f"this is not a finding about the documents (confidence {confidence:.2f})."
        )
    elif escalate or not draft:
        head = (
            "I need your help: I could not answer this from the documents with enough "
            f"confidence ({confidence:.2f})."
        )
    else:
        head = f"Please check my draft answer before I finish (confidence {confidence:.2f})."
    body = f"\n\n**My draft:** {draft}" if draft else ""
    choices = "edit the question or the answer" if escalate else "approve it, edit it"
    return AIMessage(
        content=head
        + body
        + _sources_block(sources)
        + f"\n\n_Review it below: {choices}, or reject it with what you know "
        "(your message becomes a cited source)._"
    )


def answer_message(answer: str, sources: Sequence[Source], notes: Sequence[str]) -> AIMessage:
    """The final answer as a chat message: the answer, its sources, then any notes."""
    notes_block = "".join(f"\n\n_Note: {note}_" for note in notes)
    return AIMessage(content=answer + _sources_block(sources) + notes_block)
