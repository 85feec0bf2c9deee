"""Model-backed reader: a grounded answer that cites passages, or an explicit refusal."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from langchain_core.messages import HumanMessage, SystemMessage

from confidence.model_log import ModelLog
from grace.providers.base import ReaderAnswer, usage_from_message
from grace.providers.generation import ReplyLimits
from grace.providers.llm.streaming import Budget, Streamed, acall_within, call_within
from grace.providers.prompts import READER_SYSTEM, format_passages
from grace.providers.reach import model_call
from grace.schemas import Source

if TYPE_CHECKING:
    from langchain_core.language_models import BaseChatModel

__all__ = ["INSUFFICIENT", "NO_REPLY", "LLMReader"]

INSUFFICIENT = "INSUFFICIENT_CONTEXT"
NO_REPLY = "The model returned no answer (see the notes): this says nothing about the documents."
"""The answer when the model's reply was empty: a model failure, not an abstention."""
_CITATION = re.compile(r"\[([SH]\d+)\]")


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

    def _parse(
        self, streamed: Streamed, passages: Sequence[Source], role: str, log: ModelLog
    ) -> ReaderAnswer:
        message = streamed.message
        text = message.content if isinstance(message.content, str) else str(message.text)
        usage = usage_from_message(message)
        if streamed.cut is not None:
            log.failure(role, streamed.cut)
        if not text.strip():
            if streamed.cut is None:  # a reply cut before its first word is named as cut
                stops = ", ".join(repr(stop) for stop in self.limits.stop)
                why = f" (it may have begun with a stop sequence, {stops}: a passage of its own)"
                log.failure(role, "the model's reply was empty" + (why if stops else ""))
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

    def _call(self, feedback: str | None) -> tuple[str, BaseChatModel, Budget | None]:
        role = "rewrite" if feedback else "answer"
        model = self.rewrite_model if feedback else self.model
        return role, model, self.limits.budget(role)

    def answer(
        self,
        question: str,
        passages: Sequence[Source],
        *,
        feedback: str | None = None,
        log: ModelLog | None = None,
    ) -> ReaderAnswer:
        """Answer from the passages (exceptions propagate: the step fails and falls back).

        Raises:
            ModelUnreachableError: the model could not be connected to (the run stops).

        """
        log = ModelLog.of(log)
        role, model, budget = self._call(feedback)
        messages = self._messages(question, passages, feedback)
        with model_call(self.model, role, log):
            streamed = call_within(model, messages, budget, log)
        return self._parse(streamed, passages, role, log)

    async def aanswer(
        self,
        question: str,
        passages: Sequence[Source],
        *,
        feedback: str | None = None,
        log: ModelLog | None = None,
    ) -> ReaderAnswer:
        """Async :meth:`answer`."""
        log = ModelLog.of(log)
        role, model, budget = self._call(feedback)
        messages = self._messages(question, passages, feedback)
        with model_call(self.model, role, log):
            streamed = await acall_within(model, messages, budget, log)
        return self._parse(streamed, passages, role, log)
