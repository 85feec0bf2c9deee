"""Model-backed reader: a grounded answer that cites passages, or an explicit refusal."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, HumanMessage, SystemMessage

from confidence.model_log import model_time_left, report_failure
from confidence.streaming import Budget, Streamed, astream_within, stream_within
from confidence.structured import describe_error
from grace.errors import ModelUnreachableError
from grace.providers.base import ReaderAnswer, usage_from_message
from grace.providers.generation import ReplyLimits
from grace.providers.prompts import READER_SYSTEM, format_passages
from grace.providers.reach import stop_if_unreachable
from grace.schemas import Source

__all__ = ["INSUFFICIENT", "NO_REPLY", "LLMReader"]

INSUFFICIENT = "INSUFFICIENT_CONTEXT"
NO_REPLY = "The model returned no answer (see the notes): this says nothing about the documents."
"""The answer when the model's reply was empty: a model failure, not an abstention."""
_CITATION = re.compile(r"\[([SH]\d+)\]")


def _whole(message: object) -> Streamed:
    """A reply of one plain call, as a :class:`Streamed` that was not cut."""
    if isinstance(message, AIMessage):
        return Streamed(message)
    return Streamed(AIMessage(content=str(getattr(message, "content", ""))))


class LLMReader:
    """Answers with one streamed chat-model call over delimited passages.

    The reply streams within its budget (:class:`~grace.providers.generation.ReplyLimits`:
    ``answer`` tokens, or ``rewrite`` tokens after a reviewer's feedback, and the request
    timeout); a reply cut at its budget keeps what arrived and is named in the run's notes.
    """

    def __init__(
        self,
        model: BaseChatModel,
        *,
        rewrite_model: BaseChatModel | None = None,
        limits: ReplyLimits | None = None,
    ) -> None:
        """Create a reader over ``model`` (``rewrite_model`` for rewrites, default the same)."""
        self.model = model
        self.rewrite_model = rewrite_model or model
        self.limits = limits or ReplyLimits()

    @staticmethod
    def _messages(question: str, passages: Sequence[Source], feedback: str | None) -> list[Any]:
        extra = f"\n\nA reviewer said of a previous answer: {feedback}" if feedback else ""
        human = f"{format_passages(passages)}\n\nQuestion: {question}{extra}"
        return [SystemMessage(READER_SYSTEM), HumanMessage(human)]

    def _parse(self, streamed: Streamed, passages: Sequence[Source], role: str) -> ReaderAnswer:
        message = streamed.message
        text = message.content if isinstance(message.content, str) else str(message.text)
        usage = usage_from_message(message)
        if streamed.cut is not None:
            report_failure(role, streamed.cut)
        if not text.strip():
            stops = ", ".join(repr(stop) for stop in self.limits.stop)
            why = f" (it may have begun with a stop sequence, {stops}: a passage of its own)"
            report_failure(role, "the model's reply was empty" + (why if stops else ""))
            return ReaderAnswer(text=NO_REPLY, abstained=True, usage=usage)
        if INSUFFICIENT in text:
            return ReaderAnswer(
                text="The documents I searched do not contain an answer to this question.",
                abstained=True,
                usage=usage,
            )
        known = {p.source_id for p in passages}
        cited = [c for c in dict.fromkeys(_CITATION.findall(text)) if c in known]
        return ReaderAnswer(text=text.strip(), cited=cited, usage=usage)

    def _call(self, feedback: str | None) -> tuple[str, BaseChatModel, Budget]:
        role = "rewrite" if feedback else "answer"
        model = self.rewrite_model if feedback else self.model
        limits = self.limits
        return role, model, Budget(limits.tokens(role), limits.stop, limits.seconds)

    def answer(
        self, question: str, passages: Sequence[Source], *, feedback: str | None = None
    ) -> ReaderAnswer:
        """Answer from the passages (exceptions propagate: the step fails and falls back).

        Raises:
            ModelUnreachableError: the model could not be connected to (the run stops).

        """
        role, model, budget = self._call(feedback)
        messages = self._messages(question, passages, feedback)
        try:
            with stop_if_unreachable(self.model):
                if self.limits.stream:
                    streamed = stream_within(model, messages, budget)
                else:
                    model_time_left()  # none left: no call (the step fails, named)
                    streamed = _whole(model.invoke(messages))
        except ModelUnreachableError:
            raise
        except Exception as exc:
            report_failure(role, describe_error(exc))
            raise
        return self._parse(streamed, passages, role)

    async def aanswer(
        self, question: str, passages: Sequence[Source], *, feedback: str | None = None
    ) -> ReaderAnswer:
        """Async :meth:`answer`."""
        role, model, budget = self._call(feedback)
        messages = self._messages(question, passages, feedback)
        try:
            with stop_if_unreachable(self.model):
                if self.limits.stream:
                    streamed = await astream_within(model, messages, budget)
                else:
                    model_time_left()
                    streamed = _whole(await model.ainvoke(messages))
        except ModelUnreachableError:
            raise
        except Exception as exc:
            report_failure(role, describe_error(exc))
            raise
        return self._parse(streamed, passages, role)
