"""A streamed model reply, closed when it passes its token or time budget.

Closing the HTTP stream is what stops a local server's generation (llama.cpp's server stops
when its client goes away; a client-side timeout of a non-streamed request does not), so
calls that must stay bounded stream their reply through :func:`stream_within` and keep what
arrived before the cut, with why it was cut.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from langchain_core.messages import AIMessage, AIMessageChunk, BaseMessage, message_chunk_to_message
from langchain_core.runnables import Runnable

from confidence.model_log import ModelLog

__all__ = [
    "Budget",
    "ReplyCut",
    "Streamed",
    "acall_within",
    "astream_within",
    "call_within",
    "stream_within",
]

_CUT_REASONS = frozenset({"length", "max_tokens", "MAX_TOKENS"})
"""``finish_reason`` / ``done_reason`` / ``stop_reason`` values of a reply cut at its budget."""


@dataclass
class Streamed:
    """A streamed reply, whole or cut."""

    message: AIMessage
    """The reply (what arrived before a cut)."""
    cut: str | None = None
    """Why the reply is not whole (None: the model ended it)."""
    chunks: int = field(default=0)
    """Content chunks received (about one token each from a local server)."""
    closed: Literal["tokens", "time"] | None = None
    """Why GRACE closed the stream: past its token budget, or past its seconds (None: the
    server ended it, whole or cut at its own ``max_tokens``)."""


class ReplyCut(RuntimeError):
    """A reply GRACE closed at its token budget: incomplete, but not a timeout."""


class _Reply:
    """Chunks added up, with the budget checks."""

    def __init__(self, max_tokens: int | None, seconds: float | None) -> None:
        self.max_tokens = max_tokens
        self.seconds = seconds
        self.started = time.monotonic()
        self.message: AIMessageChunk | None = None
        self.chunks = 0
        self.cut: str | None = None
        self.closed: Literal["tokens", "time"] | None = None

    def add(self, chunk: AIMessageChunk) -> bool:
        """Add ``chunk``; True when the reply is over its budget (close the stream)."""
        self.message = chunk if self.message is None else self.message + chunk
        self.chunks += 1 if chunk.content else 0
        if self.max_tokens is not None and self.chunks > self.max_tokens:
            self.closed = "tokens"
            self.cut = f"the reply ran past its {self.max_tokens}-token budget: stream closed"
        elif self.seconds is not None and time.monotonic() - self.started > self.seconds:
            self.closed = "time"
            self.cut = f"the reply ran past {self.seconds:g} s: stream closed"
        return self.closed is not None

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
        return Streamed(message, cut, self.chunks, self.closed)


@dataclass(frozen=True)
class Budget:
    """What a streamed reply may use before its stream is closed."""

    max_tokens: int | None = None
    """Content chunks (about one token each from a local server); None: no limit."""
    stop: tuple[str, ...] = ()
    """Stop sequences sent with the request."""
    seconds: float | None = None
    """Wall-clock seconds; None: no limit."""
    timeout_arg: str | None = None
    """The call's keyword for a per-request timeout, for clients that take one (the provider
    table says which: ``grace/providers/models.py``); None: the client's is fixed."""

    def options(self) -> dict[str, Any]:
        """The call's keyword arguments."""
        return {"stop": list(self.stop)} if self.stop else {}


def _seconds(budget: Budget, log: ModelLog) -> float | None:
    """The call's seconds: its own, within the run's model time left (raises when none)."""
    left = log.time_left()
    if left is None:
        return budget.seconds
    return left if budget.seconds is None else min(budget.seconds, left)


def _options(budget: Budget, seconds: float | None, log: ModelLog) -> dict[str, Any]:
    """The call's keyword arguments; under a run's model time, the request's timeout.

    A server still reading the prompt sends nothing, so closing the stream at the next
    chunk is not enough: the request itself times out when the run's time is up (for a
    client that takes a per-request timeout, :attr:`Budget.timeout_arg`).
    """
    options = budget.options()
    if budget.timeout_arg is not None and seconds is not None and log.time_left() is not None:
        options[budget.timeout_arg] = max(seconds, 0.1)
    return options


def _note_timeout(exc: BaseException, log: ModelLog) -> None:
    """A request that timed out spends the run's model time."""
    if isinstance(exc, TimeoutError) or "timeout" in type(exc).__name__.lower():
        log.timed_out(type(exc).__name__)


def _spend_if_late(streamed: Streamed, log: ModelLog) -> Streamed:
    """A reply closed for time spends the run's model time."""
    if streamed.closed == "time":
        log.timed_out(streamed.cut or "stream closed")
    return streamed


def stream_within(
    model: Runnable[Any, Any],
    messages: Sequence[BaseMessage],
    budget: Budget,
    log: ModelLog | None = None,
) -> Streamed:
    """Stream ``model``'s reply, closing the stream once it passes its ``budget``.

    The run's model time (``log``: :meth:`confidence.model_log.ModelLog.time_left`) bounds
    the seconds too; a reply closed for time, or a request that timed out, spends it.
    """
    log = ModelLog.of(log)
    reply = _Reply(budget.max_tokens, _seconds(budget, log))
    chunks = model.stream(list(messages), **_options(budget, reply.seconds, log))
    try:
        for chunk in chunks:
            if reply.add(chunk):
                break
    except Exception as exc:
        _note_timeout(exc, log)
        raise
    finally:
        close = getattr(chunks, "close", None)
        if close is not None:
            close()  # now, not when collected: the server sees the connection end
    return _spend_if_late(reply.result(), log)


async def astream_within(
    model: Runnable[Any, Any],
    messages: Sequence[BaseMessage],
    budget: Budget,
    log: ModelLog | None = None,
) -> Streamed:
    """Asynchronous :func:`stream_within`."""
    log = ModelLog.of(log)
    reply = _Reply(budget.max_tokens, _seconds(budget, log))
    chunks = model.astream(list(messages), **_options(budget, reply.seconds, log))
    try:
        async for chunk in chunks:
            if reply.add(chunk):
                break
    except Exception as exc:
        _note_timeout(exc, log)
        raise
    finally:
        aclose = getattr(chunks, "aclose", None)
        if aclose is not None:
            await aclose()
    return _spend_if_late(reply.result(), log)


def _whole(message: object) -> Streamed:
    """A reply of one plain call, as a :class:`Streamed` that was not cut."""
    if isinstance(message, AIMessage):
        return Streamed(message)
    return Streamed(AIMessage(content=str(getattr(message, "content", ""))))


def call_within(
    model: Runnable[Any, Any],
    messages: Sequence[BaseMessage],
    budget: Budget | None,
    log: ModelLog | None = None,
) -> Streamed:
    """One model call: streamed within ``budget``, or (None) one plain call.

    Either way no call starts once the run's model time (``log``) is spent
    (:class:`~confidence.model_log.ModelBudgetSpent`).
    """
    if budget is None:
        ModelLog.of(log).time_left()  # none left: no call
        return _whole(model.invoke(list(messages)))
    return stream_within(model, messages, budget, log)


async def acall_within(
    model: Runnable[Any, Any],
    messages: Sequence[BaseMessage],
    budget: Budget | None,
    log: ModelLog | None = None,
) -> Streamed:
    """Asynchronous :func:`call_within`."""
    if budget is None:
        ModelLog.of(log).time_left()
        return _whole(await model.ainvoke(list(messages)))
    return await astream_within(model, messages, budget, log)
