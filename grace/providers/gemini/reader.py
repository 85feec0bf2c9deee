"""Model-backed reader: a grounded answer that cites passages, or an explicit refusal."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import HumanMessage, SystemMessage

from grace.providers.base import ReaderAnswer, usage_from_message
from grace.providers.prompts import READER_SYSTEM, format_passages
from grace.providers.reach import stop_if_unreachable
from grace.schemas import Source

__all__ = ["INSUFFICIENT", "LLMReader"]

INSUFFICIENT = "INSUFFICIENT_CONTEXT"
_CITATION = re.compile(r"\[([SH]\d+)\]")


class LLMReader:
    """Answers with one chat-model call over delimited passages."""

    def __init__(self, model: BaseChatModel) -> None:
        """Create a reader over ``model``."""
        self.model = model

    @staticmethod
    def _messages(question: str, passages: Sequence[Source], feedback: str | None) -> list[Any]:
        extra = f"\n\nA reviewer said of a previous answer: {feedback}" if feedback else ""
        human = f"{format_passages(passages)}\n\nQuestion: {question}{extra}"
        return [SystemMessage(READER_SYSTEM), HumanMessage(human)]

    @staticmethod
    def _parse(message: Any, passages: Sequence[Source]) -> ReaderAnswer:
        text = message.content if isinstance(message.content, str) else str(message.text)
        usage = usage_from_message(message)
        known = {p.source_id for p in passages}
        if INSUFFICIENT in text or not text.strip():
            return ReaderAnswer(
                text="The documents I searched do not contain an answer to this question.",
                abstained=True,
                usage=usage,
            )
        cited = [c for c in dict.fromkeys(_CITATION.findall(text)) if c in known]
        return ReaderAnswer(text=text.strip(), cited=cited, usage=usage)

    def answer(
        self, question: str, passages: Sequence[Source], *, feedback: str | None = None
    ) -> ReaderAnswer:
        """Answer from the passages (exceptions propagate: the step fails and falls back).

        Raises:
            ModelUnreachableError: the model could not be connected to (the run stops).

        """
        with stop_if_unreachable(self.model):
            message = self.model.invoke(self._messages(question, passages, feedback))
        return self._parse(message, passages)

    async def aanswer(
        self, question: str, passages: Sequence[Source], *, feedback: str | None = None
    ) -> ReaderAnswer:
        """Async :meth:`answer`."""
        with stop_if_unreachable(self.model):
            message = await self.model.ainvoke(self._messages(question, passages, feedback))
        return self._parse(message, passages)
