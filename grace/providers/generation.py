"""Bounded generation: a token budget on every model call, a streamed reply closed at it.

Each role — ``plan``, ``answer``, ``judge``, ``rewrite`` — gets its own copy of the chat
model with its ``models.max_tokens`` budget (:func:`with_max_tokens`). The reader streams
its reply (:func:`stream_within`) and closes the stream when the reply passes its budget or
the request timeout: a server that ignores ``max_tokens`` is stopped by the closed
connection (llama.cpp's server stops generating when its client goes away), and the reply
so far is returned with why it was cut.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, AIMessageChunk, BaseMessage, message_chunk_to_message

__all__ = ["ROLES", "ReplyLimits", "Streamed", "astream_within", "stream_within", "with_max_tokens"]

ROLES = ("plan", "answer", "judge", "rewrite")
"""The roles of a model call, each with its own ``models.max_tokens`` budget."""

_TOKEN_FIELDS = {
    "ChatOpenAI": "max_tokens",
    "AzureChatOpenAI": "max_tokens",
    "ChatAnthropic": "max_tokens",
    "ChatOllama": "num_predict",
}
"""The field that caps a reply's tokens, per chat model class. Gemini is not in the table:
Gemini 2.5 counts its thinking tokens in ``max_output_tokens``, so a cap sized for the
reply empties it (``finish_reason: MAX_TOKENS``); Gemini's requests stay as they were."""

_CUT_REASONS = frozenset({"length", "max_tokens", "MAX_TOKENS"})
"""``finish_reason`` / ``done_reason`` / ``stop_reason`` values of a reply cut at its budget."""


def with_max_tokens(model: BaseChatModel, max_tokens: int) -> BaseChatModel:
    """A copy of ``model`` whose replies stop at ``max_tokens`` (``model`` itself if unknown).

    ``langchain-openai`` sends the budget as ``max_completion_tokens``; servers of the
    OpenAI API elsewhere (llama.cpp's, LM Studio's, Ollama's) read ``max_tokens`` and ignore
    the other, so against a named ``base_url`` the request carries both, and asks for the
    usage of a streamed reply (``stream_options``; servers that cannot ignore it).
    """
    name = type(model).__name__
    token_field = _TOKEN_FIELDS.get(name)
    if token_field is None or token_field not in type(model).model_fields:
        return model
    update: dict[str, Any] = {token_field: max_tokens}
    if name == "ChatOpenAI" and getattr(model, "openai_api_base", None):
        extra = dict(getattr(model, "extra_body", None) or {})
        update["extra_body"] = {**extra, "max_tokens": max_tokens}
        update["stream_usage"] = True
    return model.model_copy(update=update)


@dataclass(frozen=True)
class ReplyLimits:
    """The budgets of the reader's free-text replies."""

    answer: int | None = None
    """Tokens of an answer (None: no budget)."""
    rewrite: int | None = None
    """Tokens of an answer rewritten after a reviewer's feedback."""
    stop: tuple[str, ...] = ()
    """Stop sequences of both."""
    seconds: float | None = None
    """Wall-clock budget of a streamed reply (the request timeout)."""

    def tokens(self, role: str) -> int | None:
        """The token budget of ``role`` (``answer`` or ``rewrite``)."""
        return self.rewrite if role == "rewrite" else self.answer


@dataclass
class Streamed:
    """A streamed reply, whole or cut."""

    message: AIMessage
    """The reply (what arrived before a cut)."""
    cut: str | None = None
    """Why the reply is not whole (None: the model ended it)."""
    chunks: int = field(default=0)
    """Content chunks received (about one token each from a local server)."""


class _Reply:
    """Chunks added up, with the budget checks."""

    def __init__(self, max_tokens: int | None, seconds: float | None) -> None:
        self.max_tokens = max_tokens
        self.seconds = seconds
        self.started = time.monotonic()
        self.message: AIMessageChunk | None = None
        self.chunks = 0
        self.cut: str | None = None

    def add(self, chunk: AIMessageChunk) -> bool:
        """Add ``chunk``; True when the reply is over its budget (close the stream)."""
        self.message = chunk if self.message is None else self.message + chunk
        self.chunks += 1 if chunk.content else 0
        if self.max_tokens is not None and self.chunks > self.max_tokens:
            self.cut = f"the reply ran past its {self.max_tokens}-token budget: stream closed"
        elif self.seconds is not None and time.monotonic() - self.started > self.seconds:
            self.cut = f"the reply ran past {self.seconds:g} s: stream closed"
        return self.cut is not None

    def result(self) -> Streamed:
        message: BaseMessage = AIMessage(content="") if self.message is None else self.message
        if isinstance(message, AIMessageChunk):
            message = message_chunk_to_message(message)
        if not isinstance(message, AIMessage):  # pragma: no cover - chat models reply AIMessages
            message = AIMessage(content=message.content)
        cut = self.cut
        meta = message.response_metadata
        reason = meta.get("finish_reason") or meta.get("done_reason") or meta.get("stop_reason")
        if cut is None and reason in _CUT_REASONS:
            budget = f"{self.max_tokens}-token " if self.max_tokens is not None else ""
            cut = f"the reply reached its {budget}budget and was cut ({reason})"
        return Streamed(message, cut, self.chunks)


def stream_within(
    model: BaseChatModel,
    messages: Sequence[BaseMessage],
    *,
    max_tokens: int | None,
    stop: Sequence[str] = (),
    seconds: float | None = None,
) -> Streamed:
    """Stream ``model``'s reply, closing the stream once it passes ``max_tokens`` or ``seconds``."""
    reply = _Reply(max_tokens, seconds)
    chunks = model.stream(list(messages), stop=list(stop) or None)
    try:
        for chunk in chunks:
            if reply.add(chunk):
                break
    finally:
        close = getattr(chunks, "close", None)
        if close is not None:
            close()  # now, not when collected: the server sees the connection end
    return reply.result()


async def astream_within(
    model: BaseChatModel,
    messages: Sequence[BaseMessage],
    *,
    max_tokens: int | None,
    stop: Sequence[str] = (),
    seconds: float | None = None,
) -> Streamed:
    """Asynchronous :func:`stream_within`."""
    reply = _Reply(max_tokens, seconds)
    chunks = model.astream(list(messages), stop=list(stop) or None)
    try:
        async for chunk in chunks:
            if reply.add(chunk):
                break
    finally:
        aclose = getattr(chunks, "aclose", None)
        if aclose is not None:
            await aclose()
    return reply.result()
