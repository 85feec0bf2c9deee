"""Follow-up questions with a chat model: one call writes the standalone question.

With a chat model (:func:`standalone` / :func:`astandalone` given one), the offline rule
(:mod:`grace.planning.followup`) only *decides* that a question needs the conversation; the
model then writes the standalone question in ONE call (LangChain's "contextualize the
question given the chat history" prompt, :data:`~grace.providers.prompts.CONTEXTUALIZE_SYSTEM`)
from the last turns. A question that stands alone costs no call. A reply that is empty, too
long, not a question or not about this thread (:func:`grace.planning.followup.on_thread`)
falls back to the rule's rewrite; a model that cannot be reached stops the run
(:mod:`grace.providers.reach`).

Without a model, :func:`standalone` is the rule's rewrite alone.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from langchain_core.messages import BaseMessage, HumanMessage, SystemMessage

from confidence.model_log import ModelLog
from grace.planning.followup import Standalone, Turn, on_thread, start, turn_texts
from grace.providers.base import usage_from_message
from grace.providers.prompts import CONTEXTUALIZE_SYSTEM, escape_text

if TYPE_CHECKING:  # the model plumbing is imported by the calls that use it
    from grace.providers.llm.streaming import Budget, Streamed

__all__ = ["astandalone", "standalone"]


def _history_text(history: Sequence[Any]) -> str:
    """The earlier turns as ``<turn>`` elements: quoted data (an answer cannot close its tag)."""
    return "\n".join(
        f'<turn role="{role}">\n{escape_text(text)}\n</turn>' for role, text in turn_texts(history)
    )


def _model_messages(question: str, history: Sequence[Any]) -> list[BaseMessage]:
    human = f"Chat history:\n{_history_text(history)}\n\nLatest question: {question}"
    return [SystemMessage(CONTEXTUALIZE_SYSTEM), HumanMessage(human)]


def _read(reply: Any, turn: Turn) -> Standalone:
    """The model's standalone question, or the rule's (or the question as asked).

    The rule's when the reply is empty, too long, not a question, or about something the
    thread never mentioned (:func:`on_thread`).
    """
    question, fallback = turn.question, turn.rule
    usage = usage_from_message(reply)
    text = str(getattr(reply, "text", "") or getattr(reply, "content", "")).strip()
    line = text.splitlines()[0].strip().strip("\"'“”「」") if text else ""
    fits = line and len(line) <= 4 * len(question) + 200  # the model may keep it as it is
    if fits and on_thread(line, question, turn.history):
        return Standalone(line, "model" if line != question else "asked", usage)
    return Standalone(fallback or question, "rule" if fallback else "asked", usage)


_ROLE = "follow-up"
"""The rewrite call's role in the run's notes."""
_FALLBACK = "the follow-up rule read the question instead"


def _reply(streamed: Streamed) -> Any:
    """The rewrite; one closed for time is a failure (a question cut short is none)."""
    if streamed.closed == "time":
        raise TimeoutError(streamed.cut)
    return streamed.message


def standalone(
    question: str,
    messages: Sequence[Any],
    current_is_last: bool,
    model: Any = None,
    budget: Budget | None = None,
    log: ModelLog | None = None,
) -> Standalone:
    """The standalone form of this turn's ``question`` (``messages``: the transcript).

    Offline (``model`` None) the rule rewrites; with a chat model, one call when the rule
    says the question needs the conversation, none otherwise — streamed within ``budget``
    (None: one plain call), and within the run's model time (``log``, the graph step's
    :class:`~confidence.model_log.ModelLog`) either way; a failure is reported there.

    Raises:
        ModelUnreachableError: the model could not be connected to.

    """
    turn = start(question, messages, current_is_last, with_model=model is not None)
    if isinstance(turn, Standalone):
        return turn
    from grace.providers.llm.streaming import call_within
    from grace.providers.reach import model_call

    reply: Any = None
    with model_call(model, _ROLE, log, fallback=_FALLBACK):
        asked = _model_messages(question, turn.history)
        reply = _reply(call_within(model, asked, budget, log))
    return _read(reply, turn)


async def astandalone(
    question: str,
    messages: Sequence[Any],
    current_is_last: bool,
    model: Any = None,
    budget: Budget | None = None,
    log: ModelLog | None = None,
) -> Standalone:
    """Async :func:`standalone` (the model call awaited)."""
    turn = start(question, messages, current_is_last, with_model=model is not None)
    if isinstance(turn, Standalone):
        return turn
    from grace.providers.llm.streaming import acall_within
    from grace.providers.reach import model_call

    reply: Any = None
    with model_call(model, _ROLE, log, fallback=_FALLBACK):
        asked = _model_messages(question, turn.history)
        reply = _reply(await acall_within(model, asked, budget, log))
    return _read(reply, turn)
